/* test_tputunit: numbers and units as logs write them, the one unit table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputunit.h"

static int close_to(double a, double b) { return fabs(a - b) < 1e-6 * (1 + fabs(b)); }
#define near(a, b) assert_true(close_to((a), (b)))

static void test_numbers(void **state)
{
	(void)state;
	double v;
	assert_int_equal(tputunit_number("5,856", 5, &v), TPUT_NUM_OK);
	near(v, 5856);
	assert_int_equal(tputunit_number("1,234,567.5", 11, &v), TPUT_NUM_OK);
	near(v, 1234567.5);
	/* separators out of place: no figure, the fast path and the full one alike */
	assert_int_equal(tputunit_number("1234,567", 8, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("1,23", 4, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("1,2345", 6, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number(",123", 4, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("12,345,678", 10, &v), TPUT_NUM_OK);
	assert_true(v == 12345678);
	assert_int_equal(tputunit_number("43.2K", 5, &v), TPUT_NUM_OK);
	near(v, 43200);
	assert_int_equal(tputunit_number("4.71K", 5, &v), TPUT_NUM_OK);
	near(v, 4710);
	assert_int_equal(tputunit_number("1.5M", 4, &v), TPUT_NUM_OK);
	near(v, 1.5e6);
	assert_int_equal(tputunit_number("2G", 2, &v), TPUT_NUM_OK);
	near(v, 2e9);
	assert_int_equal(tputunit_number("1T", 2, &v), TPUT_NUM_OK);
	near(v, 1e12);
	assert_int_equal(tputunit_number("1.249e+03", 9, &v), TPUT_NUM_OK);
	near(v, 1249);
	assert_int_equal(tputunit_number("8.284489E+00", 12, &v), TPUT_NUM_OK);
	near(v, 8.284489);
	assert_int_equal(tputunit_number("1e-05", 5, &v), TPUT_NUM_OK);
	near(v, 1e-5);
	assert_int_equal(tputunit_number("51234,", 6, &v), TPUT_NUM_OK); /* "wps=51234, ups" */
	near(v, 51234);
	assert_int_equal(tputunit_number("0.1", 3, &v), TPUT_NUM_OK);
	assert_true(v == 0.1); /* the fast path rounds exactly as strtod */
	assert_int_equal(tputunit_number("nan", 3, &v), TPUT_NUM_NAN);
	assert_int_equal(tputunit_number("NaN", 3, &v), TPUT_NUM_NAN);
	assert_int_equal(tputunit_number("5,85,6", 6, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("12.3X", 5, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("1e", 2, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("", 0, &v), TPUT_NUM_BAD);
	assert_int_equal(tputunit_number("inf", 3, &v), TPUT_NUM_BAD);
}

static void test_units(void **state)
{
	(void)state;
	enum tput_unit u;
	double scale;
	int inv;
	assert_true(tputunit_parse("tok/sec", 7, &u, &scale, &inv) && u == TPUT_TOKENS_S && !inv);
	assert_true(tputunit_parse("s/it", 4, &u, &scale, &inv) && u == TPUT_IT_S && inv);
	assert_true(tputunit_parse("TFLOPS_per_GPU", 14, &u, &scale, &inv) && u == TPUT_TFLOPS_GPU);
	assert_true(tputunit_parse("s", 1, &u, &scale, &inv) && u == TPUT_MS_STEP && scale == 1000);
	assert_true(tputunit_parse("tokens/s/gpu", 12, &u, &scale, &inv) && u == TPUT_TOKENS_S_GPU);
	assert_false(tputunit_parse("furlongs", 8, &u, &scale, &inv));
	assert_string_equal(tputunit_names[TPUT_MFU], "MFU%");
	assert_true(tputunit_lower_is_better(TPUT_MS_STEP));
	assert_false(tputunit_lower_is_better(TPUT_TOKENS_S));
}

/* Clocks: tqdm's elapsed "01:53" and "1:02:03", llama.cpp's "00:12:57"; none when too few
 * parts, a part of one digit after the first, or a letter, ':' or '.' after it. */
static void test_clock(void **state)
{
	(void)state;
	static const struct { const char *s; int min; size_t end; double secs; } cases[] = {
		{ "01:53<13:12", 2, 5, 113 }, { "1:02:03<", 2, 7, 3723 }, { "00:12:57 ", 3, 8, 777 },
		{ "00:12", 3, 0, 0 }, { "0:1:02", 2, 0, 0 }, { "12:30pm", 2, 0, 0 }, { "12:30.5", 2, 0, 0 },
		{ "1:02:03:04", 2, 0, 0 }, { "01:", 2, 0, 0 }, { "x", 2, 0, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		double secs = -1;
		size_t end = tputunit_clock(cases[i].s, strlen(cases[i].s), 0, cases[i].min, &secs);
		assert_int_equal(end, cases[i].end);
		if (end)
			assert_true(secs == cases[i].secs);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_clock),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
