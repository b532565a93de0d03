/* series: throughput series (one source's points in one unit), the values their statistics
 * are taken on (warm-up and per-rank copies dropped), and before/after comparisons. It lives
 * apart from any tool so that every comparison is computed, and tested, in one place. */
#ifndef SIFT_SERIES_H
#define SIFT_SERIES_H

#include <stddef.h>

#include "stats.h"
#include "tput.h"

struct series_point {
	double value;
	long long step;  /* -1 when unknown */
	long rank;       /* -1 when unknown */
	double time;     /* the line's clock in seconds; NaN when unknown */
};

/* The points of a source (or of a compare side's log) in one unit, in input order. */
struct series {
	char *source;
	enum tput_unit unit;
	struct series_point *pts;
	size_t n, cap;
	size_t nan;      /* nan values seen: counted, never kept */
};

/* Series in order of their first point. */
struct series_set {
	struct series *s;
	size_t n, cap;
};

/* The series of source in unit, made (empty) when new. */
struct series *series_get(struct series_set *set, const char *source, enum tput_unit unit);
void series_add(struct series *s, struct series_point point);
void series_set_free(struct series_set *set);

/* What statistics skip: the warm-up (the first `warmup` steps, counted in points when the
 * steps do not increase (see series.c), or that percentage of the
 * points when pct), and unless per_rank, every rank's copy of a step but the lowest rank's. */
struct series_keep {
	int per_rank;
	int pct;
	double warmup;
};

/* --warmup's "N" (steps) or "P%" (of points, below 100) into how; -1 when malformed. */
int series_keep_parse(struct series_keep *how, const char *text);

/* The values statistics are taken on, and what was left out. */
struct series_kept {
	double *v;
	size_t n, warmup, dups;
	size_t cumulative;  /* series_pool: series that were cumulative averages */
	long long *step;    /* series_pool: each value's step (-1 unknown), beside v */
	size_t nseries;     /* series_pool: how many series were pooled */
};

void series_keep(const struct series *s, const struct series_keep *how, struct series_kept *out);

/* Is s a cumulative average of its clock, as modded-nanogpt's step_avg (train_time / steps
 * since a step K)? For times per step with a clock and steps: value * (step - K) equals the
 * clock at every point, for one K (to rounding). Non-zero when so, with K in *since. */
int series_cumulative(const struct series *s, double *since);
/* The per-step values of a cumulative series: the clock's difference over the steps'
 * (ms/step), point i against the point before it of its rank; NaN for the first. */
void series_per_step(const struct series *s, double *out);
/* Every series of one unit in set, each losing its own warm-up and copies, pooled with their
 * steps; a cumulative series gives its per-step values. Their nan counts are summed into
 * *nan. Free out->v and out->step. */
void series_pool(const struct series_set *set, enum tput_unit unit, const struct series_keep *how,
		 struct series_kept *out, size_t *nan);
/* stats_summarize on a copy: k stays in input order. */
void series_summary(const struct series_kept *k, struct stats_summary *out);

/* Two sides compared by batch medians: consecutive values in batches, so that steps that
 * move together stay in one replicate, and batch k of one side paired with batch k of the
 * other, so that what a run goes through at a point (warm-up, an evaluation every N steps,
 * a slow phase) cancels out: the same steps when both sides' steps count the run and cover
 * mostly the same range, else the same place in each run (its k-th of floor(sqrt(n))
 * parts). The paired t test on the logarithms of the pairs' ratios gives the speedup (the
 * ratio of geometric means, after/before, or before/after when lower_is_better, so that
 * above 1 is always faster), its 95% interval and p, all from one statistic. A change inside
 * +-min_effect is no meaningful change. */
enum { PAIRED_BY_STEP = 1, PAIRED_BY_PLACE = 2 };
struct series_cmp {
	struct stats_summary before, after;
	double speedup, low, high, p;  /* NaN when not ok */
	size_t batches[2];
	int paired;                    /* PAIRED_BY_STEP or PAIRED_BY_PLACE; 0 when not ok */
	int ok;                        /* at least 2 batch pairs (4 values a side), medians above 0 */
	const char *verdict;           /* "faster", "slower", "no meaningful change" (significant,
					* but the interval reaches inside +-min_effect), "no
					* significant change", "not enough data" */
};
#define SERIES_MIN_EFFECT 0.01
void series_compare_kept(const struct series_kept *before, const struct series_kept *after, int lower_is_better,
			 double min_effect, struct series_cmp *out);

enum series_side { SERIES_BOTH, SERIES_BEFORE_ONLY, SERIES_AFTER_ONLY };

/* One unit of a before/after comparison of logs. */
struct series_unit_cmp {
	enum tput_unit unit;
	enum series_side side;           /* only SERIES_BOTH is compared */
	struct series_kept before, after; /* counts of the pooled sides (values freed) */
	size_t before_nan, after_nan;
	struct series_cmp cmp;
};
/* The units of before in the order they first appear, then those only in after; *n gets
 * their count. Free with free(). */
struct series_unit_cmp *series_compare(const struct series_set *before, const struct series_set *after,
				       const struct series_keep *how, double min_effect, size_t *n);

#endif
