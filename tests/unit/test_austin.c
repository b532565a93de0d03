/* test_austin: austin collapsed lines into py-spy frames; microseconds into samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "docstacks.h"

#include "austin.h"

static const char *one(const char *line, enum austin_result want, uint64_t want_count)
{
	static struct stacks_out o;
	static struct doc_stack st;
	uint64_t count = 0;
	const char *reason = NULL;
	memset(&o, 0, sizeof o);
	enum austin_result r = austin_line(line, strlen(line), &st, &count, &reason);
	assert_int_equal(r, want);
	if (r == AUSTIN_OK) {
		assert_int_equal(count, want_count);
		stacks_take(&o, "t", 1, doc_stack_frames(&st), st.n, count);
	}
	return r == AUSTIN_BAD ? reason : o.text;
}

static void test_lines(void **state)
{
	(void)state;
	assert_string_equal(one("P12;T0:34;/x/a.py:<module>:1;C:\\b.py:run:22 7", AUSTIN_OK, 7),
			    "process 12:\"\";thread (34);<module> (/x/a.py:1);run (C:\\b.py:22) 7\n");
	assert_string_equal(one("P12;T34;<frozen importlib._bootstrap>:_load:680 3", AUSTIN_OK, 3),
			    "process 12:\"\";thread (34);_load (<frozen importlib._bootstrap>:680) 3\n");
	assert_string_equal(one("P12;T34;a.py:f:1;libc.so.6 100,0,-64", AUSTIN_OK, 100),
			    "process 12:\"\";thread (34);f (a.py:1);libc.so.6 100\n");
	assert_string_equal(one("P12;T34 5", AUSTIN_OK, 5), "process 12:\"\";thread (34) 5\n");
	assert_string_equal(one("# austin: 3.6.0", AUSTIN_SKIP, 0), "");
	assert_string_equal(one("", AUSTIN_SKIP, 0), "");
	assert_string_equal(one("P12;T34;a.py:f:1 x", AUSTIN_BAD, 0), "sample count is not a number");
	assert_string_equal(one("P12;T34;a.py:f:1", AUSTIN_BAD, 0), "no sample count");
	assert_string_equal(one("main (a.py:1) 3", AUSTIN_BAD, 0), "not an austin sample (P<pid>;T<tid>;... N)");
	assert_string_equal(one("P12;T34;;a.py:f:1 2", AUSTIN_BAD, 0), "empty frame");
	assert_true(austin_is_sample("P1;T2", 5));
	assert_false(austin_is_sample("P;T2;x 1", 8));
}

static void meta(struct austin_meta *m, const char *line)
{
	austin_meta_line(m, line, strlen(line));
}

/* Wall and cpu time are microseconds: samples at the stated interval, the rounding carried
 * so a file's samples add up; memory mode and files that state no mode keep the metric. */
static void test_microseconds_to_samples(void **state)
{
	(void)state;
	struct austin_meta m;
	austin_meta_reset(&m);
	assert_int_equal(austin_samples(&m, 12345, 100), 12345);
	assert_true(austin_rate(&m) == 0);
	meta(&m, "# austin: 3.6.0");
	meta(&m, "# interval: 10000");
	meta(&m, "# mode: wall");
	assert_true(austin_rate(&m) == 100);
	assert_int_equal(austin_samples(&m, 725583, 100), 73);  /* 72.5583 */
	assert_int_equal(austin_samples(&m, 4000, 100), 0);     /* 0.4 - 0.4417 carried */
	assert_int_equal(austin_samples(&m, 15000, 100), 1);    /* 1.5 - 0.0417 */
	assert_int_equal(austin_samples(&m, 5000, 100), 1);     /* 0.5 + 0.4583 */
	meta(&m, "# mode: memory");
	assert_int_equal(austin_samples(&m, 4096, 100), 4096);
	assert_true(austin_rate(&m) == 0);
	/* cpu mode, no interval stated: 1e6/rate microseconds a sample */
	austin_meta_reset(&m);
	meta(&m, "# mode: cpu ");
	assert_int_equal(austin_samples(&m, 50000, 200), 10);
	assert_true(austin_rate(&m) == 0);
	meta(&m, "# interval: 1x0");  /* not a number: not taken */
	assert_true(m.interval == 0);
	meta(&m, "# mode: full");
	meta(&m, "# interval: 100");
	assert_int_equal(austin_samples(&m, 250, 100), 3);     /* 2.5 rounds away from 0 */
	assert_true(austin_rate(&m) == 10000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_microseconds_to_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
