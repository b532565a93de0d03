/* test_stats: summaries, quantiles, the PRNG, Student's t (distribution, Welch, paired, one
 * statistic for interval and p, coverage), count tests, Benjamini-Hochberg. */
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
	/* The seed fixes the draws: exact counts, each near 1000. */
	assert_int_equal(counts[0], 998);
	assert_int_equal(counts[1], 958);
	assert_int_equal(counts[2], 999);
	assert_int_equal(counts[3], 1045);
}

/* Student's t: reference values from mpmath (betainc, 30 digits). */
static void test_t_distribution(void **state)
{
	(void)state;
	assert_true(fabs(stats_t_two_sided_p(2, 10) - 0.073388034770740366) < 1e-13);
	assert_true(fabs(stats_t_two_sided_p(-2, 10) - 0.073388034770740366) < 1e-13);
	assert_true(fabs(stats_t_two_sided_p(1.5, 3.7) - 0.21359816920201353) < 1e-13);
	assert_true(fabs(stats_t_two_sided_p(3, 7) - 0.019942126131992538) < 1e-13);
	near(stats_t_two_sided_p(0, 5), 1);
	near(stats_t_two_sided_p(INFINITY, 5), 0);
	assert_true(isnan(stats_t_two_sided_p(1, 0)) && isnan(stats_t_two_sided_p(NAN, 3)));
	assert_true(fabs(stats_t_critical(1, 0.95) - 12.706204736174693) < 1e-10);
	assert_true(fabs(stats_t_critical(2, 0.95) - 4.3026527297494618) < 1e-11);
	assert_true(fabs(stats_t_critical(10, 0.95) - 2.2281388519862742) < 1e-11);
	assert_true(fabs(stats_t_critical(5.5, 0.95) - 2.5018586175892397) < 1e-11);
	assert_true(fabs(stats_t_critical(1e6, 0.95) - 1.9599663568141067) < 1e-9); /* lgamma of 5e5 */
	assert_true(isnan(stats_t_critical(3, 1)) && isnan(stats_t_critical(-1, 0.95)));
}

/* Welch: {1,2,3,4} against {2,4,6,8,10}; reference values from mpmath. */
static void test_welch(void **state)
{
	(void)state;
	const double before[] = { 1, 2, 3, 4 }, after[] = { 2, 4, 6, 8, 10 };
	struct stats_t_test t;
	assert_int_equal(stats_welch(before, 4, after, 5, 0.95, &t), 0);
	assert_int_equal(t.paired, 0);
	near(t.diff, 3.5);
	assert_true(fabs(t.se - 1.5545631755148025) < 1e-12);
	assert_true(fabs(t.df - 5.5207877461706783) < 1e-12);
	assert_true(fabs(t.t - 2.2514363231593691) < 1e-12);
	assert_true(fabs(t.p - 0.069133593192392413) < 1e-12);
	assert_true(fabs(t.low + 0.38536808051404367) < 1e-9);
	assert_true(fabs(t.high - 7.3853680805140437) < 1e-9);
	/* No spread on either side: equal means are no change, unequal ones a sure one. */
	const double ones[] = { 1, 1 }, twos[] = { 2, 2 };
	assert_int_equal(stats_welch(ones, 2, twos, 2, 0.95, &t), 0);
	assert_true(t.p == 0 && t.low == 1 && t.high == 1 && isinf(t.t));
	assert_int_equal(stats_welch(ones, 2, ones, 2, 0.95, &t), 0);
	assert_true(t.p == 1 && t.low == 0 && t.high == 0 && t.t == 0);
	assert_int_equal(stats_welch(before, 1, after, 5, 0.95, &t), -1);
	assert_int_equal(stats_welch(before, 4, after, 0, 0.95, &t), -1);
}

/* Paired: differences {1,2,1,1}, mean 1.25, se 0.25, t 5 on 3 df. */
static void test_paired(void **state)
{
	(void)state;
	const double before[] = { 10, 12, 9, 11 }, after[] = { 11, 14, 10, 12 };
	struct stats_t_test t;
	assert_int_equal(stats_paired_t(before, after, 4, 0.95, &t), 0);
	assert_int_equal(t.paired, 1);
	near(t.diff, 1.25);
	near(t.se, 0.25);
	near(t.df, 3);
	near(t.t, 5);
	assert_true(fabs(t.p - 0.015392438073302301) < 1e-12);
	assert_true(fabs(t.low - 0.45438842367907289) < 1e-9);
	assert_true(fabs(t.high - 2.0456115763209271) < 1e-9);
	assert_int_equal(stats_paired_t(before, after, 1, 0.95, &t), -1);
}

/* One statistic: the 95% interval excludes 0 exactly when p < 0.05, on 20,000 random pairs
 * of samples of 2 to 9 values each, Welch's and paired, near the boundary and far from it. */
static void test_interval_agrees_with_p(void **state)
{
	(void)state;
	struct stats_rng rng;
	stats_rng_seed(&rng, 27);
	size_t called = 0;
	for (int i = 0; i < 20000; i++) {
		double b[9], a[9];
		size_t nb = 2 + stats_rng_below(&rng, 8), na = 2 + stats_rng_below(&rng, 8);
		double shift = (double)stats_rng_below(&rng, 5) * 0.5;
		for (size_t k = 0; k < 9; k++) {
			b[k] = (double)stats_rng_below(&rng, 1000) / 100;
			a[k] = (double)stats_rng_below(&rng, 1000) / 100 + shift;
		}
		struct stats_t_test t;
		if (i % 2)
			assert_int_equal(stats_paired_t(b, a, nb, 0.95, &t), 0);
		else
			assert_int_equal(stats_welch(b, nb, a, na, 0.95, &t), 0);
		int excludes = t.low > 0 || t.high < 0;
		assert_int_equal(excludes, t.p < 0.05);
		called += (size_t)excludes;
	}
	assert_int_equal(called, 1840);
}

/* A/A coverage: with no change, Welch's 95% interval misses 0 about 5% of the time, for 2
 * to 16 values a side (normal values, Box-Muller on the seeded generator). */
static void test_welch_coverage(void **state)
{
	(void)state;
	struct stats_rng rng;
	stats_rng_seed(&rng, 20);
	const size_t sizes[] = { 2, 3, 4, 8, 16 };
	/* The seed fixes the draws: exact counts, 3.6% to 6.2% of 4000, so about 5%. */
	const size_t want[] = { 144, 206, 249, 224, 191 };
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		size_t misses = 0;
		for (int i = 0; i < 4000; i++) {
			double x[2][16];
			for (int side = 0; side < 2; side++)
				for (size_t k = 0; k < sizes[s]; k++) {
					double u1 = ((double)(stats_rng_next(&rng) >> 11) + 1) / 9007199254740993.0;
					double u2 = (double)(stats_rng_next(&rng) >> 11) / 9007199254740992.0;
					x[side][k] = 10 + (side ? 3 : 1) * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
				}
			struct stats_t_test t;
			assert_int_equal(stats_welch(x[0], sizes[s], x[1], sizes[s], 0.95, &t), 0);
			misses += t.low > 0 || t.high < 0;
		}
		assert_int_equal(misses, want[s]);
	}
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
	/* No p-values: nothing is read or written. */
	double untouched[5] = { -1, -1, -1, -1, -1 };
	stats_bh(p, 0, untouched);
	for (int i = 0; i < 5; i++)
		assert_true(untouched[i] == -1);
	/* One p-value is its own q; tied p-values share theirs. */
	const double one[1] = { 0.3 }, tied[3] = { 0.01, 0.01, 0.9 };
	double q1[1], q3[3];
	stats_bh(one, 1, q1);
	assert_true(q1[0] == 0.3);
	stats_bh(tied, 3, q3);
	assert_true(fabs(q3[0] - 0.015) < 1e-15 && fabs(q3[1] - 0.015) < 1e-15 && fabs(q3[2] - 0.9) < 1e-15);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary_one_to_ten),
		cmocka_unit_test(test_summary_small),
		cmocka_unit_test(test_quantile_interpolates),
		cmocka_unit_test(test_median_select),
		cmocka_unit_test(test_rng_deterministic),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_paired),
		cmocka_unit_test(test_interval_agrees_with_p),
		cmocka_unit_test(test_welch_coverage),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_two_proportion_and_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
