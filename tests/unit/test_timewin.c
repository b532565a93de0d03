/* test_timewin: instants kept by [from, to), spans cut by covered time, series windows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "timewin.h"

/* Pieces given by timewin_split. */
struct got { double start[16]; uint64_t count[16]; size_t n; };

static void take(void *ctx, double start, uint64_t count)
{
	struct got *g = ctx;
	assert_true(g->n < 16);
	g->start[g->n] = start;
	g->count[g->n++] = count;
}

static void test_parse(void **state)
{
	(void)state;
	double s = -1;
	assert_int_equal(timewin_parse_seconds("1", &s), 0);
	assert_true(s == 1.0);
	assert_int_equal(timewin_parse_seconds("2.5", &s), 0);
	assert_true(s == 2.5);
	assert_int_equal(timewin_parse_seconds(".5", &s), 0);
	assert_true(s == 0.5);
	assert_int_equal(timewin_parse_seconds("0", &s), 0);
	assert_true(s == 0.0);
	assert_int_equal(timewin_parse_seconds("1e3", &s), 0);
	assert_true(s == 1000.0);
	const char *bad[] = { "speedscope", "-1", "+1", "1s", "", "inf", "nan", "0x10", "1e999", ".", NULL };
	for (int i = 0; bad[i]; i++)
		assert_int_equal(timewin_parse_seconds(bad[i], &s), -1);
	assert_int_equal(timewin_parse_seconds(NULL, &s), -1);
}

static void test_active(void **state)
{
	(void)state;
	struct timewin w = { 0 };
	assert_int_equal(timewin_active(&w), 0);
	w.has_to = 1;
	assert_int_equal(timewin_active(&w), 1);
	w = (struct timewin){ .width = 0.5 };
	assert_int_equal(timewin_active(&w), 1);
}

static void test_instants(void **state)
{
	(void)state;
	struct timewin w = { .from = 0.5, .to = 1.5, .has_from = 1, .has_to = 1 };
	double carry = 0;
	struct got g = { 0 };
	timewin_split(&w, 0.49, 0, 3, &carry, take, &g);  /* before */
	timewin_split(&w, 0.5, 0, 2, &carry, take, &g);   /* from is in */
	timewin_split(&w, 1.49, 0, 1, &carry, take, &g);
	timewin_split(&w, 1.5, 0, 7, &carry, take, &g);   /* to is out */
	timewin_split(&w, 1.0, 0, 0, &carry, take, &g);   /* nothing to give */
	assert_int_equal(g.n, 2);
	assert_int_equal(g.count[0], 2);
	assert_int_equal(g.count[1], 1);
	assert_true(g.start[0] == 0 && g.start[1] == 0);
	assert_true(carry == 0);
}

static void test_spans_clipped(void **state)
{
	(void)state;
	struct timewin w = { .from = 0.5, .to = 1.5, .has_from = 1, .has_to = 1 };
	double carry = 0;
	struct got g = { 0 };
	timewin_split(&w, 0.3, 0.7, 70, &carry, take, &g);   /* 0.5..1.0 of 0.3..1.0: 50 */
	timewin_split(&w, 1.0, 1.5, 150, &carry, take, &g);  /* 1.0..1.5: 50 */
	timewin_split(&w, 0.6, 0.2, 7, &carry, take, &g);    /* wholly in: unchanged */
	timewin_split(&w, 1.5, 1.0, 9, &carry, take, &g);    /* wholly after */
	timewin_split(&w, 0.0, 0.5, 9, &carry, take, &g);    /* ends at from */
	assert_int_equal(g.n, 3);
	assert_int_equal(g.count[0], 50);
	assert_int_equal(g.count[1], 50);
	assert_int_equal(g.count[2], 7);

	/* Rounding carried: thirds of one sample add up to one. */
	w = (struct timewin){ .from = 0, .to = 1, .has_to = 1 };
	carry = 0;
	g = (struct got){ 0 };
	for (int i = 0; i < 3; i++)
		timewin_split(&w, 0.5, 1.5, 1, &carry, take, &g);  /* a third inside, each */
	assert_int_equal(g.n, 1);
	assert_int_equal(g.count[0], 1);
}

static void test_series(void **state)
{
	(void)state;
	struct timewin w = { .width = 1 };
	double carry = 0;
	struct got g = { 0 };
	timewin_split(&w, 0.5, 2.0, 200, &carry, take, &g);  /* 0.5..2.5: 50, 100, 50 */
	assert_int_equal(g.n, 3);
	assert_true(g.start[0] == 0 && g.start[1] == 1 && g.start[2] == 2);
	assert_int_equal(g.count[0], 50);
	assert_int_equal(g.count[1], 100);
	assert_int_equal(g.count[2], 50);

	/* Instants land in the window i/rate falls in, rounding errors forgiven. */
	w = (struct timewin){ .width = 0.1 };
	g = (struct got){ 0 };
	timewin_split(&w, 30 / 100.0, 0, 1, &carry, take, &g);
	timewin_split(&w, 29 / 100.0, 0, 1, &carry, take, &g);
	assert_true(g.start[0] == 3 * 0.1);
	assert_true(g.start[1] == 2 * 0.1);
	assert_true(timewin_start(0.1, 0.3) == 3 * 0.1);
	assert_true(timewin_start(2, 3.9) == 2);

	/* A series inside a window: cut at both. */
	w = (struct timewin){ .from = 0.5, .to = 2.25, .has_from = 1, .has_to = 1, .width = 1 };
	g = (struct got){ 0 };
	carry = 0;
	timewin_split(&w, 0, 4, 400, &carry, take, &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.count[0], 50);
	assert_int_equal(g.count[1], 100);
	assert_int_equal(g.count[2], 25);
	assert_true(g.start[2] == 2);

	/* One window holding a whole span gives its count unchanged. */
	w = (struct timewin){ .width = 1 };
	g = (struct got){ 0 };
	timewin_split(&w, 1.25, 0.5, 3, &carry, take, &g);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.count[0], 3);
	assert_true(g.start[0] == 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_active),
		cmocka_unit_test(test_instants),
		cmocka_unit_test(test_spans_clipped),
		cmocka_unit_test(test_series),
	};
	return cmocka_run_group_tests_name("timewin", tests, NULL, NULL);
}
