/* tput: presets for the training-log shapes in the formats table, and the traps around them. */
#include "tput.h"
#include "input.h"
#include "lit.h"
#include "rx.h"
#include "tputbyte.h"
#include "tputctx.h"
#include "tputkv.h"
#include "tputnorm.h"
#include "tputpreset.h"
#include "tputrec.h"
#include "tputrule.h"
#include "tputunit.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FRAME_MAX = 16, BAR_SEEN = 64, BAR_TOTALS = 4 };

/* A point given after a held bar frame: it waits, so that points go out in line order. */
struct queued {
	unsigned long lineno;
	struct tput_point pt;
};
enum { QUEUE_MAX = 1 << 16 };  /* a bar frame not drawn again within as many points is alone */

/* A progress bar's frame held back until its bar shows another: a bar seen once (a data
 * preparation bar caught mid-way) is no training series. np 0: none held. */
struct bar_held {
	struct tput_point pts[FRAME_MAX];
	size_t np;
	unsigned long lineno;
	double total;
	long long step;
	int round;                 /* a bar's closing frame, its round seen in it alone */
};

/* What a run of lines leaves for the next: a record header's step and time, the last figure
 * of each unit (to tell an unprefixed rank's copy), the last frame (to tell a redraw), the
 * progress bars' frames seen lately and the totals of bars that showed two frames. */
struct carry {
	long long step;
	long rank;                 /* the header line's, -1 when it had none */
	long long prev_step;       /* the step of the last figures that had one */
	unsigned long prev_step_line; /* their line; 0: none */
	double time;
	int have_time;
	unsigned long lineno;      /* 0: no header */
	long long last_step[TPUT_NUNITS];
	unsigned long last_line[TPUT_NUNITS];
	unsigned long last_frame_line; /* the line of the last frame with figures (its text: ex->last_frame) */
	unsigned long metrics_line; /* a "***** train metrics *****" summary block starts here */
	unsigned long emit_line, emit_prev; /* the last line that gave figures, and the one before */
	unsigned long seen_line;   /* the last line looked at: a smaller number starts another input */
	uint64_t bar_seen[BAR_SEEN]; /* hashes of bar frames up to their rate, the last BAR_SEEN */
	size_t bar_seen_at;
	double bar_total[BAR_TOTALS]; /* totals of bars shown in two frames (0: none) */
	size_t bar_total_at;
	double bar_last_total;     /* the last bar frame's total and count (0 0: none) */
	long long bar_last_step;
	struct bar_held held;
};

struct tput_ex {
	struct tputrule_set rs;    /* the rules, their literals, the line shapes' rules */
	struct carry carry;
	size_t inference, copies;
	tputkv_cache *kvcache;  /* the key/value reader's analysis of the keys seen */
	struct tputrec_buf joined; /* a record hard-wrapped over lines, put back together */
	struct queued *queue;      /* points after a held bar frame, given once it is settled */
	size_t nqueue, queue_cap;
	char *last_frame;          /* the last frame that gave figures: a redraw repeats it */
	size_t last_frame_len, last_frame_cap;
	struct tput_point last_pts[FRAME_MAX]; /* its figures, step and loss as read from it */
	size_t last_np;
	struct tputctx_words ctxwords;
};

static void carry_reset(struct carry *c)
{
	memset(c, 0, sizeof *c);
	for (size_t u = 0; u < TPUT_NUNITS; u++)
		c->last_step[u] = -1;
}

/* Another input: nothing of the last one carries over, nor waits. */
static void start_input(tput_ex *ex)
{
	carry_reset(&ex->carry);
	ex->nqueue = 0;
}

tput_ex *tput_ex_new(void)
{
	tput_ex *ex = xcalloc(1, sizeof(tput_ex));
	tputrule_init(&ex->rs);
	ex->kvcache = tputkv_cache_new();
	tputctx_init(&ex->ctxwords);
	carry_reset(&ex->carry);
	return ex;
}

void tput_ex_free(tput_ex *ex)
{
	if (!ex)
		return;
	tputrule_free(&ex->rs);
	tputkv_cache_free(ex->kvcache);
	free(ex->joined.text);
	free(ex->last_frame);
	free(ex->queue);
	free(ex);
}

void tput_ex_add_preset(tput_ex *ex, size_t index) { tputrule_add_preset(&ex->rs, index); }

int tput_ex_add_regex(tput_ex *ex, const char *pattern, char *err, size_t errlen)
{
	return tputrule_add_regex(&ex->rs, pattern, err, errlen);
}

tput_ex *tput_ex_clone(const tput_ex *ex)
{
	tput_ex *copy = tput_ex_new();
	for (size_t i = 0; i < ex->rs.n; i++) {
		char err[256];
		if (ex->rs.rules[i].preset >= 0)
			tput_ex_add_preset(copy, (size_t)ex->rs.rules[i].preset);
		else if (tput_ex_add_regex(copy, rx_pattern(ex->rs.rules[i].re), err, sizeof err) != 0)
			abort();  /* it compiled once */
	}
	return copy;
}

size_t tput_ex_rules(const tput_ex *ex) { return ex->rs.n; }
const char *tput_ex_rule_name(const tput_ex *ex, size_t rule) { return ex->rs.rules[rule].name; }

struct line_ctx {
	struct tputrule_shape *shape; /* the line's, NULL when unknown */
	const char *start;        /* the line's first byte */
	int split;
	int digits;            /* the line past its rank prefix has a digit (its frames may) */
	long rank;
	int have_time;
	double time;
	unsigned long lineno;
	int literal;            /* a rule's literal is in the line (not only rules without any) */
};

/* The per-device unit of a figure read on a line whose preset says its figures are per device. */
static enum tput_unit per_device_unit(enum tput_unit u)
{
	switch (u) {
	case TPUT_TOKENS_S: case TPUT_TPS: return TPUT_TOKENS_S_GPU;
	case TPUT_SAMPLES_S: return TPUT_SAMPLES_S_GPU;
	case TPUT_TFLOPS: return TPUT_TFLOPS_GPU;
	default: return u;
	}
}

/* The key/value reader's figures join the preset's: one per unit, a plain figure before a
 * running average; the line's step and loss fill what the preset left unknown. */
static size_t add_kv(tput_ex *ex, int rule, const char *s, size_t len, const struct line_ctx *lc, int per_device,
		     struct tput_point *pts, size_t np, int *from_kv_avg, struct tputkv_line *info,
		     struct tputkv_shape **shape)
{
	struct tputkv_figure kvs[FRAME_MAX];
	struct tputrule_shape *ls = lc->shape;
	uint32_t frame_at = (uint32_t)(s - lc->start);
	int linked = ls && ls->frame && ls->frame->serial == ls->frame_serial && ls->frame_at == frame_at &&
		     ls->frame_len == len;
	size_t nk = tputkv_read_shape(ex->kvcache, s, len, kvs, FRAME_MAX, info, linked ? ls->frame : NULL, shape);
	if (ls && !linked && *shape) {
		ls->frame = *shape;
		ls->frame_serial = (*shape)->serial;
		ls->frame_at = frame_at;
		ls->frame_len = (uint32_t)len;
	}
	for (size_t k = 0; k < nk; k++) {
		enum tput_unit u = per_device > 0 ? per_device_unit(kvs[k].unit) : kvs[k].unit;
		if (per_device < 0 && u == TPUT_TPS)
			u = TPUT_TOKENS_S;
		size_t at = np;
		for (size_t j = 0; j < np; j++)
			if (pts[j].unit == u)
				at = j;
		if (at < np && !(from_kv_avg[at] && !kvs[k].average))
			continue;
		if (at == np) {
			if (np == FRAME_MAX)
				continue;
			np++;
		}
		pts[at] = (struct tput_point){ lc->rank, -1, lc->have_time ? lc->time : NAN, kvs[k].value, u, NAN,
					       rule };
		from_kv_avg[at] = kvs[k].average;
	}
	return np;
}

/* The points waiting behind a bar frame, to the sink in order. */
static void flush_queue(tput_ex *ex, tput_sink *sink, void *ctx)
{
	for (size_t k = 0; k < ex->nqueue; k++)
		sink(ctx, ex->queue[k].lineno, TPUT_POINT, &ex->queue[k].pt, NULL);
	ex->nqueue = 0;
}

/* A line's points, step and all worked out, to the sink (to the queue while a bar frame
 * before them is held); an unprefixed rank's copy of the
 * figures just before is counted, not given. */
static void emit_points(tput_ex *ex, struct tput_point *pts, size_t np, unsigned long lineno, tput_sink *sink,
			void *ctx)
{
	struct carry *c = &ex->carry;
	for (size_t i = 0; i < np; i++) {
		struct tput_point *pt = &pts[i];
		/* An unprefixed rank's copy repeats the step of the figures just before (this line's
		 * earlier frame or the last line with figures) in its unit. */
		if (c->emit_line != lineno) {
			c->emit_prev = c->emit_line;
			c->emit_line = lineno;
		}
		unsigned long seen = c->last_line[pt->unit];
		if (pt->rank < 0 && pt->step >= 0 && seen && (seen == lineno || seen == c->emit_prev) &&
		    c->last_step[pt->unit] == pt->step) {
			ex->copies++;
			c->last_line[pt->unit] = lineno;
			continue;
		}
		c->last_step[pt->unit] = pt->step;
		c->last_line[pt->unit] = pt->rank < 0 ? lineno : 0;
		if (!c->held.np) {
			sink(ctx, lineno, TPUT_POINT, pt, NULL);
			continue;
		}
		ex->queue = xgrow(ex->queue, &ex->queue_cap, ex->nqueue + 1, sizeof *ex->queue);
		ex->queue[ex->nqueue++] = (struct queued){ lineno, *pt };
	}
	if (ex->nqueue >= QUEUE_MAX) {  /* the held frame stays alone: dropped */
		sink(ctx, c->held.lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
		c->held.np = 0;
		flush_queue(ex, sink, ctx);
	}
}

/* Has a bar of this total shown two frames? */
static int bar_confirmed(const struct carry *c, double total)
{
	for (size_t k = 0; k < BAR_TOTALS; k++)
		if (c->bar_total[k] == total)
			return 1;
	return 0;
}

/* A bar frame's hash: one multiplication after another, each word's mixed into all before. */
static uint64_t bar_hash(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL ^ len, w;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* Was this bar frame (its hash up to its rate) seen lately? Remembered when not. */
static int bar_seen_before(struct carry *c, uint64_t h)
{
	for (size_t k = 0; k < BAR_SEEN; k++)
		if (c->bar_seen[k] == h)
			return 1;
	c->bar_seen[c->bar_seen_at++ % BAR_SEEN] = h;
	return 0;
}

/* Does s[0, n), before a bar's count, hold a round's count: "N/M" standing alone, 0 < N <= M? */
static int bar_round(const char *s, size_t n)
{
	for (const char *p = s, *end = s + n; (p = memchr(p, '/', (size_t)(end - p))) != NULL; p++) {
		const char *a = p, *b = p + 1;
		while (a > s && tputbyte_digit(a[-1]))
			a--;
		while (b < end && tputbyte_digit(*b))
			b++;
		if (a == p || b == p + 1 || (a > s && a[-1] != ' ') || b == end || *b != ' ' || p - a > 9 || b - p > 10)
			continue;
		long x = strtol(a, NULL, 10), y = strtol(p + 1, NULL, 10);
		if (x > 0 && x <= y)
			return 1;
	}
	return 0;
}

/* A Keras progress bar's frame, "N/M ━━━..." or "N/M [===...": its count and total. */
static int keras_bar(const char *s, size_t len, long long *n, long long *m)
{
	size_t i = 0, a, b;
	long long x = 0, y = 0;
	while (i < len && s[i] == ' ')
		i++;
	for (a = i; i < len && tputbyte_digit(s[i]) && i - a < 12; i++)
		x = x * 10 + (s[i] - '0');
	if (i == a || i >= len || s[i] != '/')
		return 0;
	for (b = ++i; i < len && tputbyte_digit(s[i]) && i - b < 12; i++)
		y = y * 10 + (s[i] - '0');
	if (i == b || i + 4 > len || s[i] != ' ' || (s[i + 1] != '[' && memcmp(s + i + 1, "\xe2\x94\x81", 3) != 0))
		return 0;
	*n = x;
	*m = y;
	return 1;
}

static void memo_rx(struct tputrule_shape *ls, size_t rule, uint32_t frame_at, size_t len)
{
	ls->rx_rule = rule;
	ls->rx_at = frame_at;
	ls->rx_len = (uint32_t)len;
}

/* Is a[0, alen) b[0, blen)'s message under another logger's head: a common tail of 12 bytes
 * or more that starts a word and holds a letter and a digit, after heads that differ other
 * than in their figures and blanks (one logger's lines differ only there: its clock, its
 * counts)? The caller has checked that the figures are the same. */
static int other_logger(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t t = 0;
	while (t < alen && t < blen && a[alen - 1 - t] == b[blen - 1 - t])
		t++;
	/* back to the start of a word, so the tail is whole words */
	while (t > 0 && tputbyte_alnum(a[alen - t]) && alen - t > 0 && tputbyte_alnum(a[alen - t - 1]))
		t--;
	if (t < 12 || t == alen || t == blen)
		return 0;
	int letter = 0, digit = 0;
	for (size_t k = alen - t; k < alen; k++) {
		letter |= tputbyte_alpha(a[k]);
		digit |= tputbyte_digit(a[k]);
	}
	if (!letter || !digit)
		return 0;
	/* the heads' shapes: each run of digits one digit, blanks none ("[ 80/208]", "[100/208]") */
	size_t i = 0, j = 0, ha = alen - t, hb = blen - t;
	while (i < ha && j < hb) {
		if (a[i] == ' ' || a[i] == '\t' || b[j] == ' ' || b[j] == '\t') {
			i += a[i] == ' ' || a[i] == '\t';
			j += b[j] == ' ' || b[j] == '\t';
			continue;
		}
		if (tputbyte_digit(a[i]) && tputbyte_digit(b[j])) {
			while (i < ha && tputbyte_digit(a[i]))
				i++;
			while (j < hb && tputbyte_digit(b[j]))
				j++;
			continue;
		}
		if (a[i++] != b[j++])
			return 1;
	}
	while (i < ha && (a[i] == ' ' || a[i] == '\t'))
		i++;
	while (j < hb && (b[j] == ' ' || b[j] == '\t'))
		j++;
	return i < ha || j < hb;
}

/* Do a line's figures a[0, na) repeat b[0, nb): each unit's value, step and loss? */
static int same_figures(const struct tput_point *a, size_t na, const struct tput_point *b, size_t nb)
{
	if (na != nb)
		return 0;
	for (size_t i = 0; i < na; i++) {
		size_t j = 0;
		while (j < nb && b[j].unit != a[i].unit)
			j++;
		if (j == nb || b[j].value != a[i].value || b[j].step != a[i].step ||
		    !(b[j].loss == a[i].loss || (isnan(b[j].loss) && isnan(a[i].loss))))
			return 0;
	}
	return 1;
}

static void frame(tput_ex *ex, const char *s, size_t len, const struct line_ctx *lc, const uint64_t *mask,
		  tput_sink *sink, void *ctx)
{
	double bar_total = NAN;  /* a progress bar's frame: its total */
	size_t bar_end = 0;      /* and where its rate ends */
	char why[96], err[256];
	int literal = 0, matched = 0, closing = 0, round = 0, per_device = 0, thin = -1, from_kv_avg[FRAME_MAX] = { 0 };
	struct tput_point pts[FRAME_MAX], base = { lc->rank, -1, NAN, NAN, TPUT_VALUE, NAN, 0 };
	size_t np = 0;
	const char *reason = "holds a throughput word but no rule matched";
	struct carry *c = &ex->carry;
	/* A line of a shape read before, its only frame, matches as that line did (rx_digit_blind). */
	struct tputrule_shape *ls = lc->shape && !lc->split && ex->rs.rx_blind ? lc->shape : NULL;
	uint32_t frame_at = (uint32_t)(s - lc->start);
	int known = ls && ls->rx_rule && ls->rx_at == frame_at && ls->rx_len == len;
	for (size_t i = 0; i < ex->rs.n; i++) {
		struct tputrule *r = &ex->rs.rules[i];
		/* The line-level prefilter chose the rules; frames of a split line recheck. */
		if (!tputrule_bit(mask, i) || (r->reader == TPUT_READ_KV && !r->thin))
			continue;
		if (r->thin) {  /* a framework's line: the key/value reader reads it as the preset says */
			if (lc->split && !tputrule_has_literal(r, s, len))
				continue;
			thin = (int)i;
			per_device = r->per_device;
			break;
		}
		if (lc->split && !tputrule_has_literal(r, s, len))
			continue;
		literal = 1;
		int rc;
		if (known) {
			if ((rc = ls->rx_rule == i + 2))
				rx_set_spans(r->re, s, ls->rx_spans, ls->rx_npairs);
		} else {
			rc = rx_match_groups(r->re, s, len, err, sizeof err);
			if (rc < 0) {
				sink(ctx, lc->lineno, TPUT_ERROR, NULL, err);
				return;
			}
			if (rc && ls && (ls->rx_npairs = rx_spans(r->re, ls->rx_spans, TPUTRULE_MEMO_PAIRS)) > 0)
				memo_rx(ls, i + 2, frame_at, len);
		}
		if (rc == 0)
			continue;
		struct tput_point pt;
		enum tput_result res = tputrule_take(r, lc->rank, lc->have_time ? lc->time : NAN, &pt, why, sizeof why);
		pt.rule = (int)i;
		double tv;
		const char *g;
		size_t gl;
		if ((res == TPUT_POINT || res == TPUT_NOMATCH) && rx_group_at(r->re, r->g_total, &g, &gl) &&
		    tputunit_number(g, gl, &tv) == TPUT_NUM_OK) {
			/* A closing frame whose line names its round ("70/1000" before the bar)
			 * and whose round showed no frame before it (a bar drawn only once done:
			 * Ultralytics' epochs in a file) is that round's figure, its count no step;
			 * one after its round's frames repeats them, one of no round closes a run. */
			int shown = c->bar_last_total == tv && c->bar_last_step >= 0 && c->bar_last_step < pt.step;
			c->bar_last_total = tv;
			c->bar_last_step = pt.step;
			if (res == TPUT_NOMATCH && !shown && rx_group_at(r->re, r->g_step, &g, &gl) &&
			    bar_round(s, (size_t)(g - s))) {
				res = TPUT_POINT;
				round = 1;
				pt.step = -1;
			}
		}
		if (res == TPUT_BAD || res == TPUT_NAN) {
			sink(ctx, lc->lineno, res, &pt, res == TPUT_BAD ? why : NULL);
			return;
		}
		matched = 1;
		per_device = r->per_device;
		base = pt;
		if (res == TPUT_POINT && rx_group_at(r->re, r->g_total, &g, &gl) &&
		    tputunit_number(g, gl, &tv) == TPUT_NUM_OK && rx_group_at(r->re, r->g_unit, &g, &gl)) {
			bar_total = tv;
			bar_end = (size_t)(g + gl - s);
		}
		if (res == TPUT_POINT)
			pts[np++] = pt;
		else {
			closing = 1;
			reason = "a closing frame: the bar's average over the run";
		}
		break;
	}
	if (ls && !known && !matched)
		memo_rx(ls, 1, frame_at, len);
	struct tputkv_line info = { -1, 0, NAN, 0, 0 };
	struct tputkv_shape *shape = NULL;
	int kv = ex->rs.kv;
	/* A frame without a digit has no figure for the reader: only HF's summary header (its
	 * own literal) matters, and the reader's literals are not searched for. */
	if (kv >= 0 && !matched && !(lc->digits && (!lc->split || tputbyte_has_digit(s, len)))) {
		if (memchr(s, '*', len) && memmem(s, len, "metrics *****", 13))
			c->metrics_line = lc->lineno;
		else if (literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, reason);
		return;
	}
	/* The search reports one literal per offset: "wps=" may hide the reader's "wps" (only
	 * where a literal was found). */
	if (thin >= 0 || (kv >= 0 && (matched || (tputrule_bit(mask, (size_t)kv) && !lc->split) ||
				      (lc->literal && tputrule_has_literal(&ex->rs.rules[kv], s, len))))) {
		if (memchr(s, '*', len) && memmem(s, len, "metrics *****", 13)) {
			c->metrics_line = lc->lineno;  /* HF's summary block: a copy of the figures above */
			return;
		}
		np = add_kv(ex, thin >= 0 ? thin : kv, s, len, lc, per_device, pts, np, from_kv_avg, &info, &shape);
		if (closing)  /* nor is the closing frame's rate a step when the reader finds it */
			for (size_t i = np; i-- > 0;)
				if (pts[i].unit == base.unit) {
					pts[i] = pts[--np];
					from_kv_avg[i] = from_kv_avg[np];
				}
		if (info.header && info.step >= 0) {
			c->step = info.step;
			c->rank = lc->rank;
			c->lineno = lc->lineno;
			c->have_time = lc->have_time;
			c->time = lc->time;
		}
	}
	/* Keras's bar, read by the key/value reader, is a bar as tqdm's is: fit draws one per
	 * epoch, its closing frame that epoch's round; evaluate's, of another total, stays alone */
	long long kn, km;
	if (!matched && np && isnan(bar_total) && keras_bar(s, len, &kn, &km)) {
		bar_total = (double)km;
		bar_end = len;
		round = kn == km;
		base.step = round ? -1 : kn;
	}
	if (np == 0) {
		if (info.inference)
			ex->inference++;
		if (literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, reason);
		return;
	}
	/* a latency per token on the line: generation's timings */
	enum tput_context where = info.inference == 2 ? TPUT_CTX_INFERENCE : tputkv_context(&ex->ctxwords, shape, s, len);
	if (where != TPUT_CTX_TRAIN) {
		if (where == TPUT_CTX_INFERENCE)
			ex->inference++;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL,
		     where == TPUT_CTX_INFERENCE ? "inference, not training" : "not training (eval, checkpoint, ...)");
		return;
	}
	if (c->metrics_line && lc->lineno > c->metrics_line && lc->lineno - c->metrics_line <= 32 &&
	    memmem(s, len, " = ", 3)) {
		ex->copies += np;
		return;
	}
	/* A redraw of the frame just seen (a line printed twice, a bar drawn again) is no new figure. */
	if (c->last_frame_line && lc->lineno <= c->last_frame_line + 1 && len == ex->last_frame_len &&
	    memcmp(s, ex->last_frame, len) == 0) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "a copy of the line before");
		return;
	}
	/* The same message from a second logger on the next line (TensorFlow's Python logging
	 * and absl: "INFO:tensorflow:global_step/sec: 0.05" then "I0609 ... ] global_step/sec:
	 * 0.05") is a copy: the tails agree from a word on, the heads are of other shapes. */
	long long step = base.step >= 0 ? base.step : info.step;
	double loss = !isnan(base.loss) ? base.loss : info.loss;
	for (size_t i = 0; i < np; i++) {
		pts[i].step = pts[i].step >= 0 ? pts[i].step : step;
		pts[i].loss = !isnan(pts[i].loss) ? pts[i].loss : loss;
	}
	if (c->last_frame_line && lc->lineno == c->last_frame_line + 1 && same_figures(pts, np, ex->last_pts, ex->last_np) &&
	    other_logger(s, len, ex->last_frame, ex->last_frame_len)) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "the line before, from another logger");
		return;
	}
	ex->last_frame = xgrow(ex->last_frame, &ex->last_frame_cap, len, 1);
	memcpy(ex->last_frame, s, len);
	ex->last_frame_len = len;
	memcpy(ex->last_pts, pts, np * sizeof *pts);
	ex->last_np = np;
	c->last_frame_line = lc->lineno;
	/* A bar's frame drawn again later (a pasted stretch of the log, a bar redrawn on a new
	 * line with other words after its rate) is no new figure: within one bar the count or
	 * the clock moves from frame to frame. */
	if (!isnan(bar_total) && bar_seen_before(c, bar_hash(s, bar_end))) {
		ex->copies += np;
		sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, "a copy of a progress bar frame seen before");
		return;
	}
	int header_ok = c->lineno && lc->lineno >= c->lineno && lc->lineno - c->lineno < 256;
	/* sorted by unit; step, loss and time from the preset, the line, or the record's header */
	for (size_t i = 1; i < np; i++)
		for (size_t j = i; j > 0 && pts[j].unit < pts[j - 1].unit; j--) {
			struct tput_point t = pts[j];
			pts[j] = pts[j - 1];
			pts[j - 1] = t;
		}
	/* a line with a step of its own closes the record a header opened */
	int under_header = header_ok && base.step < 0 && info.step < 0;
	if (!under_header && !info.header)
		c->lineno = 0;
	/* Megatron prints "Effective Tera Flops per GPU: N" on a line of its own after the
	 * iteration line: the same record, so the same step, when no figures came between. */
	int effective = !under_header && base.step < 0 && info.step < 0 && c->prev_step_line &&
			c->emit_line == c->prev_step_line &&
			lc->lineno > c->prev_step_line && lc->lineno - c->prev_step_line <= 16 &&
			memmem(s, len, "Effective Tera Flops", 20);
	for (size_t i = 0; i < np; i++) {
		struct tput_point *pt = &pts[i];
		if (pt->step < 0)
			pt->step = base.step >= 0 ? base.step : info.step >= 0 ? info.step : under_header ? c->step : -1;
		if (isnan(pt->loss))
			pt->loss = !isnan(base.loss) ? base.loss : info.loss;
		if (isnan(pt->time) && !isnan(base.time))
			pt->time = base.time;
		if (isnan(pt->time) && under_header && c->have_time)
			pt->time = c->time;
		if (pt->rank < 0 && under_header)
			pt->rank = c->rank;
		if (effective && pt->step < 0)
			pt->step = c->prev_step;
		else if (pt->step >= 0) {
			c->prev_step = pt->step;
			c->prev_step_line = lc->lineno;
		}
	}
	if (!isnan(bar_total) && !bar_confirmed(c, bar_total)) {
		struct bar_held *held = &c->held;
		if (held->np && held->total == bar_total && (base.step != held->step || (round && held->round))) {
			/* the bar's second frame (a later step, or the first of its next round): the
			 * one held and this one count */
			c->bar_total[c->bar_total_at++ % BAR_TOTALS] = bar_total;
			size_t hn = held->np;
			held->np = 0;
			emit_points(ex, held->pts, hn, held->lineno, sink, ctx);
			flush_queue(ex, sink, ctx);
		} else {
			if (held->np)
				sink(ctx, held->lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
			held->np = 0;
			flush_queue(ex, sink, ctx);
			memcpy(held->pts, pts, np * sizeof *pts);
			held->np = np;
			held->lineno = lc->lineno;
			held->total = bar_total;
			held->step = base.step;
			held->round = round;
			return;
		}
	}
	emit_points(ex, pts, np, lc->lineno, sink, ctx);
}

/* A line that holds the literals of the rules in mask. */
static void line(tput_ex *ex, char *s, size_t len, struct tputrule_shape *shape, unsigned long lineno, const uint64_t *mask,
		 tput_sink *sink, void *ctx)
{
	if (memchr(s, '\x1b', len)) {
		len = tputnorm_strip_ansi(s, len);
		shape = NULL;  /* its frames are not its bytes */
	}
	struct line_ctx lc = { shape, s, memchr(s, '\r', len) != NULL, 0, -1, 0, 0, lineno, tputrule_any_literal(&ex->rs, mask) };
	if (lineno <= ex->carry.seen_line)  /* numbers start again: another input */
		start_input(ex);
	ex->carry.seen_line = lineno;
	size_t skip = tputnorm_rank_prefix(s, len, &lc.rank);
	lc.digits = tputbyte_has_digit(s + skip, len - skip);
	/* every timestamp has digits */
	size_t ts = lc.digits ? tputnorm_timestamp_end(s + skip, len - skip, &lc.time) : 0;
	lc.have_time = ts > 0;
	if (ts && lc.rank < 0)  /* OLMo: "TIME\tHOST:LOCAL_RANK\t..." */
		tputnorm_host_rank(s + skip + ts, len - skip - ts, &lc.rank);
	s += skip;
	len -= skip;
	if (!lc.split) {  /* one frame: most lines */
		if (len > 0)
			frame(ex, s, len, &lc, mask, sink, ctx);
		return;
	}
	/* Captured progress bars: frames joined by "\r", each one a measurement. */
	while (len > 0) {
		char *cr = memchr(s, '\r', len);
		size_t flen = cr ? (size_t)(cr - s) : len;
		if (flen > 0)
			frame(ex, s, flen, &lc, mask, sink, ctx);
		if (!cr)
			break;
		s += flen + 1;
		len -= flen + 1;
	}
}

void tput_ex_line(tput_ex *ex, char *s, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	if (lineno <= 1)  /* an input's first line: nothing carries over from another */
		start_input(ex);
	tputrule_sync(&ex->rs);
	size_t rule, hit = tputrule_find(&ex->rs, s, len, &rule);
	if (tputrule_in_line(&ex->rs, s, len, hit, rule, ex->rs.line_mask))
		line(ex, s, len, NULL, lineno, ex->rs.line_mask, sink, ctx);
}

/* A record hard-wrapped over the lines from first to the one at cur (numbered lineno), put
 * together in ex->joined (jl bytes): read as one line numbered by its first, for the rules
 * its literals name (those of mask when it has none). */
static void joined_line(tput_ex *ex, size_t jl, const char *first, const char *cur, unsigned long lineno,
			const uint64_t *mask, tput_sink *sink, void *ctx)
{
	size_t rule, hit = tputrule_find(&ex->rs, ex->joined.text, jl, &rule);
	const uint64_t *jmask = mask;
	if (hit < jl && tputrule_in_line(&ex->rs, ex->joined.text, jl, hit, rule, ex->rs.join_mask))
		jmask = ex->rs.join_mask;
	line(ex, ex->joined.text, jl, NULL, lineno - in_count_lines(first, (size_t)(cur - first)), jmask, sink, ctx);
}

/* Where a walk through a block stands: the line at at, numbered lineno, the "\n"s passed,
 * and the lines before done looked at (a wrapped record is joined only from there on). */
struct walk {
	char *text, *end, *at, *done;
	unsigned long lineno;
	size_t newlines;
	tput_sink *sink;
	void *ctx;
};

/* On past the line at w->at (n bytes without its "\n"). */
static void walk_past(struct walk *w, size_t n)
{
	w->lineno++;
	w->newlines += w->at + n < w->end;
	w->at += n + 1;
}

/* The line at w->at (n bytes), or the wrapped record it starts, through the rules of mask:
 * on past it. */
static void walk_line(tput_ex *ex, struct walk *w, size_t n, struct tputrule_shape *shape, const uint64_t *mask)
{
	char *first, *last;
	size_t jl = tputrec_join(&ex->joined, w->text, w->done, w->at, w->end, &first, &last);
	if (jl) {
		joined_line(ex, jl, first, w->at, w->lineno, mask, w->sink, w->ctx);
		size_t parts = in_count_lines(w->at, (size_t)(last - w->at));
		w->lineno += parts;
		w->newlines += parts;
		w->at = last;
		n = tputrec_line_len(w->at, w->end);
	} else {
		line(ex, w->at, n - (n > 0 && w->at[n - 1] == '\r'), shape, w->lineno, mask, w->sink, w->ctx);
	}
	walk_past(w, n);
	w->done = w->at;
}

/* The rules of the line at w->at (n bytes): by its shape when shapes tell, else searched. */
static const uint64_t *walk_rules(tput_ex *ex, struct walk *w, size_t n, int *known, struct tputrule_shape **shape)
{
	if (ex->rs.shapes_ok)
		return tputrule_line(&ex->rs, w->at, n, known, shape);
	size_t rule, hit = tputrule_find(&ex->rs, w->at, n, &rule);
	*known = 0;
	*shape = NULL;
	return tputrule_in_line(&ex->rs, w->at, n, hit, rule, ex->rs.line_mask) ? ex->rs.line_mask : NULL;
}

/* A rule without literals (a custom pattern) reads every line; the others still only the
 * lines with their literals. */
static void block_every_line(tput_ex *ex, struct walk *w)
{
	while (w->at < w->end) {
		size_t n = tputrec_line_len(w->at, w->end);
		int known;
		struct tputrule_shape *shape;
		const uint64_t *mask = walk_rules(ex, w, n, &known, &shape);
		walk_line(ex, w, n, shape, mask);
	}
}

/* Line by line while the lines' shapes were mostly seen before; a run of new shapes is left
 * to block_by_search. */
static void block_by_shape(tput_ex *ex, struct walk *w)
{
	size_t tried = 0, missed = 0;
	while (ex->rs.shapes_ok && w->at < w->end) {
		if (tried == 256) {
			if (missed * 4 > tried)
				break;
			tried = missed = 0;
		}
		size_t n = tputrec_line_len(w->at, w->end);
		int known;
		struct tputrule_shape *shape;
		const uint64_t *mask = tputrule_line(&ex->rs, w->at, n, &known, &shape);
		tried++;
		missed += !known;
		if (mask)
			walk_line(ex, w, n, shape, mask);
		else
			walk_past(w, n);
	}
}

/* Search the block for literals; only the lines they fall in are looked at, and lines are
 * counted between them. Each search runs on from the last hit, so the hits after the first
 * of a line show what other rules the line may be for, and the first past its end starts
 * the next line. */
static void block_by_search(tput_ex *ex, struct walk *w)
{
	char *at = w->at, *end = w->end;
	const char *counted = at;
	uint64_t *mask = ex->rs.line_mask;
	lit_cursor_start(ex->rs.cursor, w->text, (size_t)(end - w->text));
	size_t rule, hit = tputrule_next(&ex->rs, w->text, at, end, &rule);
	while (hit < (size_t)(end - at)) {
		char *start = memrchr(at, '\n', hit);
		start = start ? start + 1 : at;
		size_t n = tputrec_line_len(start, end);
		char *line_end = start + n;
		memset(mask, 0, ex->rs.words * sizeof *mask);
		mask[rule >> 6] |= 1ULL << (rule & 63);
		char *next = at + hit + 1;
		size_t next_rule = 0, more;
		while ((more = tputrule_next(&ex->rs, w->text, next, end, &next_rule)) < (size_t)(line_end - next)) {
			mask[next_rule >> 6] |= 1ULL << (next_rule & 63);
			next += more + 1;
		}
		size_t gap = in_count_lines(counted, (size_t)(start - counted));
		w->lineno += gap;
		w->newlines += gap;
		counted = start;
		char *first, *last;
		size_t jl = tputrec_join(&ex->joined, w->text, w->done, start, end, &first, &last);
		if (jl) {
			/* the record's lines as one, numbered by its first; the search goes on past it */
			joined_line(ex, jl, first, start, w->lineno, mask, w->sink, w->ctx);
			line_end = last + tputrec_line_len(last, end);
			at = w->done = line_end + (line_end < end);
			hit = tputrule_next(&ex->rs, w->text, at, end, &rule);
			continue;
		}
		line(ex, start, n - (n > 0 && start[n - 1] == '\r'), NULL, w->lineno, mask, w->sink, w->ctx);
		at = w->done = line_end + (line_end < end);
		hit = more == (size_t)(end - next) ? (size_t)(end - at) : (size_t)(next + more - at);
		rule = next_rule;
	}
	w->newlines += in_count_lines(counted, (size_t)(end - counted));
}

size_t tput_ex_block(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	struct walk w = { text, text + len, text, text, lineno, 0, sink, ctx };
	if (lineno <= 1)
		start_input(ex);
	tputrule_sync(&ex->rs);
	if (ex->rs.any_unfiltered) {
		block_every_line(ex, &w);
		return w.newlines;
	}
	block_by_shape(ex, &w);
	if (w.at < w.end)
		block_by_search(ex, &w);
	return w.newlines;
}

void tput_ex_finish(tput_ex *ex, tput_sink *sink, void *ctx)
{
	struct bar_held *held = &ex->carry.held;
	size_t hn = held->np;
	held->np = 0;
	if (!hn)
		return;
	/* the input's only bar evidence: its figure is all there is to go by */
	int any = 0;
	for (size_t k = 0; k < BAR_TOTALS; k++)
		any |= ex->carry.bar_total[k] != 0;
	if (any)
		sink(ctx, held->lineno, TPUT_NOMATCH, NULL, "a progress bar seen in one frame only");
	else
		emit_points(ex, held->pts, hn, held->lineno, sink, ctx);
	flush_queue(ex, sink, ctx);
}

size_t tput_ex_inference_lines(const tput_ex *ex) { return ex->inference; }
size_t tput_ex_copies(const tput_ex *ex) { return ex->copies; }
