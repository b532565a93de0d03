/* tput: the extractor: a log's lines through the stages, normalize, records, columns, meaning, series. */
#include "tput.h"
#include "input.h"
#include "intern.h"
#include "lit.h"
#include "rx.h"
#include "tputbar.h"
#include "tputbyte.h"
#include "tputcand.h"
#include "tputctx.h"
#include "tputkv.h"
#include "tputnorm.h"
#include "tputpreset.h"
#include "tputrec.h"
#include "tputrule.h"
#include "tputtab.h"
#include "tputtmpl.h"
#include "tputunit.h"
#include "utf8.h"
#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FRAME_MAX = TPUTBAR_FRAME_MAX };

/* What a run of lines leaves for the next: a record header's step and time, the step of the
 * last figures, the last frame (to tell a redraw) and a summary block's start. */
struct carry {
	long long step;
	long rank;                 /* the header line's, -1 when it had none */
	long long prev_step;       /* the step of the last figures that had one */
	unsigned long prev_step_line; /* their line; 0: none */
	double time;
	int have_time;
	unsigned long lineno;      /* 0: no header */
	unsigned long last_frame_line; /* the line of the last frame with figures (its text: ex->last_frame) */
	unsigned long metrics_line; /* a "***** train metrics *****" summary block starts here */
	unsigned long results_line; /* an "MLPerf Results Summary" (LoadGen's, inference) starts here */
	unsigned long seen_line;   /* the last line looked at: a smaller number starts another input */
	double bar_total;          /* the last bar frame's total and count (0: none) */
	long long bar_count;
	uint64_t closing_hash;     /* the last closing frame's text up to its rate, and its line */
	unsigned long closing_line;
};

struct tput_ex {
	struct tputrule_set rs;    /* the rules, their literals, the line shapes' rules */
	struct carry carry;
	struct tputbar bar;        /* copies, bars' frames held and the points behind them */
	size_t inference;
	tputkv_cache *kvcache;  /* the key/value reader's analysis of the keys seen */
	struct tputrec_buf joined; /* a record hard-wrapped over lines, put back together */
	char *last_frame;          /* the last frame that gave figures: a redraw repeats it */
	size_t last_frame_len, last_frame_cap;
	struct tput_point last_pts[FRAME_MAX]; /* its figures, step and loss as read from it */
	size_t last_np;
	struct tputctx_words ctxwords;
	struct tputtmpl_set tmpls; /* the templates that gave figures, an example of each */
	uint64_t noted[TPUT_NUNITS]; /* the template noted last in each unit */
	struct tputtab tab;        /* a table's header: the rows right under it are named by it */
	unsigned long tab_next;    /* the line the table's next row must be on */
};

/* Another input: nothing of the last one carries over, nor waits. */
static void start_input(tput_ex *ex)
{
	memset(&ex->carry, 0, sizeof ex->carry);
	tputbar_reset(&ex->bar);
	tputtab_close(&ex->tab);
}

tput_ex *tput_ex_new(void)
{
	tput_ex *ex = xcalloc(1, sizeof(tput_ex));
	tputrule_init(&ex->rs);
	ex->kvcache = tputkv_cache_new();
	tputctx_init(&ex->ctxwords);
	start_input(ex);
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
	tputbar_free(&ex->bar);
	tputtmpl_set_free(&ex->tmpls);
	tputtab_free(&ex->tab);
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
	const char *body;         /* past its rank prefix and timestamp: where templates start */
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
		     struct tput_point *pts, size_t np, int *from_kv_avg, int *loose, uint32_t *col, struct tputkv_line *info,
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
					       rule, 0, 0, 0 };
		from_kv_avg[at] = kvs[k].average;
		loose[at] = kvs[k].loose;
		col[at] = kvs[k].at;
	}
	return np;
}

static void memo_rx(struct tputrule_shape *ls, size_t rule, uint32_t frame_at, size_t len)
{
	ls->rx_rule = rule;
	ls->rx_at = frame_at;
	ls->rx_len = (uint32_t)len;
}

/* What one frame gives, stage by stage: the rules' match, the key/value reader's figures,
 * and what the line and the lines before say around them. */
struct frame {
	const char *s;
	size_t len;
	const struct line_ctx *lc;
	double bar_total;          /* a progress bar's frame: its total (NaN: none) */
	size_t bar_end;            /* and where its rate ends */
	int literal;               /* a regex rule was tried: a miss is reported */
	int matched, closing, round, per_device;
	int thin;                  /* a framework's rule read by the key/value reader, -1: none */
	int from_kv_avg[FRAME_MAX];
	int loose[FRAME_MAX];      /* the key/value reader's loose times (tputcand_loose) */
	uint32_t col[FRAME_MAX];   /* where each figure's text starts in the frame */
	uint32_t closing_col;
	size_t closing_end;        /* where its rate ends (0: not known) */
	size_t rec_end;            /* where a bar's record ends (its postfix); 0: the frame's end */
	size_t tmpl_end;           /* where its template ends (its rate: a postfix gains keys) */
	struct tput_point pts[FRAME_MAX], base;
	struct tput_point closing_pt;  /* a closing frame's figure, left out */
	size_t np;
	const char *reason;        /* why nothing was taken */
	struct tputkv_line info;
	struct tputkv_shape *shape;
};

/* A closing frame whose line names its round ("70/1000" before the bar) and whose round
 * showed no frame before it (a bar drawn only once done: Ultralytics' epochs in a file) is
 * that round's figure, its count no step; one after its round's frames repeats them, one of
 * no round closes a run. */
static enum tput_result frame_round(tput_ex *ex, struct frame *f, const struct tputrule *r, enum tput_result res,
				    struct tput_point *pt)
{
	double tv;
	const char *g;
	size_t gl;
	if ((res != TPUT_POINT && res != TPUT_NOMATCH) || !rx_group_at(r->re, r->g_total, &g, &gl) ||
	    tputunit_number(g, gl, &tv) != TPUT_NUM_OK)
		return res;
	int shown = tputbar_closing_shown(&ex->bar, tv, pt->step);
	if (res == TPUT_NOMATCH && !shown && rx_group_at(r->re, r->g_step, &g, &gl) &&
	    tputbar_round(f->s, (size_t)(g - f->s))) {
		f->round = 1;
		pt->step = -1;
		return TPUT_POINT;
	}
	return res;
}

/* Regex rule i on the frame (as the line's shape matched before when known): 0 no match,
 * 1 a match (its point in f), -1 the frame is done (an error or a bad figure reported). */
static int frame_regex(tput_ex *ex, struct frame *f, size_t i, struct tputrule_shape *ls, int known,
		       tput_sink *sink, void *ctx)
{
	const struct tputrule *r = &ex->rs.rules[i];
	char why[96], err[256];
	int rc;
	if (known) {
		if ((rc = ls->rx_rule == i + 2))
			rx_set_spans(r->re, f->s, ls->rx_spans, ls->rx_npairs);
	} else {
		rc = rx_match_groups(r->re, f->s, f->len, err, sizeof err);
		if (rc < 0) {
			sink(ctx, f->lc->lineno, TPUT_ERROR, NULL, err);
			return -1;
		}
		if (rc && ls && (ls->rx_npairs = rx_spans(r->re, ls->rx_spans, TPUTRULE_MEMO_PAIRS)) > 0)
			memo_rx(ls, i + 2, (uint32_t)(f->s - f->lc->start), f->len);
	}
	if (rc == 0)
		return 0;
	struct tput_point pt;
	enum tput_result res = tputrule_take(r, f->lc->rank, f->lc->have_time ? f->lc->time : NAN, &pt, why, sizeof why);
	pt.rule = (int)i;
	if (r->prefix_step && pt.step < 0 && pt.rank >= 0) {  /* " 963: ", read as srun's rank */
		pt.step = pt.rank;
		pt.rank = -1;
	}
	res = frame_round(ex, f, r, res, &pt);
	if (res == TPUT_BAD || res == TPUT_NAN) {
		sink(ctx, f->lc->lineno, res, &pt, res == TPUT_BAD ? why : NULL);
		return -1;
	}
	f->matched = 1;
	f->per_device = r->per_device;
	f->base = pt;
	double tv;
	const char *g;
	size_t gl;
	int have_total = rx_group_at(r->re, r->g_total, &g, &gl) && tputunit_number(g, gl, &tv) == TPUT_NUM_OK;
	if (res == TPUT_POINT && have_total && rx_group_at(r->re, r->g_unit, &g, &gl)) {
		f->bar_total = tv;
		f->bar_end = (size_t)(g + gl - f->s);
	}
	if (rx_group_at(r->re, r->g_total, &g, &gl) && rx_group_at(r->re, r->g_unit, &g, &gl)) {
		/* a bar's record ends with its bracket (rate and postfix): a callback glues on */
		const char *close = memchr(g + gl, ']', (size_t)(f->s + f->len - (g + gl)));
		f->rec_end = (size_t)((close ? close + 1 : g + gl) - f->s);
		f->tmpl_end = (size_t)(g + gl - f->s);
	}
	uint32_t col = rx_group_at(r->re, r->g_tput, &g, &gl) ? (uint32_t)(g - f->s) : 0;
	if (res == TPUT_POINT) {
		f->col[f->np] = col;
		f->pts[f->np++] = pt;
	} else {
		f->closing = 1;
		f->closing_pt = pt;
		f->closing_pt.step = -1;  /* its count is the bar's total, no step */
		f->closing_pt.bar = 1;
		f->closing_pt.total = have_total && tv > 0 ? tv : 0;
		f->closing_col = col;
		f->closing_end = rx_group_at(r->re, r->g_unit, &g, &gl) ? (size_t)(g + gl - f->s) : 0;
		f->reason = tputcand_closing;
	}
	return 1;
}

/* The rules the line's literals chose (a split line's frames recheck), in order: the first
 * regex to match, or a framework's rule that the key/value reader reads. 0: the frame is done. */
static int frame_rules(tput_ex *ex, struct frame *f, const uint64_t *mask, tput_sink *sink, void *ctx)
{
	const struct line_ctx *lc = f->lc;
	/* A line of a shape read before, its only frame, matches as that line did (rx_digit_blind). */
	struct tputrule_shape *ls = lc->shape && !lc->split && ex->rs.rx_blind ? lc->shape : NULL;
	uint32_t frame_at = (uint32_t)(f->s - lc->start);
	int known = ls && ls->rx_rule && ls->rx_at == frame_at && ls->rx_len == f->len;
	for (size_t i = 0; i < ex->rs.n; i++) {
		const struct tputrule *r = &ex->rs.rules[i];
		if (!tputrule_bit(mask, i) || (r->reader == TPUT_READ_KV && !r->thin))
			continue;
		if (lc->split && !tputrule_has_literal(r, f->s, f->len))
			continue;
		if (r->thin) {  /* a framework's line: the key/value reader reads it as the preset says */
			f->thin = (int)i;
			f->per_device = r->per_device;
			break;
		}
		f->literal = 1;
		int rc = frame_regex(ex, f, i, ls, known, sink, ctx);
		if (rc < 0)
			return 0;
		if (rc > 0)
			break;
	}
	if (ls && !known && !f->matched)
		memo_rx(ls, 1, frame_at, f->len);
	return 1;
}

/* HF's "***** train metrics *****" summary header: its block repeats the figures above. */
static int metrics_header(const char *s, size_t len)
{
	return memchr(s, '*', len) && memmem(s, len, "metrics *****", 13);
}

/* A block header no figure is on: HF's train metrics (a summary), MLPerf LoadGen's results
 * (inference); the line is kept as where the block starts. 1 when it is one. */
static int block_header(struct carry *c, const char *s, size_t len, unsigned long lineno)
{
	if (metrics_header(s, len))
		c->metrics_line = lineno;
	else if (memmem(s, len, "MLPerf Results Summary", 22))
		c->results_line = lineno;
	else
		return 0;
	return 1;
}

/* The key/value reader on the frame: for a framework's rule, beside a regex's match, or on
 * a line with the reader's literals. 0: the frame is done. */
static int frame_kv(tput_ex *ex, struct frame *f, const uint64_t *mask, tput_sink *sink, void *ctx)
{
	const struct line_ctx *lc = f->lc;
	struct carry *c = &ex->carry;
	int kv = ex->rs.kv;
	/* A frame without a digit has no figure for the reader: only HF's summary header (its
	 * own literal) matters, and the reader's literals are not searched for. */
	if (kv >= 0 && !f->matched && !(lc->digits && (!lc->split || tputbyte_has_digit(f->s, f->len)))) {
		if (block_header(c, f->s, f->len, lc->lineno))
			;
		else if (f->literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, f->reason);
		return 0;
	}
	/* The search reports one literal per offset: "wps=" may hide the reader's "wps" (only
	 * where a literal was found). */
	if (!(f->thin >= 0 || (kv >= 0 && (f->matched || (tputrule_bit(mask, (size_t)kv) && !lc->split) ||
					   (lc->literal && tputrule_has_literal(&ex->rs.rules[kv], f->s, f->len))))))
		return 1;
	if (block_header(c, f->s, f->len, lc->lineno))
		return 0;
	f->np = add_kv(ex, f->thin >= 0 ? f->thin : kv, f->s, f->len, lc, f->per_device, f->pts, f->np, f->from_kv_avg, f->loose,
		       f->col, &f->info, &f->shape);
	if (f->closing)  /* nor is the closing frame's rate a step when the reader finds it */
		for (size_t i = f->np; i-- > 0;)
			if (f->pts[i].unit == f->base.unit) {
				f->pts[i] = f->pts[--f->np];
				f->from_kv_avg[i] = f->from_kv_avg[f->np];
				f->col[i] = f->col[f->np];
			}
	if (f->info.header && f->info.step >= 0) {
		c->step = f->info.step;
		c->rank = lc->rank;
		c->lineno = lc->lineno;
		c->have_time = lc->have_time;
		c->time = lc->time;
	}
	return 1;
}

/* Does a bar's description, before its share ("Epoch 13: 100%|"), hold a count? */
static int described_count(const char *s, size_t len)
{
	const char *bar = memmem(s, len, "%|", 2);
	if (!bar)
		return 0;
	while (bar > s && (tputbyte_digit(bar[-1]) || bar[-1] == '.'))
		bar--;
	for (const char *p = s; p < bar; p++)
		if (tputbyte_digit(*p))
			return 1;
	return 0;
}

/* The seconds a bar's frame says it has run ("[01:53<13:12, ..."); -1 when it says none. */
static double bar_elapsed(const char *s, size_t len)
{
	const char *b = memmem(s, len, " [", 2);
	double secs;
	size_t at = b ? (size_t)(b + 2 - s) : 0, end = b ? tputunit_clock(s, len, at, 2, &secs) : 0;
	return end && end < len && s[end] == '<' ? secs : -1;
}

/* Why a frame's figures are not training's (the series stage looks for the first). */
static const char tput_left_inference[] = "inference, not training";
static const char tput_left_bar_copy[] = "a copy of a progress bar frame seen before";
static const char tput_left_other[] = "not training (eval, checkpoint, ...)";

/* The frame's training context, once per shape of the frame or of its line where the shape
 * tells it (tputctx_read_shaped). */
static enum tput_context frame_context(tput_ex *ex, const struct frame *f)
{
	/* what a callback glues after a bar's record ("...1.61img/s, loss=0.119]INFO: Validation
	 * Dice score: 0.94") is not the bar's to be judged by */
	size_t len = f->rec_end ? f->rec_end : f->len;
	if (f->shape)
		return tputkv_context(&ex->ctxwords, f->shape, f->s, len);
	struct tputrule_shape *ls = f->lc->split ? NULL : f->lc->shape;
	uint32_t at = (uint32_t)(f->s - f->lc->start);
	if (ls && ls->context >= 0 && ls->ctx_at == at && ls->ctx_len == len)
		return (enum tput_context)ls->context;
	int by_shape;
	enum tput_context where = tputctx_read_shaped(&ex->ctxwords, f->s, len, &by_shape);
	if (ls && by_shape) {
		ls->context = (signed char)where;
		ls->ctx_at = at;
		ls->ctx_len = (uint32_t)len;
	}
	return where;
}

/* The frame's template, each figure's key and example kept with it (--explain). */
static void frame_template(tput_ex *ex, struct frame *f)
{
	const struct line_ctx *lc = f->lc;
	/* the frames of one shape have its words: worked out once a shape */
	uint64_t t = f->shape ? f->shape->tmpl : 0;
	if (!t) {
		const char *from = lc->body > f->s && lc->body <= f->s + f->len ? lc->body : f->s;
		/* what a callback glues after a bar's rate is not the bar's */
		size_t cut = f->tmpl_end ? f->tmpl_end : f->rec_end;
		const char *end = cut && f->s + cut > from ? f->s + cut : f->s + f->len;
		t = tputtmpl_hash(from, (size_t)(end - from));
		if (f->shape)
			f->shape->tmpl = t;
	}
	for (size_t i = 0; i < f->np; i++) {
		f->pts[i].tmpl = t;
		/* most figures repeat the template and unit of the last: seen */
		if (t == ex->noted[f->pts[i].unit])
			continue;
		tputtmpl_note(&ex->tmpls, t, (int)f->pts[i].unit, lc->lineno, f->s, f->len, f->col[i]);
		ex->noted[f->pts[i].unit] = t;
	}
	if (f->closing) {
		f->closing_pt.tmpl = t;
		tputtmpl_note(&ex->tmpls, t, (int)f->closing_pt.unit, lc->lineno, f->s, f->len, f->closing_col);
	}
}

/* The frame's figures, left out for reason (--explain lists them, --take takes them), and
 * the line named as skipped for it. */
static void leave(tput_ex *ex, struct frame *f, const char *reason, tput_sink *sink, void *ctx)
{
	long long step = f->base.step >= 0 ? f->base.step : f->info.step;
	double loss = !isnan(f->base.loss) ? f->base.loss : f->info.loss;
	for (size_t i = 0; i < f->np; i++) {
		struct tput_point pt = f->pts[i];
		pt.step = pt.step >= 0 ? pt.step : step;
		pt.loss = !isnan(pt.loss) ? pt.loss : loss;
		sink(ctx, f->lc->lineno, TPUT_LEFT, &pt, reason);
	}
	(void)ex;
	sink(ctx, f->lc->lineno, TPUT_NOMATCH, NULL, reason);
}

/* The frame's loose times go to the series stage as left out for tputcand_loose, which takes
 * them or not from the whole column; the other figures stay. */
static void leave_loose(struct frame *f, tput_sink *sink, void *ctx)
{
	size_t m = 0;
	for (size_t i = 0; i < f->np; i++) {
		if (!f->loose[i]) {
			f->pts[m] = f->pts[i];
			f->col[m] = f->col[i];
			f->from_kv_avg[m] = f->from_kv_avg[i];
			f->loose[m++] = 0;
			continue;
		}
		sink(ctx, f->lc->lineno, TPUT_LEFT, &f->pts[i], tputcand_loose);
	}
	f->np = m;
}

/* Are the frame's figures training's, and new: not a summary block's copy, a redraw, another
 * logger's copy or a bar frame seen before? Else counted, reported, and 0. */
static int frame_new(tput_ex *ex, struct frame *f, tput_sink *sink, void *ctx)
{
	const struct line_ctx *lc = f->lc;
	struct carry *c = &ex->carry;
	const char *s = f->s;
	size_t len = f->len, np = f->np;
	if (np == 0) {
		if (f->closing) {  /* the series stage may take bars drawn only when done */
			if (isnan(f->closing_pt.loss))
				f->closing_pt.loss = f->info.loss;
			enum tput_context where = frame_context(ex, f);
			ex->inference += where == TPUT_CTX_INFERENCE;
			/* drawn again at once (a new postfix after its rate) under a description that
			 * counts ("Epoch 13: 100%|"): one round, one figure; undescribed rounds may
			 * well read alike */
			int counted = f->closing_end && described_count(s, f->closing_end);
			uint64_t h = counted ? intern_hash(s, f->closing_end) | 1 : 0;
			int copy = h && h == c->closing_hash && lc->lineno > c->closing_line && lc->lineno - c->closing_line <= 2;
			c->closing_hash = h;
			c->closing_line = lc->lineno;
			sink(ctx, lc->lineno, TPUT_LEFT, &f->closing_pt, copy ? tput_left_bar_copy
			     : where == TPUT_CTX_TRAIN ? tputcand_closing : where == TPUT_CTX_INFERENCE ? tput_left_inference
			     : tput_left_other);
		}
		if (f->info.inference)
			ex->inference++;
		if (f->literal)
			sink(ctx, lc->lineno, TPUT_NOMATCH, NULL, f->reason);
		return 0;
	}
	/* a latency per token on the line: generation's timings */
	enum tput_context where = f->info.inference == 2 ? TPUT_CTX_INFERENCE : frame_context(ex, f);
	if (where != TPUT_CTX_TRAIN) {
		if (where == TPUT_CTX_INFERENCE)
			ex->inference++;
		leave(ex, f, where == TPUT_CTX_INFERENCE ? tput_left_inference : tput_left_other,
		      sink, ctx);
		return 0;
	}
	if (c->results_line && lc->lineno > c->results_line && lc->lineno - c->results_line <= 40) {
		ex->inference++;
		leave(ex, f, "inference: an MLPerf LoadGen results summary", sink, ctx);
		return 0;
	}
	if (c->metrics_line && lc->lineno > c->metrics_line && lc->lineno - c->metrics_line <= 32 &&
	    memmem(s, len, " = ", 3)) {
		ex->bar.copies += np;
		leave(ex, f, "a summary: a train metrics block repeats the figures above", sink, ctx);
		return 0;
	}
	/* A redraw of the frame just seen (a line printed twice, a bar drawn again) is no new figure. */
	if (c->last_frame_line && lc->lineno <= c->last_frame_line + 1 && len == ex->last_frame_len &&
	    memcmp(s, ex->last_frame, len) == 0) {
		ex->bar.copies += np;
		leave(ex, f, "a copy of the line before", sink, ctx);
		return 0;
	}
	/* The same message from a second logger on the next line (TensorFlow's Python logging
	 * and absl: "INFO:tensorflow:global_step/sec: 0.05" then "I0609 ... ] global_step/sec:
	 * 0.05") is a copy: the tails agree from a word on, the heads are of other shapes. */
	long long step = f->base.step >= 0 ? f->base.step : f->info.step;
	double loss = !isnan(f->base.loss) ? f->base.loss : f->info.loss;
	for (size_t i = 0; i < np; i++) {
		f->pts[i].step = f->pts[i].step >= 0 ? f->pts[i].step : step;
		f->pts[i].loss = !isnan(f->pts[i].loss) ? f->pts[i].loss : loss;
	}
	if (c->last_frame_line && lc->lineno == c->last_frame_line + 1 &&
	    tputbar_same_figures(f->pts, np, ex->last_pts, ex->last_np) &&
	    tputbar_other_logger(s, len, ex->last_frame, ex->last_frame_len)) {
		ex->bar.copies += np;
		leave(ex, f, "the line before, from another logger", sink, ctx);
		return 0;
	}
	ex->last_frame = xgrow(ex->last_frame, &ex->last_frame_cap, len, 1);
	memcpy(ex->last_frame, s, len);
	ex->last_frame_len = len;
	memcpy(ex->last_pts, f->pts, np * sizeof *f->pts);
	ex->last_np = np;
	c->last_frame_line = lc->lineno;
	/* A bar's frame drawn again later (a pasted stretch of the log, a bar redrawn on a new
	 * line with other words after its rate) is no new figure: within one bar the count or
	 * the clock moves from frame to frame. Bars of a few seconds, undescribed, may well draw
	 * the same frame each epoch: only a frame under a count ("Epoch 3: ") or of a bar that
	 * has run ten seconds or more is known for a copy. */
	if (!isnan(f->bar_total) && (described_count(s, f->bar_end) || bar_elapsed(s, f->bar_end) >= 10) &&
	    tputbar_seen(&ex->bar, s, f->bar_end)) {
		ex->bar.copies += np;
		leave(ex, f, tput_left_bar_copy, sink, ctx);
		return 0;
	}
	/* The same count of the same bar again at once: processes drawing one bar each, no
	 * rank prefix to tell them (their rates differ in the last digit), or a redraw for a
	 * new postfix. One step, one figure. */
	if (!isnan(f->bar_total) && f->base.step >= 0 && lc->rank < 0) {
		int same = c->bar_total == f->bar_total && c->bar_count == f->base.step;
		c->bar_total = f->bar_total;
		c->bar_count = f->base.step;
		if (same) {
			ex->bar.copies += np;
			leave(ex, f, "the bar's step just drawn, drawn again (another process, or a redraw)", sink, ctx);
			return 0;
		}
	}
	return 1;
}

/* Is the frame a progress bar's: an N/M bar read as one, a tqdm bar with no total ("99it
 * [00:10, 9.03it/s]"), or a bar drawn with "%|"? */
static int frame_bar(const struct frame *f)
{
	if (!isnan(f->bar_total) || memmem(f->s, f->len, "%|", 2))
		return 1;
	for (const char *p = f->s, *end = f->s + f->len; (p = memmem(p, (size_t)(end - p), "it [", 4)) != NULL; p++)
		if (p > f->s && tputbyte_digit(p[-1]) && p + 4 < end && tputbyte_digit(p[4]))
			return 1;
	return 0;
}

/* Figures a and b of the frame change places, with all that is kept of each. */
static void swap_figures(struct frame *f, size_t a, size_t b)
{
	struct tput_point t = f->pts[a];
	f->pts[a] = f->pts[b];
	f->pts[b] = t;
	uint32_t col = f->col[a];
	f->col[a] = f->col[b];
	f->col[b] = col;
	int x = f->from_kv_avg[a];
	f->from_kv_avg[a] = f->from_kv_avg[b];
	f->from_kv_avg[b] = x;
	x = f->loose[a];
	f->loose[a] = f->loose[b];
	f->loose[b] = x;
}

/* The figures sorted by unit; step, loss and time from the preset, the line, or the record's
 * header, whose record a line with a step of its own closes. */
static void frame_fill(tput_ex *ex, struct frame *f)
{
	const struct line_ctx *lc = f->lc;
	struct carry *c = &ex->carry;
	struct tput_point *pts = f->pts;
	const struct tput_point *base = &f->base;
	const struct tputkv_line *info = &f->info;
	int header_ok = c->lineno && lc->lineno >= c->lineno && lc->lineno - c->lineno < 256;
	for (size_t i = 1; i < f->np; i++)
		for (size_t j = i; j > 0 && pts[j].unit < pts[j - 1].unit; j--)
			swap_figures(f, j - 1, j);
	int under_header = header_ok && base->step < 0 && info->step < 0;
	if (!under_header && !info->header)
		c->lineno = 0;
	/* Megatron prints "Effective Tera Flops per GPU: N" on a line of its own after the
	 * iteration line: the same record, so the same step, when no figures came between. */
	int effective = !under_header && base->step < 0 && info->step < 0 && c->prev_step_line &&
			ex->bar.emit_line == c->prev_step_line &&
			lc->lineno > c->prev_step_line && lc->lineno - c->prev_step_line <= 16 &&
			memmem(f->s, f->len, "Effective Tera Flops", 20);
	int bar = frame_bar(f);
	for (size_t i = 0; i < f->np; i++) {
		struct tput_point *pt = &pts[i];
		pt->bar = bar;
		pt->total = bar && f->bar_total > 0 ? f->bar_total : 0;
		if (pt->step < 0)
			pt->step = base->step >= 0 ? base->step : info->step >= 0 ? info->step : under_header ? c->step : -1;
		if (isnan(pt->loss))
			pt->loss = !isnan(base->loss) ? base->loss : info->loss;
		if (isnan(pt->time) && !isnan(base->time))
			pt->time = base->time;
		if (isnan(pt->time) && under_header && c->have_time)
			pt->time = c->time;
		if (pt->rank < 0 && under_header)
			pt->rank = c->rank;
		if (effective && pt->step < 0) {
			pt->step = c->prev_step;
		} else if (pt->step >= 0) {
			c->prev_step = pt->step;
			c->prev_step_line = lc->lineno;
		}
	}
}

/* One frame of a line (a line, or a "\r"-joined bar frame) through the stages. */
static void frame(tput_ex *ex, const char *s, size_t len, const struct line_ctx *lc, const uint64_t *mask,
		  tput_sink *sink, void *ctx)
{
	struct frame f;  /* set field by field: its points are written before they are read */
	f.s = s;
	f.len = len;
	f.lc = lc;
	f.bar_total = NAN;
	f.bar_end = 0;
	f.rec_end = f.tmpl_end = 0;
	f.literal = f.matched = f.closing = f.round = f.per_device = 0;
	f.thin = -1;
	memset(f.from_kv_avg, 0, sizeof f.from_kv_avg);
	memset(f.loose, 0, sizeof f.loose);
	f.base = (struct tput_point){ lc->rank, -1, NAN, NAN, TPUT_VALUE, NAN, 0, 0, 0, 0 };
	f.np = 0;
	f.reason = "holds a throughput word but no rule matched";
	f.info = (struct tputkv_line){ -1, 0, NAN, 0, 0 };
	f.shape = NULL;
	if (!frame_rules(ex, &f, mask, sink, ctx) || !frame_kv(ex, &f, mask, sink, ctx))
		return;
	/* Keras's bar, read by the key/value reader, is a bar as tqdm's is: fit draws one per
	 * epoch, its closing frame that epoch's round; evaluate's, of another total, stays alone */
	long long kn, km;
	if (!f.matched && f.np && isnan(f.bar_total) && tputbar_keras(s, len, &kn, &km)) {
		f.bar_total = (double)km;
		f.bar_end = len;
		f.round = kn == km ? 2 : 0;  /* 2: a Keras round, named by no count of its own */
		f.base.step = f.round ? -1 : kn;
	}
	frame_template(ex, &f);
	if (!frame_new(ex, &f, sink, ctx))
		return;
	frame_fill(ex, &f);
	leave_loose(&f, sink, ctx);
	if (!isnan(f.bar_total))
		tputbar_frame(&ex->bar, f.pts, f.np, lc->lineno, f.bar_total, f.base.step, f.round, sink, ctx);
	else
		tputbar_emit(&ex->bar, f.pts, f.np, lc->lineno, sink, ctx);
}

/* A line that holds the literals of the rules in mask. */
static void line(tput_ex *ex, char *s, size_t len, struct tputrule_shape *shape, unsigned long lineno, const uint64_t *mask,
		 tput_sink *sink, void *ctx)
{
	if (memchr(s, '\x1b', len)) {
		len = tputnorm_strip_ansi(s, len);
		shape = NULL;  /* its frames are not its bytes */
	}
	/* PCRE2 matches no byte that is no UTF-8: written as '?', patterns match across them */
	if (!utf8_ascii(s, len) && utf8_fix(s, len))
		shape = NULL;
	struct line_ctx lc = { shape, s, s, memchr(s, '\r', len) != NULL, 0, -1, 0, 0, lineno,
			       tputrule_any_literal(&ex->rs, mask) };
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
	lc.body = s + ts;
	if (!lc.split && tputtab_header(&ex->tab, lc.body, len - ts)) {  /* its rows follow */
		ex->tab_next = lineno + 1;
		return;
	}
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

/* The line at s (n bytes, numbered lineno) as the next row of the table open, when it is
 * one: read as its "name: figure" pairs (the line's prefix kept), for the rules whose
 * literals the names hold. A line that is no row closes the table. */
static int table_row(tput_ex *ex, const char *s, size_t n, unsigned long lineno, tput_sink *sink, void *ctx)
{
	if (!ex->tab.cols)
		return 0;
	if (lineno != ex->tab_next) {
		tputtab_close(&ex->tab);
		return 0;
	}
	n -= n > 0 && s[n - 1] == '\r';
	long rank;
	double t;
	size_t skip = tputnorm_rank_prefix(s, n, &rank);
	skip += tputnorm_timestamp_end(s + skip, n - skip, &t);
	size_t rl = tputtab_row(&ex->tab, s, n, skip), rule, hit;
	if (!rl) {
		tputtab_close(&ex->tab);
		return 0;
	}
	ex->tab_next = lineno + 1;
	hit = tputrule_find(&ex->rs, ex->tab.row, rl, &rule);
	if (hit < rl && tputrule_in_line(&ex->rs, ex->tab.row, rl, hit, rule, ex->rs.join_mask))
		line(ex, ex->tab.row, rl, NULL, lineno, ex->rs.join_mask, sink, ctx);
	return 1;
}

void tput_ex_line(tput_ex *ex, char *s, size_t len, unsigned long lineno, tput_sink *sink, void *ctx)
{
	if (lineno <= 1)  /* an input's first line: nothing carries over from another */
		start_input(ex);
	tputrule_sync(&ex->rs);
	if (table_row(ex, s, len, lineno, sink, ctx))
		return;
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

/* The line at w->at (n bytes) as a row of the table open: on past it when it is one. */
static int walk_row(tput_ex *ex, struct walk *w, size_t n)
{
	if (!ex->tab.cols || !table_row(ex, w->at, n, w->lineno, w->sink, w->ctx))
		return 0;
	walk_past(w, n);
	w->done = w->at;
	return 1;
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
		if (walk_row(ex, w, n))
			continue;
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
		if (walk_row(ex, w, n))
			continue;
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
		/* a table's rows, right under its header, hold no literal: read here */
		while (ex->tab.cols && at < end) {
			size_t rn = tputrec_line_len(at, end);
			if (!table_row(ex, at, rn, w->lineno + 1, w->sink, w->ctx))
				break;
			w->lineno++;
			w->newlines++;
			counted = at;
			line_end = at + rn;
			at = w->done = line_end + (line_end < end);
		}
		if (more < (size_t)(end - next) && next + more < at) {
			more = tputrule_next(&ex->rs, w->text, at, end, &next_rule);
			next = at;
		}
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

void tput_ex_finish(tput_ex *ex, tput_sink *sink, void *ctx) { tputbar_finish(&ex->bar, sink, ctx); }

size_t tput_ex_inference_lines(const tput_ex *ex) { return ex->inference; }
const struct tputtmpl_seen *tput_ex_template(const tput_ex *ex, uint64_t tmpl, int unit)
{
	return tputtmpl_find(&ex->tmpls, tmpl, unit);
}
size_t tput_ex_copies(const tput_ex *ex) { return ex->bar.copies; }
int tput_ex_holding(const tput_ex *ex) { return tputbar_holding(&ex->bar); }
