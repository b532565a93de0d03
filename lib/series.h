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
	/* series_pool: each series' batch medians (stats_batch_medians of its kept values,
	 * per-step values for a cumulative series), the replicates a comparison tests. */
	double *batch;
	size_t nbatch;
	size_t cumulative;  /* series that were cumulative averages */
};

void series_keep(const struct series *s, const struct series_keep *how, struct series_kept *out);

/* Is s a cumulative average of its clock, as modded-nanogpt's step_avg (train_time / steps
 * since a step K)? For times per step with a clock and steps: value * (step - K) equals the
 * clock at every point, for one K (to rounding). Non-zero when so, with K in *since. */
int series_cumulative(const struct series *s, double *since);
/* The per-step values of a cumulative series: the clock's difference over the steps'
 * (ms/step), point i against the point before it of its rank; NaN for the first. */
void series_per_step(const struct series *s, double *out);
/* Every series of one unit in set, each losing its own warm-up and copies, pooled, with
 * each series' batch medians; a cumulative series gives its per-step values. Their nan counts
 * are summed into *nan. Free out->v and out->batch. */
void series_pool(const struct series_set *set, enum tput_unit unit, const struct series_keep *how,
		 struct series_kept *out, size_t *nan);
/* stats_summarize on a copy: k stays in input order. */
void series_summary(const struct series_kept *k, struct stats_summary *out);

/* Two sides compared by their batch medians (a series' consecutive values in batches, so
 * that steps that move together stay in one replicate): Welch's t test on the logarithms of
 * the batch medians gives the speedup (the ratio of their geometric means, after/before, or
 * before/after when lower_is_better, so that above 1 is always faster), its 95% interval and
 * p, all from one statistic. A change inside +-min_effect is no meaningful change. */
struct series_cmp {
	struct stats_summary before, after;
	double speedup, low, high, p;  /* NaN when not ok */
	size_t batches[2];
	int ok;                        /* at least 2 batches a side, every median above 0 */
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
