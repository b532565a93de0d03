/* test_series: series by source and unit, warm-up and per-rank copies left out, pooling,
 * and before/after verdicts on small fixed samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "series.h"

#define near(a, b) assert_true(fabs((a) - (b)) < 1e-12)

/* A series of n points: values v, steps st (NULL: -1), ranks rk (NULL: -1). */
static struct series *fill(struct series_set *set, const char *source, enum tput_unit unit, const double *v,
			   const long long *st, const long *rk, size_t n)
{
	struct series *s = series_get(set, source, unit);
	for (size_t i = 0; i < n; i++)
		series_add(s, (struct series_point){ v[i], st ? st[i] : -1, rk ? rk[i] : -1, NAN });
	return s;
}

static void assert_values(const struct series_kept *k, const double *want, size_t n)
{
	assert_int_equal(k->n, n);
	for (size_t i = 0; i < n; i++)
		assert_true(k->v[i] == want[i]);
}

static void test_get_by_source_and_unit(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	struct series *a = series_get(&set, "a.log", TPUT_TOKENS_S);
	series_add(a, (struct series_point){ 1, 1, 0, NAN });
	series_get(&set, "a.log", TPUT_IT_S)->nan++;
	series_get(&set, "b.log", TPUT_TOKENS_S);
	assert_int_equal(set.n, 3);
	assert_ptr_equal(series_get(&set, "a.log", TPUT_TOKENS_S), &set.s[0]);
	assert_ptr_equal(series_get(&set, "a.log", TPUT_IT_S), &set.s[1]);
	assert_int_equal(set.n, 3);
	assert_string_equal(set.s[2].source, "b.log");
	assert_int_equal(set.s[0].n, 1);
	assert_int_equal(set.s[1].nan, 1);
	assert_int_equal(set.s[1].n, 0);
	series_set_free(&set);
	assert_int_equal(set.n, 0);
}

static void test_keep_parse(void **state)
{
	(void)state;
	struct series_keep k = { 0, 1, 10 };
	assert_int_equal(series_keep_parse(&k, "25"), 0);
	assert_int_equal(k.pct, 0);
	assert_true(k.warmup == 25);
	assert_int_equal(series_keep_parse(&k, "2.5%"), 0);
	assert_int_equal(k.pct, 1);
	assert_true(k.warmup == 2.5);
	assert_int_equal(series_keep_parse(&k, "0"), 0);
	assert_true(k.warmup == 0 && k.pct == 0);
	static const char *const bad[] = { "", "%", "abc", "-1", "100%", "5%%", "5x", "5 %", "nan" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		k = (struct series_keep){ 0, 1, 10 };
		assert_int_equal(series_keep_parse(&k, bad[i]), -1);
		assert_true(k.pct == 1 && k.warmup == 10);  /* untouched */
	}
}

static void test_warmup_percent(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	const double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct series *s = fill(&set, "a", TPUT_IT_S, v, NULL, NULL, 11);
	struct series_kept k;
	/* floor(11 * 20%) = 2 points, the first two in input order */
	series_keep(s, &(struct series_keep){ 0, 1, 20 }, &k);
	assert_int_equal(k.warmup, 2);
	assert_int_equal(k.dups, 0);
	assert_values(&k, v + 2, 9);
	free(k.v);
	series_keep(s, &(struct series_keep){ 0, 1, 0 }, &k);
	assert_int_equal(k.warmup, 0);
	assert_values(&k, v, 11);
	free(k.v);
	series_set_free(&set);
}

static void test_warmup_steps(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	/* Steps count from the lowest step seen, not from 0; a point without a step stays. */
	const double v[] = { 10, 20, 30, 40, 50, 60 };
	const long long st[] = { 105, 100, 101, -1, 102, 103 };
	struct series *s = fill(&set, "a", TPUT_IT_S, v, st, NULL, 6);
	struct series_kept k;
	series_keep(s, &(struct series_keep){ 0, 0, 3 }, &k);  /* steps 100, 101, 102 */
	assert_int_equal(k.warmup, 3);
	assert_values(&k, (const double[]){ 10, 40, 60 }, 3);
	free(k.v);
	series_keep(s, &(struct series_keep){ 0, 0, 2.5 }, &k);  /* below 102.5 */
	assert_int_equal(k.warmup, 3);
	free(k.v);
	series_set_free(&set);
}

static void test_warmup_steps_not_increasing(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	struct series_kept k;
	/* A counter that never moves: warm-up in points, not the whole series. */
	const double v[] = { 1, 2, 3, 4, 5, 6 };
	const long long still[] = { 0, 0, 0, 0, 0, 0 };
	struct series *s = fill(&set, "still", TPUT_IT_S, v, still, NULL, 6);
	series_keep(s, &(struct series_keep){ 0, 0, 2 }, &k);
	assert_int_equal(k.warmup, 2);
	assert_values(&k, v + 2, 4);
	free(k.v);
	/* An in-epoch counter that starts again each epoch. */
	const long long epoch[] = { 49, 99, 49, 99, 49, 99 };
	s = fill(&set, "epoch", TPUT_IT_S, v, epoch, NULL, 6);
	series_keep(s, &(struct series_keep){ 0, 0, 2 }, &k);
	assert_int_equal(k.warmup, 2);
	assert_values(&k, v + 2, 4);
	free(k.v);
	/* Ranks each counting up, interleaved: steps still increase (per rank). */
	const long long st[] = { 10, 10, 11, 11, 12, 12 };
	const long rk[] = { 0, 1, 0, 1, 0, 1 };
	s = fill(&set, "ranks", TPUT_IT_S, v, st, rk, 6);
	series_keep(s, &(struct series_keep){ 1, 0, 2 }, &k);
	assert_int_equal(k.warmup, 4);
	assert_values(&k, v + 4, 2);
	free(k.v);
	/* One restart in a run that goes up: still steps. */
	const long long restart[] = { 1, 2, 3, 4, 2, 3 };
	s = fill(&set, "restart", TPUT_IT_S, v, restart, NULL, 6);
	series_keep(s, &(struct series_keep){ 0, 0, 2 }, &k);
	assert_int_equal(k.warmup, 3);
	assert_values(&k, (const double[]){ 3, 4, 6 }, 3);
	free(k.v);
	series_set_free(&set);
}

static void test_warmup_steps_without_steps(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	const double v[] = { 1, 2, 3, 4 };
	struct series *s = fill(&set, "a", TPUT_IT_S, v, NULL, NULL, 4);
	struct series_kept k;
	/* No step anywhere: the first N points are the warm-up. */
	series_keep(s, &(struct series_keep){ 0, 0, 1 }, &k);
	assert_int_equal(k.warmup, 1);
	assert_values(&k, v + 1, 3);
	free(k.v);
	series_keep(s, &(struct series_keep){ 0, 0, 9 }, &k);
	assert_int_equal(k.warmup, 4);
	assert_int_equal(k.n, 0);
	free(k.v);
	series_set_free(&set);
}

static void test_rank_copies(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	/* Ranks 0..2 repeat steps 1 and 2 in any order; rank 3 alone reports step 3; the
	 * point without a rank is never a copy. */
	const double v[] = { 11, 10, 12, 21, 20, 30, 99 };
	const long long st[] = { 1, 1, 1, 2, 2, 3, 2 };
	const long rk[] = { 1, 0, 2, 1, 0, 3, -1 };
	struct series *s = fill(&set, "a", TPUT_IT_S, v, st, rk, 7);
	struct series_kept k;
	series_keep(s, &(struct series_keep){ 0, 1, 0 }, &k);
	assert_int_equal(k.dups, 3);
	assert_int_equal(k.warmup, 0);
	assert_values(&k, (const double[]){ 10, 20, 30, 99 }, 4);
	free(k.v);
	/* Copies go first, then the warm-up counts what is left: floor(4 * 50%) = 2. */
	series_keep(s, &(struct series_keep){ 0, 1, 50 }, &k);
	assert_int_equal(k.dups, 3);
	assert_int_equal(k.warmup, 2);
	assert_values(&k, (const double[]){ 30, 99 }, 2);
	free(k.v);
	series_keep(s, &(struct series_keep){ 1, 1, 0 }, &k);
	assert_int_equal(k.dups, 0);
	assert_values(&k, v, 7);
	free(k.v);
	/* With steps: the warm-up starts at step 1, copies never counted as warm. */
	series_keep(s, &(struct series_keep){ 0, 0, 1 }, &k);
	assert_int_equal(k.dups, 3);
	assert_int_equal(k.warmup, 1);
	assert_values(&k, (const double[]){ 20, 30, 99 }, 3);
	free(k.v);
	series_set_free(&set);
}

static void test_pool_and_summary(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	fill(&set, "a", TPUT_IT_S, (const double[]){ 5, 1, 3 }, NULL, NULL, 3)->nan = 2;
	fill(&set, "a", TPUT_MS_STEP, (const double[]){ 100 }, NULL, NULL, 1);
	fill(&set, "b", TPUT_IT_S, (const double[]){ 9, 7 }, NULL, NULL, 2)->nan = 1;
	struct series_kept k;
	size_t nan;
	/* Each log loses its own first point (1 of 3, 1 of 2 at 50%). */
	series_pool(&set, TPUT_IT_S, &(struct series_keep){ 0, 1, 50 }, &k, &nan);
	assert_int_equal(k.warmup, 2);
	assert_int_equal(nan, 3);
	assert_values(&k, (const double[]){ 1, 3, 7 }, 3);
	struct stats_summary sum;
	series_summary(&k, &sum);
	assert_int_equal(sum.n, 3);
	assert_true(sum.median == 3 && sum.min == 1 && sum.max == 7);
	assert_values(&k, (const double[]){ 1, 3, 7 }, 3);  /* order kept */
	assert_int_equal(k.cumulative, 0);
	assert_int_equal(k.nseries, 2);
	free(k.v);
	free(k.step);
	series_set_free(&set);
}

/* A kept sample of n values without steps: compared batch by batch at the same place. */
static struct series_kept kept_of(const double *v, size_t n)
{
	struct series_kept k = { (double *)v, n, 0, 0, 0, NULL, 1 };
	return k;
}

static void test_compare_faster_and_slower(void **state)
{
	(void)state;
	const double b[] = { 100, 100, 100, 100, 100 }, a[] = { 200, 200, 200, 200, 200 };
	struct series_kept kb = kept_of(b, 5), ka = kept_of(a, 5);
	struct series_cmp c;
	series_compare_kept(&kb, &ka, 0, SERIES_MIN_EFFECT, &c);
	assert_int_equal(c.ok, 1);
	assert_true(c.batches[0] == 2 && c.batches[1] == 2 && c.paired == PAIRED_BY_PLACE);
	assert_string_equal(c.verdict, "faster");
	/* No spread in any batch: the ratio is certain. */
	near(c.speedup, 2);
	near(c.low, 2);
	near(c.high, 2);
	assert_true(c.p == 0);
	assert_true(c.before.median == 100 && c.after.median == 200);
	/* The same figures as times per step: twice the time is half the speed. */
	series_compare_kept(&kb, &ka, 1, SERIES_MIN_EFFECT, &c);
	assert_string_equal(c.verdict, "slower");
	near(c.speedup, 0.5);
	near(c.low, 0.5);
	near(c.high, 0.5);
}

/* Significant, but inside +-1%: no meaningful change; with --min-effect 0, faster. Batch
 * medians 100.05, 100.1 against 100.55, 100.6: a speedup near 1.005 in both pairs. */
static void test_compare_min_effect(void **state)
{
	(void)state;
	const double bb[] = { 100, 100.1, 100.05, 100.15 }, ab[] = { 100.5, 100.6, 100.55, 100.65 };
	struct series_kept kb = kept_of(bb, 4), ka = kept_of(ab, 4);
	struct series_cmp c;
	series_compare_kept(&kb, &ka, 0, SERIES_MIN_EFFECT, &c);
	assert_true(fabs(c.p - 0.00015864001858737525) < 1e-15);
	assert_true(fabs(c.low - 1.0049803942869924) < 1e-12 && fabs(c.high - 1.0050121122060947) < 1e-12);
	near(c.speedup, exp((log(100.55 / 100.05) + log(100.6 / 100.1)) / 2));
	assert_string_equal(c.verdict, "no meaningful change");
	series_compare_kept(&kb, &ka, 0, 0, &c);
	assert_string_equal(c.verdict, "faster");
	series_compare_kept(&kb, &ka, 1, 0, &c);
	assert_string_equal(c.verdict, "slower");
}

static void test_compare_no_change_and_too_little(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 3, 4, 5 };
	struct series_kept kx = kept_of(x, 5);
	struct series_cmp c;
	series_compare_kept(&kx, &kx, 0, SERIES_MIN_EFFECT, &c);
	assert_int_equal(c.ok, 1);
	assert_string_equal(c.verdict, "no significant change");
	assert_true(c.speedup == 1 && c.p == 1);
	/* Fewer than 4 values: fewer than 2 batches, no spread to test against. */
	struct series_kept few = kept_of(x, 3);
	series_compare_kept(&few, &kx, 0, SERIES_MIN_EFFECT, &c);
	assert_int_equal(c.ok, 0);
	assert_string_equal(c.verdict, "not enough data");
	assert_true(isnan(c.speedup) && isnan(c.low) && isnan(c.p));
	assert_true(c.before.n == 3 && c.after.median == 3);
	/* A batch median of 0 has no ratio. */
	const double z[] = { 0, 0, 0, 0 };
	struct series_kept kz = kept_of(z, 4);
	series_compare_kept(&kz, &kx, 0, SERIES_MIN_EFFECT, &c);
	assert_string_equal(c.verdict, "not enough data");
}

/* modded-nanogpt's step_avg: train_time / (step - 10), the clock in ms; per-step values are
 * the clock's differences over the steps'. A per-step series with a clock is not cumulative. */
static void test_cumulative(void **state)
{
	(void)state;
	struct series_set set = { NULL, 0, 0 };
	struct series *s = series_get(&set, "a.log", TPUT_MS_STEP);
	const double per[] = { 250, 260, 240, 255, 245, 250, 300, 250 };
	double clock = 0;
	for (int i = 0; i < 8; i++) {
		clock += per[i];
		/* printed to 2 decimals, as the log does */
		double avg = round(clock / (i + 1) * 100) / 100;
		series_add(s, (struct series_point){ avg, 11 + i, -1, clock / 1000 });
	}
	double since;
	assert_true(series_cumulative(s, &since));
	assert_true(fabs(since - 10) < 0.01);
	double out[8];
	series_per_step(s, out);
	assert_true(isnan(out[0]));
	for (int i = 1; i < 8; i++)
		assert_true(fabs(out[i] - per[i]) < 1e-9);
	struct series_kept k;
	size_t nan;
	series_pool(&set, TPUT_MS_STEP, &(struct series_keep){ 0, 0, 0 }, &k, &nan);
	assert_int_equal(k.cumulative, 1);
	assert_int_equal(k.n, 7);
	for (int i = 0; i < 7; i++)
		assert_true(fabs(k.v[i] - per[i + 1]) < 1e-9);
	for (int i = 0; i < 7; i++)
		assert_true(k.step[i] == 12 + i);
	free(k.v);
	free(k.step);
	/* The same clock with the per-step figures themselves: not cumulative. */
	struct series *t = series_get(&set, "b.log", TPUT_MS_STEP);
	clock = 0;
	for (int i = 0; i < 8; i++) {
		clock += per[i];
		series_add(t, (struct series_point){ per[i], 11 + i, -1, clock / 1000 });
	}
	assert_false(series_cumulative(t, &since));
	/* Not a time per step, or no clock: never cumulative. */
	s->unit = TPUT_TOKENS_S;
	assert_false(series_cumulative(s, &since));
	series_set_free(&set);
}

static void test_compare_units(void **state)
{
	(void)state;
	struct series_set before = { NULL, 0, 0 }, after = { NULL, 0, 0 };
	const double hundred[] = { 100, 100, 100, 100, 100 }, fifty[] = { 50, 50, 50, 50, 50 };
	fill(&before, "b1", TPUT_MFU, hundred, NULL, NULL, 5);
	fill(&before, "b1", TPUT_IT_S, hundred, NULL, NULL, 5);
	fill(&before, "b2", TPUT_IT_S, hundred, NULL, NULL, 5)->nan = 4;
	fill(&after, "a1", TPUT_TFLOPS, hundred, NULL, NULL, 5);
	fill(&after, "a1", TPUT_IT_S, fifty, NULL, NULL, 5);
	size_t n;
	struct series_unit_cmp *c = series_compare(&before, &after, &(struct series_keep){ 0, 0, 1 }, SERIES_MIN_EFFECT, &n);
	/* before's units in order, then after's own */
	assert_int_equal(n, 3);
	assert_int_equal(c[0].unit, TPUT_MFU);
	assert_int_equal(c[0].side, SERIES_BEFORE_ONLY);
	assert_int_equal(c[1].unit, TPUT_IT_S);
	assert_int_equal(c[1].side, SERIES_BOTH);
	assert_int_equal(c[2].unit, TPUT_TFLOPS);
	assert_int_equal(c[2].side, SERIES_AFTER_ONLY);
	/* Both before logs pooled, each without its first point. */
	assert_int_equal(c[1].before.n, 8);
	assert_int_equal(c[1].before.warmup, 2);
	assert_int_equal(c[1].before_nan, 4);
	assert_int_equal(c[1].after.n, 4);
	assert_null(c[1].before.v);
	assert_string_equal(c[1].cmp.verdict, "slower");
	/* 8 values before, 4 after, no steps: 2 batches a side at the same place */
	assert_true(c[1].cmp.batches[0] == 2 && c[1].cmp.batches[1] == 2 && c[1].cmp.paired == PAIRED_BY_PLACE);
	near(c[1].cmp.speedup, 0.5);
	near(c[1].cmp.high, 0.5);
	free(c);
	series_set_free(&before);
	series_set_free(&after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_get_by_source_and_unit),
		cmocka_unit_test(test_keep_parse),
		cmocka_unit_test(test_warmup_percent),
		cmocka_unit_test(test_warmup_steps),
		cmocka_unit_test(test_warmup_steps_without_steps),
		cmocka_unit_test(test_warmup_steps_not_increasing),
		cmocka_unit_test(test_rank_copies),
		cmocka_unit_test(test_pool_and_summary),
		cmocka_unit_test(test_compare_faster_and_slower),
		cmocka_unit_test(test_compare_min_effect),
		cmocka_unit_test(test_compare_no_change_and_too_little),
		cmocka_unit_test(test_cumulative),
		cmocka_unit_test(test_compare_units),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
