/* series: throughput series, the values statistics are taken on, and before/after comparisons
 * (one place for how a comparison is computed; the statistics themselves are in stats.c). */
#include "series.h"

#include "xalloc.h"

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

void series_keep(const struct series *s, const struct series_keep *how, struct series_kept *k)
{
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
		if (warm)
			k->warmup++;
		else
			k->v[k->n++] = s->pts[i].value;
	}
	free(drop);
}

void series_pool(const struct series_set *set, enum tput_unit unit, const struct series_keep *how,
		 struct series_kept *out, size_t *nan)
{
	size_t cap = 0;
	*out = (struct series_kept){ NULL, 0, 0, 0 };
	*nan = 0;
	for (size_t i = 0; i < set->n; i++) {
		if (set->s[i].unit != unit)
			continue;
		struct series_kept k;
		series_keep(&set->s[i], how, &k);
		out->v = xgrow(out->v, &cap, out->n + k.n + 1, sizeof *out->v);
		memcpy(out->v + out->n, k.v, k.n * sizeof *k.v);
		out->n += k.n;
		out->warmup += k.warmup;
		out->dups += k.dups;
		*nan += set->s[i].nan;
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

void series_compare_values(const double *before, size_t nb, const double *after, size_t na,
			   int lower_is_better, struct series_cmp *out)
{
	struct series_kept kb = { (double *)before, nb, 0, 0 }, ka = { (double *)after, na, 0, 0 };
	series_summary(&kb, &out->before);
	series_summary(&ka, &out->after);
	out->ci = (struct stats_ratio_ci){ NAN, NAN, NAN };
	out->mw = (struct stats_mwu){ NAN, NAN, NAN };
	/* Times per step are read the other way round. */
	int boot = lower_is_better
			   ? stats_bootstrap_median_ratio(after, na, before, nb, STATS_RESAMPLES, STATS_SEED, 0.95, &out->ci)
			   : stats_bootstrap_median_ratio(before, nb, after, na, STATS_RESAMPLES, STATS_SEED, 0.95, &out->ci);
	out->ok = boot == 0 && stats_mann_whitney(before, nb, after, na, &out->mw) == 0;
	if (!out->ok)
		out->verdict = "not enough data";
	else if (out->mw.p < 0.05 && out->ci.low > 1)
		out->verdict = "faster";
	else if (out->mw.p < 0.05 && out->ci.high < 1)
		out->verdict = "slower";
	else
		out->verdict = "no significant change";
}

static const struct series *first_of_unit(const struct series_set *set, enum tput_unit unit)
{
	for (size_t i = 0; i < set->n; i++)
		if (set->s[i].unit == unit)
			return &set->s[i];
	return NULL;
}

struct series_unit_cmp *series_compare(const struct series_set *before, const struct series_set *after,
				       const struct series_keep *how, size_t *n)
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
			series_compare_values(c->before.v, c->before.n, c->after.v, c->after.n,
					      tputunit_lower_is_better(unit), &c->cmp);
			free(c->before.v);
			free(c->after.v);
			c->before.v = c->after.v = NULL;
		}
	}
	return out;
}
