/* test_austin: austin collapsed lines into py-spy frames. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
