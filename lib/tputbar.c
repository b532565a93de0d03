/* tputbar: copies counted once, and bars' frames held until their bar is known. */
#include "tputbar.h"
#include "intern.h"
#include "tputbyte.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A bar frame not drawn again within as many points is alone. */
enum { QUEUE_MAX = 1 << 16 };

static const char ALONE[] = "a progress bar seen in one frame only";

/* The held frame's points, left out for being alone (--explain lists them), and its line
 * named as skipped. */
static void drop_held(struct tputbar *b, tput_sink *sink, void *ctx)
{
	for (size_t i = 0; i < b->held.np; i++)
		sink(ctx, b->held.lineno, TPUT_LEFT, &b->held.pts[i], ALONE);
	sink(ctx, b->held.lineno, TPUT_NOMATCH, NULL, ALONE);
	b->held.np = 0;
}

/* The points waiting behind a bar frame, to the sink in order. */
static void flush_queue(struct tputbar *b, tput_sink *sink, void *ctx)
{
	for (size_t k = 0; k < b->nqueue; k++)
		sink(ctx, b->queue[k].lineno, TPUT_POINT, &b->queue[k].pt, NULL);
	b->nqueue = 0;
}

const char tputbar_rank_copy[] = "an unprefixed rank's copy of the step before";
const char tputbar_repeat[] = "a summary: another record repeating the step just read";
const char tputbar_round_again[] = "a round's closing frame drawn again on the next line";

void tputbar_emit(struct tputbar *b, const struct tput_point *pts, size_t np, unsigned long lineno, tput_sink *sink,
		  void *ctx)
{
	for (size_t i = 0; i < np; i++) {
		const struct tput_point *pt = &pts[i];
		/* An unprefixed rank's copy repeats the step of the figures just before (this line's
		 * earlier frame or the last line with figures) in its unit. */
		if (b->emit_line != lineno) {
			b->emit_prev = b->emit_line;
			b->emit_line = lineno;
		}
		unsigned long seen = b->last_line[pt->unit];
		if (pt->rank < 0 && pt->step >= 0 && seen && (seen == lineno || seen == b->emit_prev) &&
		    b->last_step[pt->unit] == pt->step) {
			b->copies++;
			b->last_line[pt->unit] = lineno;
			/* another record repeating the step: a summary of it (fairseq's "| train |
			 * epoch 001 | ..." after its last train_inner) */
			sink(ctx, lineno, TPUT_LEFT, pt,
			     pt->tmpl && b->last_tmpl[pt->unit] && pt->tmpl != b->last_tmpl[pt->unit] ? tputbar_repeat
															: tputbar_rank_copy);
			continue;
		}
		b->last_step[pt->unit] = pt->step;
		b->last_tmpl[pt->unit] = pt->tmpl;
		b->last_line[pt->unit] = pt->rank < 0 ? lineno : 0;
		if (!b->held.np) {
			sink(ctx, lineno, TPUT_POINT, pt, NULL);
			continue;
		}
		b->queue = xgrow(b->queue, &b->queue_cap, b->nqueue + 1, sizeof *b->queue);
		b->queue[b->nqueue++] = (struct tputbar_queued){ lineno, *pt };
	}
	if (b->nqueue >= QUEUE_MAX) {  /* the held frame stays alone: dropped */
		drop_held(b, sink, ctx);
		flush_queue(b, sink, ctx);
	}
}

/* Has a bar of this total shown two frames? */
static int bar_confirmed(const struct tputbar *b, double total)
{
	for (size_t k = 0; k < TPUTBAR_TOTALS; k++)
		if (b->total[k] == total)
			return 1;
	return 0;
}

static int bar_seen_before(struct tputbar *b, uint64_t h)
{
	for (size_t k = 0; k < TPUTBAR_SEEN; k++)
		if (b->seen[k] == h)
			return 1;
	b->seen[b->seen_at++ % TPUTBAR_SEEN] = h;
	return 0;
}

int tputbar_round(const char *s, size_t n)
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
		if (x >= 0 && x <= y && y > 0)  /* YOLOv5 counts its epochs from 0: "0/299" */
			return 1;
	}
	return 0;
}

int tputbar_keras(const char *s, size_t len, long long *n, long long *m)
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

/* One logger's lines differ only in their figures and blanks: its clock, its counts. */
int tputbar_other_logger(const char *a, size_t alen, const char *b, size_t blen)
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

int tputbar_same_figures(const struct tput_point *a, size_t na, const struct tput_point *b, size_t nb)
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


void tputbar_reset(struct tputbar *b)
{
	struct tputbar_queued *queue = b->queue;
	size_t cap = b->queue_cap, copies = b->copies;
	memset(b, 0, sizeof *b);
	for (size_t u = 0; u < TPUT_NUNITS; u++)
		b->last_step[u] = -1;
	b->queue = queue;
	b->queue_cap = cap;
	b->copies = copies;
}

void tputbar_free(struct tputbar *b) { free(b->queue); }

int tputbar_closing_shown(struct tputbar *b, double total, long long step)
{
	int shown = b->last_total == total && b->last_bar_step >= 0 && b->last_bar_step < step;
	b->last_total = total;
	b->last_bar_step = step;
	return shown;
}

int tputbar_seen(struct tputbar *b, const char *s, size_t len) { return bar_seen_before(b, intern_hash(s, len)); }

int tputbar_holding(const struct tputbar *b) { return b->held.np > 0; }

void tputbar_frame(struct tputbar *b, const struct tput_point *pts, size_t np, unsigned long lineno, double total,
		   long long step, int round, tput_sink *sink, void *ctx)
{
	struct tputbar_held *held = &b->held;
	/* Keras 3 draws a round's last update, then the round with its time, on the next line */
	if (round == 2 && total == b->round_total && lineno == b->round_line + 1) {
		b->round_line = lineno;
		b->copies += np;
		for (size_t i = 0; i < np; i++)
			sink(ctx, lineno, TPUT_LEFT, &pts[i], tputbar_round_again);
		return;
	}
	if (round) {
		b->round_total = total;
		b->round_line = lineno;
	}
	if (bar_confirmed(b, total)) {
		tputbar_emit(b, pts, np, lineno, sink, ctx);
		return;
	}
	if (held->np && held->total == total && (step != held->step || (round && held->round))) {
		/* the bar's second frame (a later step, or the first of its next round): the one
		 * held and this one count */
		b->total[b->total_at++ % TPUTBAR_TOTALS] = total;
		size_t hn = held->np;
		held->np = 0;
		tputbar_emit(b, held->pts, hn, held->lineno, sink, ctx);
		flush_queue(b, sink, ctx);
		tputbar_emit(b, pts, np, lineno, sink, ctx);
		return;
	}
	if (held->np)
		drop_held(b, sink, ctx);
	flush_queue(b, sink, ctx);
	memcpy(held->pts, pts, np * sizeof *pts);
	held->np = np;
	held->lineno = lineno;
	held->total = total;
	held->step = step;
	held->round = round;
}

void tputbar_finish(struct tputbar *b, tput_sink *sink, void *ctx)
{
	struct tputbar_held *held = &b->held;
	size_t hn = held->np;
	if (!hn)
		return;
	/* the input's only bar evidence: its figure is all there is to go by */
	int any = 0;
	for (size_t k = 0; k < TPUTBAR_TOTALS; k++)
		any |= b->total[k] != 0;
	if (any) {
		drop_held(b, sink, ctx);
	} else {
		held->np = 0;
		tputbar_emit(b, held->pts, hn, held->lineno, sink, ctx);
	}
	flush_queue(b, sink, ctx);
}

