/* series: throughput series, the values statistics are taken on, cumulative averages, and
 * before/after comparisons (one place for how a comparison is computed; the statistics
 * themselves are in stats.c). */
#include "series.h"

#include "xalloc.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct series *series_get(struct series_set *set, const char *source, enum tput_unit unit)
{
	/* The newest series is the likeliest: points come a file at a time. */
	for (size_t i = set->n; i-- > 0;)
		if (set->s[i].unit == unit && strcmp(set->s[i].source, source) == 0)
			return &set->s[i];
	set->s = xgrow(set->s, &set->cap, set->n + 1, sizeof *set->s);
	struct series *s = &set->s[set->n++];
	memset(s, 0, sizeof *s);
	s->source = xstrndup(source, strlen(source));
	s->unit = unit;
	return s;
}

void series_add(struct series *s, struct series_point point)
{
	s->pts = xgrow(s->pts, &s->cap, s->n + 1, sizeof *s->pts);
	s->pts[s->n++] = point;
}

void series_set_free(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i].source);
		free(set->s[i].pts);
	}
	free(set->s);
	*set = (struct series_set){ NULL, 0, 0 };
}

int series_keep_parse(struct series_keep *how, const char *text)
{
	size_t len = strlen(text);
	int pct = len > 0 && text[len - 1] == '%';
	char *end;
	double v = strtod(text, &end);
	if (end == text || end != text + len - (size_t)pct || !(v >= 0) || (pct && v >= 100))
		return -1;
	how->pct = pct;
	how->warmup = v;
	return 0;
}

static int cmp_step_rank(const void *a, const void *b)
{
	const struct series_point *x = *(const struct series_point *const *)a;
	const struct series_point *y = *(const struct series_point *const *)b;
	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Marks in drop[] every point of a step that a lower rank also reported; returns how many. */
static size_t drop_rank_copies(const struct series *s, char *drop)
{
	const struct series_point **by = xmalloc((s->n ? s->n : 1) * sizeof *by);
	size_t m = 0, dups = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->pts[i].rank >= 0 && s->pts[i].step >= 0)
			by[m++] = &s->pts[i];
	qsort(by, m, sizeof *by, cmp_step_rank);
	for (size_t i = 1; i < m; i++) {
		size_t j = i;
		while (j > 0 && by[j - 1]->step == by[i]->step)
			j--;
		if (by[i]->rank > by[j]->rank) {
			drop[by[i] - s->pts] = 1;
			dups++;
		}
	}
	free(by);
	return dups;
}

static int cmp_rank_order(const void *a, const void *b)
{
	const struct series_point *x = *(const struct series_point *const *)a;
	const struct series_point *y = *(const struct series_point *const *)b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x > y) - (x < y);
}

/* Steps that count the run: within each rank, in input order, they go up, and go down
 * (a restart, a file appended) less than half as often. An in-epoch counter that starts
 * again each epoch, or one that never moves, does not: warm-up is then counted in points. */
static int steps_increase(const struct series *s, const char *drop)
{
	const struct series_point **by = xmalloc((s->n ? s->n : 1) * sizeof *by);
	size_t m = 0, ups = 0, downs = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!drop[i] && s->pts[i].step >= 0)
			by[m++] = &s->pts[i];
	qsort(by, m, sizeof *by, cmp_rank_order);
	for (size_t i = 1; i < m; i++) {
		if (by[i]->rank != by[i - 1]->rank)
			continue;
		ups += by[i]->step > by[i - 1]->step;
		downs += by[i]->step < by[i - 1]->step;
	}
	free(by);
	return m < 2 || (ups > 0 && downs * 2 < ups);
}

/* series_keep with values[i] in place of point i's value (NULL: the points' own); a NaN
 * value is no measurement: left out, and not counted. */
static void keep_values(const struct series *s, const struct series_keep *how, const double *values,
			struct series_kept *k, long long *steps)
{
	memset(k, 0, sizeof *k);
	char *drop = xcalloc(s->n ? s->n : 1, 1);
	/* Ranks repeat a step's figure: keep the lowest rank's lines of each step. */
	k->dups = how->per_rank ? 0 : drop_rank_copies(s, drop);
	size_t live = s->n - k->dups, skip = 0;
	long long first = -1;
	if (how->pct) {
		skip = (size_t)floor((double)live * how->warmup / 100.0);
	} else {
		/* Steps counted from the first step seen; a series without steps, or whose steps
		 * do not increase, skips points. */
		for (size_t i = 0; i < s->n; i++)
			if (!drop[i] && s->pts[i].step >= 0 && (first < 0 || s->pts[i].step < first))
				first = s->pts[i].step;
		if (first >= 0 && !steps_increase(s, drop))
			first = -1;
		if (first < 0)
			skip = (size_t)how->warmup < live ? (size_t)how->warmup : live;
	}
	k->v = xmalloc((live ? live : 1) * sizeof *k->v);
	k->n = k->warmup = 0;
	size_t seen = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			continue;
		int warm = first >= 0 ? (s->pts[i].step >= 0 && (double)s->pts[i].step < (double)first + how->warmup)
				      : seen < skip;
		seen++;
		double v = values ? values[i] : s->pts[i].value;
		if (warm)
			k->warmup++;
		else if (!isnan(v)) {
			if (steps)
				steps[k->n] = s->pts[i].step;
			k->v[k->n++] = v;
		}
	}
	free(drop);
}

void series_keep(const struct series *s, const struct series_keep *how, struct series_kept *k)
{
	keep_values(s, how, NULL, k, NULL);
}

/* Points of s with a step, a clock and a value above 0. */
static int has_clock(const struct series_point *p)
{
	return p->step >= 0 && isfinite(p->time) && p->time > 0 && p->value > 0;
}

int series_cumulative(const struct series *s, double *since)
{
	if (s->unit != TPUT_MS_STEP)
		return 0;
	double *k = xmalloc((s->n ? s->n : 1) * sizeof *k);
	size_t m = 0;
	for (size_t i = 0; i < s->n; i++)
		if (has_clock(&s->pts[i]))
			k[m++] = (double)s->pts[i].step - s->pts[i].time * 1000 / s->pts[i].value;
	int yes = 0;
	if (m >= 5) {
		double *sorted = xmalloc(m * sizeof *sorted);
		memcpy(sorted, k, m * sizeof *sorted);
		double med = stats_median_select(sorted, m);
		free(sorted);
		size_t near = 0;
		for (size_t i = 0, j = 0; i < s->n; i++) {
			if (!has_clock(&s->pts[i]))
				continue;
			/* Printed values are rounded: allow a step, and 0.2% of the steps run. */
			double tol = 0.5 + 0.002 * fabs((double)s->pts[i].step - med);
			near += fabs(k[j++] - med) <= tol;
		}
		yes = near * 10 >= m * 9;
		*since = med;
	}
	free(k);
	return yes;
}

void series_per_step(const struct series *s, double *out)
{
	/* The last point with a clock of each rank seen: few ranks, a short list. */
	struct last { long rank; size_t at; } *last = NULL;
	size_t nlast = 0, cap = 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct series_point *p = &s->pts[i];
		out[i] = NAN;
		if (!has_clock(p))
			continue;
		size_t r = 0;
		while (r < nlast && last[r].rank != p->rank)
			r++;
		if (r == nlast) {
			last = xgrow(last, &cap, nlast + 1, sizeof *last);
			last[nlast++] = (struct last){ p->rank, i };
			continue;
		}
		const struct series_point *q = &s->pts[last[r].at];
		if (p->step > q->step && p->time > q->time) {
			out[i] = 1000 * (p->time - q->time) / (double)(p->step - q->step);
			last[r].at = i;
		} else if (p->step > q->step) {
			last[r].at = i;
		}
	}
	free(last);
}

void series_pool(const struct series_set *set, enum tput_unit unit, const struct series_keep *how,
		 struct series_kept *out, size_t *nan)
{
	size_t cap = 0, scap = 0;
	memset(out, 0, sizeof *out);
	*nan = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct series *s = &set->s[i];
		if (s->unit != unit)
			continue;
		struct series_kept k;
		double since, *per = NULL;
		if (series_cumulative(s, &since)) {
			per = xmalloc(s->n * sizeof *per);
			series_per_step(s, per);
			out->cumulative++;
		}
		out->step = xgrow(out->step, &scap, out->n + s->n + 1, sizeof *out->step);
		keep_values(s, how, per, &k, out->step + out->n);
		out->nseries++;
		free(per);
		out->v = xgrow(out->v, &cap, out->n + k.n + 1, sizeof *out->v);
		memcpy(out->v + out->n, k.v, k.n * sizeof *k.v);
		out->n += k.n;
		out->warmup += k.warmup;
		out->dups += k.dups;
		*nan += s->nan;
		free(k.v);
	}
}

void series_summary(const struct series_kept *k, struct stats_summary *out)
{
	double *scratch = xmalloc((k->n ? k->n : 1) * sizeof *scratch);
	memcpy(scratch, k->v, k->n * sizeof *scratch);
	stats_summarize(scratch, k->n, out);
	free(scratch);
}

#define SERIES_PLACE_BATCHES 10u

/* Logarithms of x[0..n), or -1 when a value is not above 0. */
static int logs_of(const double *x, size_t n, double *out)
{
	for (size_t i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return -1;
		out[i] = log(x[i]);
	}
	return 0;
}

/* The values of k whose step is in [lo, hi], with their steps. */
static size_t in_steps(const struct series_kept *k, long long lo, long long hi, double *v, long long *st)
{
	size_t m = 0;
	for (size_t i = 0; i < k->n; i++)
		if (k->step[i] >= lo && k->step[i] <= hi) {
			v[m] = k->v[i];
			st[m++] = k->step[i];
		}
	return m;
}

static int cmp_step(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

/* Median of the values of v[0..n) whose step is in [from, to), into *out; 0 when none. */
static int batch_median(const double *v, const long long *st, size_t n, long long from, long long to,
			double *scratch, double *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (st[i] >= from && st[i] < to)
			scratch[m++] = v[i];
	if (m == 0)
		return 0;
	*out = stats_median_select(scratch, m);
	return 1;
}

/* Do k's steps count the run: known for every value, going up, and going down only where
 * the next pooled log starts? An iteration counter that starts again each epoch does not. */
static int steps_count_run(const struct series_kept *k)
{
	size_t ups = 0, downs = 0;
	for (size_t i = 0; k->step && i < k->n; i++) {
		if (k->step[i] < 0)
			return 0;
		ups += i && k->step[i] > k->step[i - 1];
		downs += i && k->step[i] < k->step[i - 1];
	}
	return k->step && ups > 0 && downs + 1 <= (k->nseries ? k->nseries : 1);
}

/* Batches of the same steps on both sides, over the steps both cover: the before side's
 * steps there cut into floor(sqrt(n)) groups of near-equal count (2 to STATS_MAX_BATCHES),
 * each side's median in each. Only when both sides' steps count the run and each side has
 * at least 4 values, and half of its values, in the common steps. Returns the pairs (medians
 * in mb, ma), 0 when the sides do not pair so. */
static size_t step_batches(const struct series_kept *b, const struct series_kept *a, double *mb, double *ma)
{
	if (b->n < 4 || a->n < 4 || !steps_count_run(b) || !steps_count_run(a))
		return 0;
	long long lo[2] = { LLONG_MAX, LLONG_MAX }, hi[2] = { -1, -1 };
	const struct series_kept *side[2] = { b, a };
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < side[s]->n; i++) {
			long long st = side[s]->step[i];
			if (st < 0)
				return 0;
			lo[s] = st < lo[s] ? st : lo[s];
			hi[s] = st > hi[s] ? st : hi[s];
		}
	long long from = lo[0] > lo[1] ? lo[0] : lo[1], to = hi[0] < hi[1] ? hi[0] : hi[1];
	double *v[2];
	long long *st[2];
	size_t n[2];
	for (int s = 0; s < 2; s++) {
		v[s] = xmalloc(side[s]->n * sizeof *v[s]);
		st[s] = xmalloc(side[s]->n * sizeof *st[s]);
		n[s] = from <= to ? in_steps(side[s], from, to, v[s], st[s]) : 0;
	}
	size_t pairs = 0;
	if (n[0] >= 4 && n[1] >= 4 && 2 * n[0] >= b->n && 2 * n[1] >= a->n) {
		size_t least = n[0] < n[1] ? n[0] : n[1];
		size_t nb = (size_t)floor(sqrt((double)least));
		nb = nb > STATS_MAX_BATCHES ? STATS_MAX_BATCHES : nb;
		long long *edges = xmalloc(n[0] * sizeof *edges);
		memcpy(edges, st[0], n[0] * sizeof *edges);
		qsort(edges, n[0], sizeof *edges, cmp_step);
		double *scratch = xmalloc((n[0] > n[1] ? n[0] : n[1]) * sizeof *scratch);
		for (size_t k = 0; k < nb; k++) {
			/* batch k: from the (k * n / nb)th step of the before side to the next edge */
			long long start = k ? edges[k * n[0] / nb] : from;
			long long end = k + 1 < nb ? edges[(k + 1) * n[0] / nb] : to + 1;
			if (start >= end)
				continue;  /* one step held more than a batch's points */
			if (batch_median(v[0], st[0], n[0], start, end, scratch, &mb[pairs]) &&
			    batch_median(v[1], st[1], n[1], start, end, scratch, &ma[pairs]))
				pairs++;
		}
		free(scratch);
		free(edges);
	}
	for (int s = 0; s < 2; s++) {
		free(v[s]);
		free(st[s]);
	}
	return pairs >= 2 ? pairs : 0;
}

/* Batches at the same place in both sides' runs: each side's values in order cut into the
 * same number of near-equal batches, floor(sqrt(n)) of the shorter side but at most
 * SERIES_PLACE_BATCHES; batch k of one side is paired with batch k of the other. Places
 * are told by counting points, so a side whose points are unevenly spread in time (a log
 * with gaps) drifts against the other by about sqrt(n) points: few, long batches keep that
 * drift small beside a batch. */
static size_t position_batches(const struct series_kept *b, const struct series_kept *a, double *mb, double *ma)
{
	size_t least = b->n < a->n ? b->n : a->n, nb = (size_t)floor(sqrt((double)least));
	nb = nb > SERIES_PLACE_BATCHES ? SERIES_PLACE_BATCHES : nb;
	if (nb < 2)
		return 0;
	double *scratch = xmalloc((b->n > a->n ? b->n : a->n) * sizeof *scratch);
	const struct series_kept *side[2] = { b, a };
	double *out[2] = { mb, ma };
	for (int s = 0; s < 2; s++)
		for (size_t k = 0; k < nb; k++) {
			size_t from = k * side[s]->n / nb, to = (k + 1) * side[s]->n / nb;
			memcpy(scratch, side[s]->v + from, (to - from) * sizeof *scratch);
			out[s][k] = stats_median_select(scratch, to - from);
		}
	free(scratch);
	return nb;
}

void series_compare_kept(const struct series_kept *before, const struct series_kept *after, int lower_is_better,
			 double min_effect, struct series_cmp *out)
{
	series_summary(before, &out->before);
	series_summary(after, &out->after);
	out->speedup = out->low = out->high = out->p = NAN;
	/* Batch k of each side at the same steps, else at the same place in the runs. */
	double pb[STATS_MAX_BATCHES], pa[STATS_MAX_BATCHES], lb[STATS_MAX_BATCHES], la[STATS_MAX_BATCHES];
	size_t pairs = step_batches(before, after, pb, pa);
	out->paired = pairs ? PAIRED_BY_STEP : 0;
	if (!pairs && (pairs = position_batches(before, after, pb, pa)) > 0)
		out->paired = PAIRED_BY_PLACE;
	out->batches[0] = out->batches[1] = pairs;
	struct stats_t_test t;
	out->ok = pairs > 0 && logs_of(pb, pairs, lb) == 0 && logs_of(pa, pairs, la) == 0 &&
		  stats_paired_t(lb, la, pairs, 0.95, &t) == 0;
	if (!out->ok) {
		out->verdict = "not enough data";
		return;
	}
	/* Times per step are read the other way round: above 1 is always faster. */
	double sign = lower_is_better ? -1 : 1;
	out->speedup = exp(sign * t.diff);
	out->low = exp(lower_is_better ? -t.high : t.low);
	out->high = exp(lower_is_better ? -t.low : t.high);
	out->p = t.p;
	if (!(out->p < 0.05))
		out->verdict = "no significant change";
	else if (out->low > 1 + min_effect)
		out->verdict = "faster";
	else if (out->high < 1 - min_effect)
		out->verdict = "slower";
	else
		out->verdict = "no meaningful change";
}

static const struct series *first_of_unit(const struct series_set *set, enum tput_unit unit)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->s[i].unit == unit)
			return &set->s[i];
	return NULL;
}

struct series_unit_cmp *series_compare(const struct series_set *before, const struct series_set *after,
				       const struct series_keep *how, double min_effect, size_t *n)
{
	struct series_unit_cmp *out = NULL;
	size_t cap = 0;
	*n = 0;
	for (int side = 0; side < 2; side++) {
		const struct series_set *own = side ? after : before, *other = side ? before : after;
		for (size_t i = 0; i < own->n; i++) {
			enum tput_unit unit = own->s[i].unit;
			int both = first_of_unit(other, unit) != NULL;
			if (first_of_unit(own, unit) != &own->s[i] || (side && both))
				continue;  /* a unit is done with its first log, on the before side when both have it */
			out = xgrow(out, &cap, *n + 1, sizeof *out);
			struct series_unit_cmp *c = &out[(*n)++];
			memset(c, 0, sizeof *c);
			c->unit = unit;
			c->side = both ? SERIES_BOTH : side ? SERIES_AFTER_ONLY : SERIES_BEFORE_ONLY;
			if (!both)
				continue;
			series_pool(before, unit, how, &c->before, &c->before_nan);
			series_pool(after, unit, how, &c->after, &c->after_nan);
			series_compare_kept(&c->before, &c->after, tputunit_lower_is_better(unit), min_effect, &c->cmp);
			free(c->before.v);
			free(c->after.v);
			free(c->before.step);
			free(c->after.step);
			c->before.v = c->after.v = NULL;
			c->before.step = c->after.step = NULL;
		}
	}
	return out;
}
