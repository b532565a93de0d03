/* test_tputbar: copies counted once; a bar's frame held until its bar shows another, the
 * points behind it waiting, so what comes out keeps line order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "tputbar.h"

struct got {
	unsigned long lineno[16];
	enum tput_result res[16];
	double value[16];
	const char *reason[16];
	int n;
};

static void collect(void *ctx, unsigned long lineno, enum tput_result res, const struct tput_point *pt,
		    const char *reason)
{
	struct got *g = ctx;
	assert_true(g->n < 16);
	g->lineno[g->n] = lineno;
	g->res[g->n] = res;
	g->value[g->n] = pt ? pt->value : NAN;
	g->reason[g->n] = reason;
	g->n++;
}

static struct tput_point point(long rank, long long step, double value)
{
	return (struct tput_point){ rank, step, NAN, value, TPUT_IT_S, NAN, 0, 0, 0, 0 };
}

/* An unprefixed rank's copy: the same step in the same unit on the next line. */
static void test_rank_copies(void **state)
{
	(void)state;
	struct tputbar bar = { 0 };
	tputbar_reset(&bar);
	struct got g = { .n = 0 };
	struct tput_point a = point(-1, 5, 1.0), b = point(-1, 5, 1.1), c = point(-1, 6, 1.2), r = point(2, 6, 1.3);
	tputbar_emit(&bar, &a, 1, 1, collect, &g);
	tputbar_emit(&bar, &b, 1, 2, collect, &g);  /* rank 1's copy of step 5 */
	tputbar_emit(&bar, &c, 1, 3, collect, &g);
	tputbar_emit(&bar, &r, 1, 4, collect, &g);  /* a prefixed rank: its own */
	assert_int_equal(g.n, 4);  /* the copy left out, with its reason (--explain) */
	assert_true(g.lineno[0] == 1 && g.lineno[1] == 2 && g.lineno[2] == 3 && g.lineno[3] == 4);
	assert_true(g.res[0] == TPUT_POINT && g.res[1] == TPUT_LEFT && g.res[2] == TPUT_POINT && g.res[3] == TPUT_POINT);
	assert_true(g.value[1] == 1.1);
	assert_string_equal(g.reason[1], "an unprefixed rank's copy of the step before");
	assert_int_equal(bar.copies, 1);
	/* the step repeated by a record of another template: a summary of it */
	struct tput_point inner = point(-1, 9, 2.0), summary = point(-1, 9, 1.9);
	inner.tmpl = 11;
	summary.tmpl = 12;
	tputbar_emit(&bar, &inner, 1, 10, collect, &g);
	tputbar_emit(&bar, &summary, 1, 11, collect, &g);
	assert_int_equal(g.n, 6);
	assert_true(g.res[4] == TPUT_POINT && g.res[5] == TPUT_LEFT);
	assert_string_equal(g.reason[5], "a summary: another record repeating the step just read");
	tputbar_reset(&bar);
	assert_int_equal(bar.copies, 2);  /* over every input */
	tputbar_free(&bar);
}

/* A bar's first frame waits for its second; the points between wait behind it. */
static void test_held(void **state)
{
	(void)state;
	struct tputbar bar = { 0 };
	tputbar_reset(&bar);
	struct got g = { .n = 0 };
	struct tput_point f1 = point(-1, 1, 2.0), mid = point(-1, -1, 9.0), f2 = point(-1, 2, 2.5), f3 = point(-1, 3, 2.6);
	tputbar_frame(&bar, &f1, 1, 10, 100, 1, 0, collect, &g);
	assert_true(tputbar_holding(&bar));
	mid.unit = TPUT_TOKENS_S;
	tputbar_emit(&bar, &mid, 1, 11, collect, &g);
	assert_int_equal(g.n, 0);
	tputbar_frame(&bar, &f2, 1, 12, 100, 2, 0, collect, &g);
	assert_false(tputbar_holding(&bar));
	assert_int_equal(g.n, 3);
	assert_true(g.lineno[0] == 10 && g.lineno[1] == 11 && g.lineno[2] == 12);
	assert_true(g.value[0] == 2.0 && g.value[1] == 9.0 && g.value[2] == 2.5);
	tputbar_frame(&bar, &f3, 1, 13, 100, 3, 0, collect, &g);  /* a bar seen twice: at once */
	assert_int_equal(g.n, 4);
	/* a bar of another total, then yet another: the first seen once is dropped */
	tputbar_frame(&bar, &f1, 1, 20, 7, 1, 0, collect, &g);
	tputbar_frame(&bar, &f2, 1, 21, 8, 1, 0, collect, &g);
	assert_int_equal(g.n, 6);  /* its figure left out, then its line skipped */
	assert_true(g.lineno[4] == 20 && g.res[4] == TPUT_LEFT && g.value[4] == 2.0);
	assert_true(g.lineno[5] == 20 && g.res[5] == TPUT_NOMATCH);
	assert_string_equal(g.reason[4], "a progress bar seen in one frame only");
	assert_string_equal(g.reason[5], "a progress bar seen in one frame only");
	/* the input ends: a bar of the input showed two frames, so the one held is dropped */
	tputbar_finish(&bar, collect, &g);
	assert_int_equal(g.n, 8);
	assert_true(g.lineno[6] == 21 && g.res[6] == TPUT_LEFT && g.value[6] == 2.5);
	assert_true(g.lineno[7] == 21 && g.res[7] == TPUT_NOMATCH);
	tputbar_free(&bar);
}

/* An input whose only bar evidence is one frame: that frame is all there is, and counts. */
static void test_finish_alone(void **state)
{
	(void)state;
	struct tputbar bar = { 0 };
	tputbar_reset(&bar);
	struct got g = { .n = 0 };
	struct tput_point f = point(-1, 4, 3.5);
	tputbar_frame(&bar, &f, 1, 7, 50, 4, 0, collect, &g);
	tputbar_finish(&bar, collect, &g);
	assert_int_equal(g.n, 1);
	assert_true(g.lineno[0] == 7 && g.res[0] == TPUT_POINT && g.value[0] == 3.5);
	assert_false(tputbar_holding(&bar));
	tputbar_free(&bar);
}

static void test_seen_and_shapes(void **state)
{
	(void)state;
	struct tputbar bar = { 0 };
	tputbar_reset(&bar);
	assert_false(tputbar_seen(&bar, "45/50 [00:11<00:01,  5.02it/s", 29));
	assert_true(tputbar_seen(&bar, "45/50 [00:11<00:01,  5.02it/s", 29));
	assert_false(tputbar_closing_shown(&bar, 50, 40));
	assert_true(tputbar_closing_shown(&bar, 50, 50));   /* 40 of 50 shown before */
	assert_false(tputbar_closing_shown(&bar, 60, 60));  /* another bar */
	assert_true(tputbar_round("Epoch 3/10 ", 11));
	assert_true(tputbar_round("Epoch 0/10 ", 11));   /* counted from 0 (YOLOv5's "0/299") */
	assert_false(tputbar_round("Epoch 0/0 ", 10));
	assert_false(tputbar_round("Epoch 11/10 ", 12));
	assert_false(tputbar_round("Epoch 3/10", 10));
	long long n, m;
	assert_true(tputbar_keras("  12/100 [=====>....] - ETA: 3s", 32, &n, &m));
	assert_true(n == 12 && m == 100);
	assert_true(tputbar_keras("5/5 \xe2\x94\x81\xe2\x94\x81 2s", 12, &n, &m));
	assert_false(tputbar_keras("12/100 steps", 12, &n, &m));
	const char *a = "INFO:tensorflow:global_step/sec: 0.05";
	const char *b = "I0609 07:53:35.833151 140427424720704 tpu_estimator.py:2350] global_step/sec: 0.05";
	assert_true(tputbar_other_logger(b, strlen(b), a, strlen(a)));
	assert_false(tputbar_other_logger(a, strlen(a), a, strlen(a)));
	struct tput_point p[2] = { point(-1, 3, 1.5), point(-1, 3, 2.5) }, q[2] = { p[1], p[0] };
	q[0].unit = TPUT_TOKENS_S;
	p[1].unit = TPUT_TOKENS_S;
	assert_true(tputbar_same_figures(p, 2, q, 2));
	q[1].value = 1.6;
	assert_false(tputbar_same_figures(p, 2, q, 2));
	assert_false(tputbar_same_figures(p, 1, q, 2));
	tputbar_free(&bar);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_copies),
		cmocka_unit_test(test_held),
		cmocka_unit_test(test_finish_alone),
		cmocka_unit_test(test_seen_and_shapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
