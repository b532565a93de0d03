/* stats: summaries (quantiles, spread), a seeded PRNG, Student's t tests (Welch, paired) with
 * their intervals, two-proportion and two-rate tests, Benjamini-Hochberg. */
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

/* Student's t distribution with df degrees of freedom (df > 0, fractional allowed): the
 * two-sided tail P(|T| >= |t|), and the t whose two-sided tail is 1 - confidence. */
double stats_t_two_sided_p(double t, double df);
double stats_t_critical(double df, double confidence);

/* A difference of means (after - before) and its test, both from one t statistic: the
 * interval excludes 0 exactly when p < 1 - confidence. */
struct stats_t_test {
	double diff;      /* mean(after) - mean(before); paired: the mean of the differences */
	double low, high; /* diff -+ t_critical(df) * se */
	double se, t, df, p;
	int paired;
};
/* Welch's test of two independent samples (each n >= 2; unequal variances). Returns -1
 * when a side has fewer than 2 values. */
int stats_welch(const double *before, size_t nb, const double *after, size_t na, double confidence,
		struct stats_t_test *out);
/* The paired t test of after[i] - before[i], i < n (n >= 2), else -1. */
int stats_paired_t(const double *before, const double *after, size_t n, double confidence,
		   struct stats_t_test *out);

/* The most batches a series is cut into for a comparison (series.c). */
#define STATS_MAX_BATCHES 30u

/* A difference (after - before) and its interval. */
struct stats_diff_ci {
	double diff, low, high;
};
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


#endif
