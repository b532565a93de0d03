/* stats: summaries (quantiles, spread), a seeded PRNG, bootstrap CIs (ratio of medians, difference
 * of means), Mann-Whitney U, two-proportion and two-rate tests, Benjamini-Hochberg q-values. */
#ifndef SIFT_STATS_H
#define SIFT_STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats_summary {
	size_t n;
	double mean, median, p5, p95, stddev, cv_pct, min, max;  /* NaN when n is 0 (stddev, cv: n < 2) */
};

/* Summarize x[0..n); x is left sorted ascending (callers pass a scratch copy). */
void stats_summarize(double *x, size_t n, struct stats_summary *out);
/* Quantile p in [0,1] of sorted x by linear interpolation (R type 7, numpy default). */
double stats_quantile_sorted(const double *sorted, size_t n, double p);
/* Median by selection; reorders x. NaN when n is 0. */
double stats_median_select(double *x, size_t n);

/* splitmix64: small, fast, and good enough for resampling; state lives with the caller. */
struct stats_rng {
	uint64_t state;
};
void stats_rng_seed(struct stats_rng *rng, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *rng);
/* Uniform index in [0, n), n > 0. */
size_t stats_rng_below(struct stats_rng *rng, size_t n);

struct stats_ratio_ci {
	double ratio;     /* median(after) / median(before) */
	double low, high; /* percentile interval of the bootstrap ratios */
};
/* Bootstrap both samples independently `resamples` times with `seed`; confidence in (0,1).
 * Returns -1 when a side is empty or a median is 0. */
int stats_bootstrap_median_ratio(const double *before, size_t nb, const double *after, size_t na,
				 unsigned resamples, uint64_t seed, double confidence,
				 struct stats_ratio_ci *out);

struct stats_mwu {
	double u;       /* U of the first sample */
	double z;       /* normal approximation, tie- and continuity-corrected */
	double p;       /* two-sided p-value */
};
/* Mann-Whitney U test of a against b. Returns -1 when a side is empty. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct stats_mwu *out);

/* A difference (after - before) and its interval. */
struct stats_diff_ci {
	double diff, low, high;
};
/* Bootstrap of mean(after) - mean(before), each side resampled apart, percentile interval.
 * Returns -1 when a side is empty. */
int stats_bootstrap_mean_diff(const double *before, size_t nb, const double *after, size_t na,
			      unsigned resamples, uint64_t seed, double confidence,
			      struct stats_diff_ci *out);
/* Two proportions c0/n0 and c1/n1: the difference with its Wald interval and the pooled
 * z-test's two-sided p. Treats samples as independent, which profiles' are not (a thread
 * sampled in one state stays in it): optimistic. Returns -1 when a side has no trials. */
int stats_two_proportion(uint64_t c0, uint64_t n0, uint64_t c1, uint64_t n1, double confidence,
			 struct stats_diff_ci *ci, double *p);
/* Two Poisson rates c0/w0 and c1/w1 (events per unit of work): the difference with its
 * normal interval, and the conditional binomial test's two-sided p (normal approximation). */
int stats_two_rate(uint64_t c0, double w0, uint64_t c1, double w1, double confidence,
		   struct stats_diff_ci *ci, double *p);
/* Benjamini-Hochberg q-values of p[0..n) into q (the false discovery rate at which each
 * would be called). */
void stats_bh(const double *p, size_t n, double *q);

#define STATS_SEED 0x5eed5eedULL
#define STATS_RESAMPLES 4000u

#endif
