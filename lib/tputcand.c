/* tputcand: candidate series of a log, and which of them are the training series. */
#include "tputcand.h"
#include "intern.h"
#include "stats.h"
#include "tputbar.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SURE_LINES = 512 };  /* more than printed_once's most: 2 x 256 ranks */

const char tputcand_closing[] = "a closing frame: the bar's average over the run";
const char tputcand_loose[] = "a time beside a step, its key loose: a step time or a clock";

void tputcand_set_free(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->c[i].values);
	free(set->c);
	if (set->keys)
		intern_free(set->keys);
	int keep = set->keep_values;
	memset(set, 0, sizeof *set);
	set->keep_values = keep;
}

static size_t find_or_add(struct tputcand_set *set, const struct tput_point *pt, const char *left)
{
	char key[sizeof pt->tmpl + sizeof pt->unit + sizeof left + sizeof pt->total], *k = key;
	memcpy(k, &pt->tmpl, sizeof pt->tmpl);
	memcpy(k += sizeof pt->tmpl, &pt->unit, sizeof pt->unit);
	memcpy(k += sizeof pt->unit, &left, sizeof left);  /* reasons are static strings */
	memcpy(k + sizeof left, &pt->total, sizeof pt->total);
	if (!set->keys)
		set->keys = intern_new();
	uint32_t id = intern_add(set->keys, key, sizeof key);
	if (id < set->n)
		return id;
	set->c = xgrow(set->c, &set->cap, set->n + 1, sizeof *set->c);
	struct tputcand *c = &set->c[set->n];
	memset(c, 0, sizeof *c);
	c->tmpl = pt->tmpl;
	c->unit = pt->unit;
	c->left = left;
	c->total = pt->total;
	return set->n++;
}

size_t tputcand_add(struct tputcand_set *set, const struct tput_point *pt, const char *left, unsigned long lineno)
{
	/* a unit's figures mostly come from one candidate, line after line */
	size_t h = set->hint[pt->unit], i;
	if (h && set->c[h - 1].tmpl == pt->tmpl && set->c[h - 1].left == left && set->c[h - 1].total == pt->total)
		i = h - 1;
	else
		set->hint[pt->unit] = (i = find_or_add(set, pt, left)) + 1;
	struct tputcand *c = &set->c[i];
	if ((c->n == 0 || lineno != c->last_line) && ++c->lines == SURE_LINES + 1)
		c->sure_line = lineno;
	if (c->n == 0)
		c->first_line = lineno;
	c->last_line = lineno;
	if (pt->step >= 0 && c->n > 0 && pt->step > c->last_step)
		c->rises++;
	c->last_step = pt->step;
	if (c->n > 0 && pt->value != c->last_value)
		c->changes++;
	if (c->n > 0 && pt->value > c->last_value)
		c->value_rises++;
	c->last_value = pt->value;
	c->min = c->n == 0 || pt->value < c->min ? pt->value : c->min;
	c->max = c->n == 0 || pt->value > c->max ? pt->value : c->max;
	if (c->n > 0 && !isnan(pt->loss) && !isnan(c->last_loss) && pt->loss != c->last_loss)
		c->loss_changes++;
	c->last_loss = pt->loss;
	c->losses += !isnan(pt->loss);
	c->bars += pt->bar != 0;
	c->n++;
	unsigned r = (unsigned)((pt->rank + 1) & 255);
	if (!(c->rank_bits[r >> 6] >> (r & 63) & 1)) {
		c->rank_bits[r >> 6] |= 1ULL << (r & 63);
		c->nranks++;
	}
	if (set->keep_values) {
		c->values = xgrow(c->values, &c->cap, c->n, sizeof *c->values);
		c->values[c->n - 1] = pt->value;
	}
	return i;
}

static int by_first_line(const void *a, const void *b)
{
	const struct tputcand *x = *(const struct tputcand *const *)a, *y = *(const struct tputcand *const *)b;
	if (x->first_line != y->first_line)
		return x->first_line < y->first_line ? -1 : 1;
	if (x->unit != y->unit)
		return x->unit < y->unit ? -1 : 1;
	return (x->left != NULL) - (y->left != NULL);
}

/* Printed once: on at most two lines, or once per rank, or as one burst of copies (every
 * rank's, no rank prefix): lines close together, their steps not counting up, their
 * figures mostly the same, and so their losses (Keras's epoch lines, one a fit's epoch,
 * show a new loss each). */
static int printed_once(const struct tputcand *c)
{
	if (c->lines <= 2 || c->lines <= 2 * c->nranks)
		return 1;
	return c->lines <= 64 && c->last_line - c->first_line < 4 * c->lines + 16 && c->rises * 2 < c->n &&
	       c->changes * 2 < c->n && c->loss_changes * 2 < c->n;
}

/* Are b's lines side by side with a's: as many, b's first a few lines after a's first and
 * its last a few lines after a's last (parts of one record)? */
static int side_by_side(const struct tputcand *a, const struct tputcand *b)
{
	size_t lo = a->lines < b->lines ? a->lines : b->lines, hi = a->lines < b->lines ? b->lines : a->lines;
	return hi - lo <= 1 + hi / 10 && b->first_line > a->first_line && b->first_line - a->first_line <= 16 &&
	       b->last_line >= a->last_line && b->last_line - a->last_line <= 16;
}

/* Loose times (tputcand_loose): a column of three lines or more is the step's time when its
 * unit has no other series and its readings do not rise like a clock's (nine in ten above
 * the one before). */
static void take_loose(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (c->left != tputcand_loose || c->lines < 3)
			continue;
		int other = 0;
		for (size_t j = 0; j < set->n; j++)
			other |= set->c[j].taken && set->c[j].unit == c->unit && set->c[j].left != tputcand_loose;
		if (other)
			continue;
		if (c->value_rises * 10 >= (c->n - 1) * 9) {
			snprintf(c->why, sizeof c->why, "a clock: its readings rise step after step");
			continue;
		}
		c->taken = 1;
		snprintf(c->why, sizeof c->why, "a loose time: no other step time, and it does not rise like a clock");
	}
}

/* Copies of a step that never advances, on three lines or more, each with a loss of its
 * own and spread over more than twice their lines: what was read as the step is a constant
 * (DA-AT-VFI's "| batch 16", a batch's size), so each line is a figure of its own. A rank's
 * copies come in a burst, mostly with one loss, and a summary repeats the last step of each
 * epoch: their steps rise. */
static void take_constant_steps(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if ((c->left != tputbar_rank_copy && c->left != tputbar_repeat) || c->lines < 3 || c->rises ||
		    c->loss_changes * 2 < c->n - 1 || c->last_line - c->first_line + 1 <= 2 * c->lines)
			continue;
		c->taken = 1;
		snprintf(c->why, sizeof c->why, "copies of a step that never advances: a constant, not a step");
	}
}

/* A bar that shows no loss, short of a series for sure (tputcand_sure), begun after taken
 * bars of its unit that show one on most frames (gluonts' "99it [..., avg_epoch_loss=...]"
 * and the "7it [...]" and "1/137" bars after it): the loss is training's, the quiet bars are
 * evaluation's or prediction's. A bar's first frame, before it shows a loss, is its own. */
static int quiet_bar(const struct tputcand *c)
{
	return c->taken && c->bars == c->n && c->losses == 0 && c->lines >= 2 && c->lines <= SURE_LINES;
}

static void quiet_bars_out(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (!quiet_bar(c))
			continue;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (j == i || !d->taken || d->unit != c->unit || d->bars != d->n || d->lines < 2 ||
			    d->losses * 2 < d->n || d->first_line > c->first_line)
				continue;
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a bar that shows no loss, beside #%d's bars that do: "
				 "evaluation's", d->number);
			break;
		}
		/* between the lines of a training series that shows a loss, drawn less often than
		 * they are printed (LISA's ProgressMeter lines, a validation bar after each epoch's;
		 * verl's training bar, one frame a step, stays) */
		for (size_t j = 0; c->taken && j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (j == i || !d->taken || d->bars || d->lines < 3 || d->lines < 2 * c->lines || d->losses * 2 < d->n ||
			    d->first_line > c->first_line || d->last_line < c->first_line)
				continue;
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a bar that shows no loss, between the lines of #%d, "
				 "a series that does: evaluation's or another task's", d->number);
		}
	}
}

/* Is b a bar of a, of a larger total, begun while a was short of a series for sure, and
 * drawn over a's stretch of lines, or left short of its total before a began (a training
 * bar, and between or under its frames an evaluation's: validation sets are smaller than
 * training sets, and an epoch's batch bar counts more than the epoch bar around it)? A
 * quarter larger at least: a training bar's total may change a little from epoch to epoch.
 * A data preparation bar done before training began is over no training bar. */
static int larger_bar_over(const struct tputcand_set *set, const struct tputcand *a, const struct tputcand *b)
{
	if (b == a || b->unit != a->unit || b->tmpl != a->tmpl || b->bars != b->n || b->total * 3 < a->total * 4 ||
	    (a->lines > SURE_LINES && b->first_line >= a->sure_line) || b->first_line > a->last_line)
		return 0;
	if (a->first_line <= b->last_line)
		return 1;
	if (b->left == tputcand_closing || b->last_step < 0 || (double)b->last_step >= b->total)
		return 0;  /* done, or not known to be short of its total */
	for (size_t j = 0; j < set->n; j++) {  /* b's closing frame, drawn after its last */
		const struct tputcand *done = &set->c[j];
		if (done->left == tputcand_closing && done->tmpl == b->tmpl && done->unit == b->unit &&
		    done->total == b->total && done->last_line >= b->last_line)
			return 0;
	}
	return 1;
}

/* Bars of one shape whose totals differ by a quarter and more, drawn over one stretch of
 * lines: the smaller are evaluation's (polyp's 8-batch validation bars after each 30-batch
 * training bar, undescribed; HF Trainer's evaluation bar drawn under its training bar). */
static void smaller_bars_out(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (!c->taken || c->bars != c->n || c->total <= 0)
			continue;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (!larger_bar_over(set, c, d) || !(d->taken || d->left == tputcand_closing))
				continue;
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a bar of %.0f beside #%d's bars of %.0f, over the same lines: "
				 "evaluation's", c->total, d->number, d->total);
			break;
		}
	}
}

/* Is another candidate of c's unit read as training? */
static int unit_read(const struct tputcand_set *set, const struct tputcand *c)
{
	for (size_t j = 0; j < set->n; j++)
		if (&set->c[j] != c && !set->c[j].left && set->c[j].unit == c->unit)
			return 1;
	return 0;
}

/* A bar of three frames or more, showing no loss, done before another bar of its unit
 * began and fifty times as fast as any of its figures or more: no loop runs at two paces
 * that far apart, and the fast one came first; it made the data ready (undescribed
 * tokenizing bars at thousands a second before a training bar's 0.14 it/s). */
static void fast_bars_first_out(struct tputcand_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (!c->taken || c->bars != c->n || c->n < 3 || c->losses || c->lines > SURE_LINES)
			continue;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (j == i || !d->taken || d->bars != d->n || d->unit != c->unit || d->first_line <= c->last_line ||
			    c->min < 50 * d->max)
				continue;
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a bar %.0f times as fast as #%d's, done before it began: "
				 "data preparation", c->min / d->max, d->number);
			break;
		}
	}
}

/* A series of another unit than c's, taken, of three lines or more, a loss beside most of
 * its figures: a training loop's; NULL when none. */
static const struct tputcand *lossy_series(const struct tputcand_set *set, const struct tputcand *c)
{
	for (size_t j = 0; j < set->n; j++) {
		const struct tputcand *d = &set->c[j];
		if (d != c && d->taken && d->unit != c->unit && d->lines >= 3 && d->losses * 2 >= d->n)
			return d;
	}
	return NULL;
}

void tputcand_decide(struct tputcand_set *set)
{
	struct tputcand **order = xcalloc(set->n ? set->n : 1, sizeof *order);
	for (size_t i = 0; i < set->n; i++)
		order[i] = &set->c[i];
	qsort(order, set->n, sizeof *order, by_first_line);
	for (size_t i = 0; i < set->n; i++)
		order[i]->number = (int)i + 1;
	free(order);
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		c->taken = !c->left;
		c->why[0] = '\0';
		if (c->left) {
			snprintf(c->why, sizeof c->why, "%s", c->left);
			continue;
		}
		c->why[0] = '\0';
		if (c->max == 0 && c->lines <= 2 && !unit_read(set, c)) {  /* "global_step/sec: 0", before any step */
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a figure of 0 printed once: nothing was measured");
			continue;
		}
		if (!printed_once(c))
			continue;
		/* the last line of a series that repeats (three lines or more, more than two a
		 * rank), other than this one */
		const struct tputcand *last = NULL;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (j != i && !d->left && d->lines >= 3 && !printed_once(d) &&
			    (!last || d->last_line > last->last_line))
				last = d;
		}
		if (last && c->first_line > last->last_line) {
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "a summary: printed once, after the last step (line %lu, #%d)",
				 last->last_line, last->number);
		}
	}
	/* Two series of one unit printed side by side (each record of one holds a line of the
	 * other's, as DeepSpeed-Chat's "End-to-End => ... TFLOPs" and "Training => ... TFLOPs")
	 * measure two things: pooled they mean neither. The first is the unit's series. */
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (c->beside) {  /* settled while the input was read */
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "another series of the unit, printed beside #%d's lines",
				 set->c[c->beside - 1].number);
			continue;
		}
		if (!c->taken || c->lines < 2 || c->apart)
			continue;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			if (j == i || !d->taken || d->unit != c->unit || d->number > c->number || d->lines < 2 ||
			    d->tmpl == c->tmpl || !side_by_side(d, c))
				continue;
			c->taken = 0;
			snprintf(c->why, sizeof c->why, "another series of the unit, printed beside #%d's lines", d->number);
			break;
		}
	}
	quiet_bars_out(set);
	/* bars drawn only when done (one closing frame a round, none before it): what their unit
	 * has; when some of them show a loss, those are training's */
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (c->left != tputcand_closing || c->lines < 2)
			continue;
		int other = 0, lossy = 0;
		for (size_t j = 0; j < set->n; j++) {
			const struct tputcand *d = &set->c[j];
			other |= d->taken && d->left != tputcand_closing && d->unit == c->unit &&
				 (d->lines >= 2 || d->bars != d->n);  /* an interrupted bar's last frame is a round too */
			/* its bars drew frames before their ends, left out: the closing frames are theirs */
			other |= d->left != tputcand_closing && d->tmpl == c->tmpl && d->unit == c->unit &&
				 d->bars == d->n && d->n >= 3 && !d->taken;
			lossy |= d->left == tputcand_closing && d->unit == c->unit && d->lines >= 2 && d->losses;
		}
		if (other || (!c->losses && lossy))
			continue;
		const struct tputcand *trained = c->losses ? NULL : lossy_series(set, c);
		if (trained) {  /* gretel's tokenizer bars before each Keras fit */
			snprintf(c->why, sizeof c->why, "closing frames showing no loss beside #%d's series that does: "
				 "another task's bars", trained->number);
			continue;
		}
		if (c->min * 4 < c->max) {  /* rounds of one loop go at much the same pace */
			snprintf(c->why, sizeof c->why, "closing frames %.0f-fold apart: bars of different tasks, "
				 "not one loop's rounds", c->max / c->min);
			continue;
		}
		c->taken = 1;
		snprintf(c->why, sizeof c->why, "bars drawn only when done: each closing frame a round's figure");
	}
	smaller_bars_out(set);
	fast_bars_first_out(set);
	take_loose(set);
	take_constant_steps(set);
}


/* Is candidate i printed beside one begun a few lines before it (another template, its
 * unit)? Settled for good when there is none (none can come: a later one starts later), or
 * once both are longer than a summary may be: side by side then, or apart. */
static void settle_beside(struct tputcand_set *set, size_t i)
{
	struct tputcand *c = &set->c[i];
	for (size_t j = 0; j < set->n; j++) {
		const struct tputcand *d = &set->c[j];
		if (j == i || d->left || d->unit != c->unit || d->tmpl == c->tmpl || d->first_line >= c->first_line ||
		    c->first_line - d->first_line > 16)
			continue;
		if (c->lines <= SURE_LINES || d->lines <= SURE_LINES)
			return;  /* open */
		if (side_by_side(d, c))
			c->beside = j + 1;
		else
			c->apart = 1;
		return;
	}
	c->apart = 1;
}

/* Is c a bar that a bar of a larger total, drawn over its lines, may yet put out? */
static int bar_under_larger(const struct tputcand_set *set, const struct tputcand *c)
{
	if (c->bars != c->n || c->total <= 0)
		return 0;
	for (size_t j = 0; j < set->n; j++)
		if (larger_bar_over(set, c, &set->c[j]) && (!set->c[j].left || set->c[j].left == tputcand_closing))
			return 1;
	return 0;
}

void tputcand_sure(struct tputcand_set *set)
{
	unsigned long series_last = 0;
	unsigned char unit_series[TPUT_NUNITS] = { 0 };
	for (size_t i = 0; i < set->n; i++) {
		const struct tputcand *c = &set->c[i];
		if (!c->left && c->lines > SURE_LINES) {
			series_last = c->last_line > series_last ? c->last_line : series_last;
			unit_series[c->unit] = 1;
		}
	}
	for (size_t i = 0; i < set->n; i++) {
		struct tputcand *c = &set->c[i];
		if (!c->left && !c->beside && !c->apart)
			settle_beside(set, i);
		if (c->beside)
			c->sure = -1;
		else if (!c->left)  /* a quiet bar may meet bars that show a loss (quiet_bars_out), a
				     * bar one of a larger total (smaller_bars_out); zeros a figure */
			c->sure = c->apart && !bar_under_larger(set, c) && (c->max > 0 || c->lines > 2) &&
				  (c->lines > SURE_LINES || (series_last >= c->first_line && !(c->bars == c->n &&
											 (c->losses == 0 || c->total > 0))));
		else if (c->left == tputcand_closing || c->left == tputcand_loose)
			c->sure = unit_series[c->unit] ? -1 : 0;
		else
			c->sure = -1;
	}
}

void tputcand_take(struct tputcand_set *set, size_t i)
{
	struct tputcand *c = &set->c[i];
	if (c->taken)
		return;
	char was[sizeof c->why];
	memcpy(was, c->why, sizeof was);
	c->taken = 1;
	snprintf(c->why, sizeof c->why, "taken by --take (%.100s)", was);
}

double tputcand_median(const struct tputcand *c)
{
	if (!c->values || c->n == 0)
		return NAN;
	double *v = xmalloc(c->n * sizeof *v);  /* the selection reorders its copy */
	memcpy(v, c->values, c->n * sizeof *v);
	double m = stats_median_select(v, c->n);
	free(v);
	return m;
}
