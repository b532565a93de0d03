/* test_stats: summaries, quantiles, the PRNG, bootstrap ratio CI and Mann-Whitney U. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "stats.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_summary_one_to_ten(void **state)
{
	(void)state;
	double x[] = { 10, 3, 7, 1, 9, 2, 8, 4, 6, 5 };
	struct stats_summary s;
	stats_summarize(x, 10, &s);
	assert_int_equal(s.n, 10);
	near(s.mean, 5.5);
	near(s.median, 5.5);
	near(s.p5, 1.45);   /* 1 + 0.45 * (2 - 1) */
	near(s.p95, 9.55);
	near(s.stddev, sqrt(55.0 / 6.0));
	near(s.cv_pct, 100 * sqrt(55.0 / 6.0) / 5.5);
	near(s.min, 1);
	near(s.max, 10);
	assert_true(x[0] == 1 && x[9] == 10); /* left sorted */
}

static void test_summary_small(void **state)
{
	(void)state;
	struct stats_summary s;
	stats_summarize(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean) && isnan(s.median) && isnan(s.stddev));
	double one[] = { 42 };
	stats_summarize(one, 1, &s);
	near(s.mean, 42);
	near(s.p5, 42);
	near(s.p95, 42);
	assert_true(isnan(s.stddev) && isnan(s.cv_pct));
	double c[] = { 5, 5, 5, 5 };
	stats_summarize(c, 4, &s);
	near(s.stddev, 0);
	near(s.cv_pct, 0);
}

static void test_quantile_interpolates(void **state)
{
	(void)state;
	double x[] = { 10, 20, 30, 40, 50 };
	near(stats_quantile_sorted(x, 5, 0), 10);
	near(stats_quantile_sorted(x, 5, 0.25), 20);
	near(stats_quantile_sorted(x, 5, 0.1), 14);
	near(stats_quantile_sorted(x, 5, 1), 50);
	assert_true(isnan(stats_quantile_sorted(x, 0, 0.5)));
}

static void test_median_select(void **state)
{
	(void)state;
	double odd[] = { 9, 1, 8, 2, 7, 3, 6 };
	near(stats_median_select(odd, 7), 6);
	double even[] = { 4, 4, 1, 9, 4, 2 };
	near(stats_median_select(even, 6), 4);
	double pair[] = { 3, 1 };
	near(stats_median_select(pair, 2), 2);
	double dup[] = { 1, 1, 1, 1, 2, 2, 2, 2 };
	near(stats_median_select(dup, 8), 1.5);
}

static void test_rng_deterministic(void **state)
{
	(void)state;
	struct stats_rng a, b;
	stats_rng_seed(&a, 1);
	stats_rng_seed(&b, 1);
	/* splitmix64 reference output for seed 1 */
	uint64_t first = stats_rng_next(&a);
	assert_true(first == 0x910a2dec89025cc1ULL);
	assert_true(stats_rng_next(&b) == first);
	size_t counts[4] = { 0 };
	for (int i = 0; i < 4000; i++)
		counts[stats_rng_below(&a, 4)]++;
	for (int i = 0; i < 4; i++)
		assert_true(counts[i] > 900 && counts[i] < 1100);
}

static void test_bootstrap_clear_shift(void **state)
{
	(void)state;
	double before[30], after[30];
	for (int i = 0; i < 30; i++) {
		before[i] = 100 + (i % 10);      /* median 104.5 */
		after[i] = 120 + (i % 10);       /* median 124.5 */
	}
	struct stats_ratio_ci ci, again;
	assert_int_equal(stats_bootstrap_median_ratio(before, 30, after, 30, 2000, 7, 0.95, &ci), 0);
	near(ci.ratio, 124.5 / 104.5);
	assert_true(ci.low > 1.15 && ci.high < 1.25 && ci.low <= ci.ratio && ci.ratio <= ci.high);
	assert_int_equal(stats_bootstrap_median_ratio(before, 30, after, 30, 2000, 7, 0.95, &again), 0);
	assert_true(ci.low == again.low && ci.high == again.high); /* fixed seed, same figures */
	assert_int_equal(stats_bootstrap_median_ratio(before, 0, after, 30, 2000, 7, 0.95, &ci), -1);
	double zero[] = { 0, 0, 0 };
	assert_int_equal(stats_bootstrap_median_ratio(zero, 3, after, 30, 2000, 7, 0.95, &ci), -1);
}

static void test_mann_whitney(void **state)
{
	(void)state;
	struct stats_mwu m;
	/* Separated samples, no ties: U = 0, z = (12.5 - 0.5) / sqrt(25 / 12 * 11) = 2.50672,
	 * p = 0.0121860 (scipy mannwhitneyu, asymptotic with continuity, agrees). */
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	assert_int_equal(stats_mann_whitney(a, 5, b, 5, &m), 0);
	near(m.u, 0);
	assert_true(fabs(m.z + 2.506718) < 1e-6);
	assert_true(fabs(m.p - 0.012186) < 1e-6);
	/* Ties: a = {1,2,2,3}, b = {2,3,3,4}: midranks 1, 3, 3, 6 give U = 13 - 10 = 3; two tie
	 * groups of 3 make the variance 16/12 * (9 - 48/56); z = -(|3 - 8| - 0.5) / sd */
	double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 3, 4 };
	assert_int_equal(stats_mann_whitney(ta, 4, tb, 4, &m), 0);
	near(m.u, 3);
	double z = 4.5 / sqrt(16.0 / 12.0 * (9.0 - 48.0 / 56.0));
	near(m.z, -z);
	near(m.p, erfc(z / sqrt(2.0)));
	/* Identical samples: no evidence at all. */
	double c[] = { 5, 5, 5 };
	assert_int_equal(stats_mann_whitney(c, 3, c, 3, &m), 0);
	near(m.p, 1);
	assert_int_equal(stats_mann_whitney(c, 0, c, 3, &m), -1);
}

/* Benjamini-Hochberg: q = min over k >= rank of p_k * n / k, in the input order. */
static void test_bh(void **state)
{
	(void)state;
	const double p[5] = { 0.04, 0.001, 0.03, 0.5, 0.02 };
	double q[5];
	stats_bh(p, 5, q);
	/* sorted 0.001 0.02 0.03 0.04 0.5 -> 0.005 0.05 0.05 0.05 0.5 */
	assert_true(fabs(q[0] - 0.05) < 1e-12 && fabs(q[1] - 0.005) < 1e-12);
	assert_true(fabs(q[2] - 0.05) < 1e-12 && fabs(q[3] - 0.5) < 1e-12 && fabs(q[4] - 0.05) < 1e-12);
	stats_bh(p, 0, q); /* nothing to do */
}

static void test_two_proportion_and_rate(void **state)
{
	(void)state;
	struct stats_diff_ci ci;
	double p;
	/* 40 of 100 against 50 of 100: pooled z = 0.1 / sqrt(0.45 * 0.55 * 0.02) = 1.4213. */
	assert_int_equal(stats_two_proportion(40, 100, 50, 100, 0.95, &ci, &p), 0);
	assert_true(fabs(ci.diff - 0.1) < 1e-12);
	assert_true(fabs(ci.low - (0.1 - 1.959964 * sqrt(0.0049))) < 1e-6);
	assert_true(fabs(ci.high - (0.1 + 1.959964 * sqrt(0.0049))) < 1e-6);
	assert_true(fabs(p - 0.155218) < 1e-6);
	assert_int_equal(stats_two_proportion(1, 0, 1, 10, 0.95, &ci, &p), -1);
	/* Equal proportions of everything: no spread, p 1. */
	assert_int_equal(stats_two_proportion(10, 10, 20, 20, 0.95, &ci, &p), 0);
	assert_true(ci.low == 0 && ci.high == 0 && p == 1);
	/* 30 events in 1000 units against 0 in 1000: the after rate is 0. */
	assert_int_equal(stats_two_rate(30, 1000, 0, 1000, 0.95, &ci, &p), 0);
	assert_true(fabs(ci.diff + 0.03) < 1e-12);
	assert_true(fabs(ci.low - (-0.03 - 1.959964 * sqrt(30.0) / 1000)) < 1e-6);
	assert_true(fabs(p - erfc(15 / sqrt(7.5) / sqrt(2.0))) < 1e-12);
	assert_int_equal(stats_two_rate(1, 0, 1, 1, 0.95, &ci, &p), -1);
}

static void test_bootstrap_mean_diff(void **state)
{
	(void)state;
	const double before[2] = { 58, 60 }, after[2] = { 40, 42 };
	struct stats_diff_ci ci, again;
	assert_int_equal(stats_bootstrap_mean_diff(before, 2, after, 2, 4000, STATS_SEED, 0.95, &ci), 0);
	assert_true(ci.diff == -18 && ci.low == -20 && ci.high == -16);
	assert_int_equal(stats_bootstrap_mean_diff(before, 2, after, 2, 4000, STATS_SEED, 0.5, &again), 0);
	assert_true(again.low >= -19 && again.high <= -17); /* a narrower interval */
	assert_int_equal(stats_bootstrap_mean_diff(before, 0, after, 2, 4000, STATS_SEED, 0.95, &ci), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_one_to_ten),
		cmocka_unit_test(test_summary_small),
		cmocka_unit_test(test_quantile_interpolates),
		cmocka_unit_test(test_median_select),
		cmocka_unit_test(test_rng_deterministic),
		cmocka_unit_test(test_bootstrap_clear_shift),
		cmocka_unit_test(test_mann_whitney),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_two_proportion_and_rate),
		cmocka_unit_test(test_bootstrap_mean_diff),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
