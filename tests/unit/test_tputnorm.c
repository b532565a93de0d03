/* test_tputnorm: rank, host and docker prefixes, timestamps, ANSI escapes read off a line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tputnorm.h"

static int close_to(double a, double b) { return fabs(a - b) < 1e-6 * (1 + fabs(b)); }
#define near(a, b) assert_true(close_to((a), (b)))

static void test_rank_prefixes(void **state)
{
	(void)state;
	long r = -1;
	assert_int_equal(tputnorm_rank_prefix("[rank3]:step", 12, &r), 8);
	assert_int_equal(r, 3);
	assert_int_equal(tputnorm_rank_prefix("[default7]: x", 13, &r), 12);
	assert_int_equal(r, 7);
	assert_int_equal(tputnorm_rank_prefix("0: iter", 7, &r), 3);
	assert_int_equal(r, 0);
	assert_int_equal(tputnorm_rank_prefix("worker-12:x", 11, &r), 10);
	assert_int_equal(r, 12);
	r = -1;
	assert_int_equal(tputnorm_rank_prefix("12:00:00 x", 10, &r), 0);   /* a clock, not a rank */
	assert_int_equal(tputnorm_rank_prefix("2024-05-01 x", 12, &r), 0);
	assert_int_equal(tputnorm_rank_prefix("1.2e4 tok/s", 11, &r), 0);
	assert_int_equal(tputnorm_rank_prefix("[rank3] x", 9, &r), 0);     /* torchrun's has a ':' */
	assert_int_equal(tputnorm_rank_prefix("     3: x", 9, &r), 0);     /* more padding than srun's */
	assert_int_equal(tputnorm_rank_prefix(" 3:00 x", 7, &r), 0);
	assert_int_equal(r, -1);  /* untouched when there is no prefix */
	assert_int_equal(tputnorm_rank_prefix("[Rank 12] x", 11, &r), 10);
	assert_int_equal(r, 12);
	assert_int_equal(tputnorm_rank_prefix("[Rank 4]: x", 11, &r), 10);
	assert_int_equal(r, 4);
	assert_int_equal(tputnorm_rank_prefix(" 7: iter", 8, &r), 4);
	assert_int_equal(r, 7);
	assert_int_equal(tputnorm_rank_prefix("  11: iter", 10, &r), 6);
	assert_int_equal(r, 11);
	r = -1;
	assert_int_equal(tputnorm_host_rank("\tnode-3:5\tolmo.train:908", 24, &r), 9);
	assert_int_equal(r, 5);
	assert_int_equal(tputnorm_host_rank(" host:0  x", 10, &r), 7);
	assert_int_equal(r, 0);
	r = -1;
	assert_int_equal(tputnorm_host_rank(" step:10 loss", 13, &r), 0);  /* a field, not a host */
	assert_int_equal(tputnorm_host_rank(" node-3:5x", 10, &r), 0);
	assert_int_equal(tputnorm_host_rank(" 10.0.0.1:5 x", 13, &r), 0);  /* a host's name starts with a letter */
	assert_int_equal(r, -1);
}

static void test_timestamps(void **state)
{
	(void)state;
	double t;
	assert_int_equal(tputnorm_timestamp("2024-05-01 12:00:00,123 x", 25, &t), 23);
	near(t, 1714564800.123);
	assert_int_equal(tputnorm_timestamp("[2024-05-01T12:00:00.5Z] x", 26, &t), 23);
	near(t, 1714564800.5);
	assert_int_equal(tputnorm_timestamp("2024-05-01T14:00:00+02:00 x", 27, &t), 25);
	near(t, 1714564800);
	assert_int_equal(tputnorm_timestamp("I0501 12:00:00.123456 1 f.cc:1]", 31, &t), 21);
	near(t, 10411200.123456);  /* glog has no year: 1970-05-01 */
	assert_int_equal(tputnorm_timestamp("05/01/2024 12:00:00 [INFO]", 26, &t), 19);
	near(t, 1714564800);
	assert_int_equal(tputnorm_timestamp("step: 1", 7, &t), 0);
	/* after tags, brackets, spaces, quoting; yearless forms */
	static const struct {
		const char *line;
		double t;
	} found[] = {
		{ "[rank0]:[titan] 2026-05-18 16:04:46,338 - root - INFO - step: 14", 1779120286.338 },
		{ " [2024-04-06 02:59:36] iteration       43/     100 |", 1712372376 },
		{ "[INFO 2020-06-08 05:26:19] 0/2650, SamplesPerSec=13.2", 1591593979 },
		{ "> 2023-03-22 09:30:39 iter 2920: loss 3.9883", 1679477439 },
		{ "[1,0]<stdout>:2020-12-23 23:07:21,094 __main__ : INFO", 1608764841.094 },
		{ "INFO 06-16 10:03:14 [loggers.py:87] Engine 000:", 14378594 },
		{ "[08/30/23 07:07:34] INFO     colossalai - colossalai - INFO:", 1693379254 },
	};
	for (size_t i = 0; i < sizeof found / sizeof found[0]; i++) {
		assert_int_equal(tputnorm_find_timestamp(found[i].line, strlen(found[i].line), &t), 1);
		near(t, found[i].t);
	}
	assert_int_equal(tputnorm_find_timestamp("step 1: 12:00 tps 5", 19, &t), 0);
	assert_int_equal(tputnorm_find_timestamp("v1.2 2024-13-45 x", 17, &t), 0);
}

static void test_ansi_strip(void **state)
{
	(void)state;
	char s[] = "\x1b[1;31mred\x1b[0m plain\x1b[K";
	size_t n = tputnorm_strip_ansi(s, strlen(s));
	assert_int_equal(n, 9);
	assert_memory_equal(s, "red plain", 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_prefixes),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_ansi_strip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
