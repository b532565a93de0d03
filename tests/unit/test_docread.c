/* test_docread: documents gathered under a bound; the rate documents record, joined. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "docread.h"

/* 0 is "not said", -1 "said differently": equal rates join, any two others do not. */
static void test_rates_join(void **state)
{
	(void)state;
	assert_true(doc_rate_join(0, 0) == 0);
	assert_true(doc_rate_join(0, 200) == 200);
	assert_true(doc_rate_join(200, 0) == 200);
	assert_true(doc_rate_join(200, 200) == 200);
	assert_true(doc_rate_join(100, 1 / 0.01) == 100);
	assert_true(doc_rate_join(100, 200) == -1);
	assert_true(doc_rate_join(-1, 100) == -1);
	assert_true(doc_rate_join(100, -1) == -1);
	struct doc_stats st = { 0 };
	doc_note_rate(&st, 0);
	doc_note_rate(&st, NAN);
	doc_note_rate(&st, -5);
	assert_true(st.rate == 0);
	doc_note_rate(&st, 200);
	doc_note_rate(&st, 200);
	assert_true(st.rate == 200);
	doc_note_rate(&st, 100);
	assert_true(st.rate == -1);
	doc_note_rate(&st, 100);
	assert_true(st.rate == -1);
}

static void test_lines_gathered(void **state)
{
	(void)state;
	struct doc_buf d = { 0 };
	struct in_line a = { "{\"a\":", 5, "f", 3, 0, NULL }, b = { "1}", 2, "f", 4, 0, NULL };
	doc_add_line(&d, &a);
	doc_add_line(&d, &b);
	assert_string_equal(d.text, "{\"a\":\n1}\n");
	assert_int_equal(d.lineno, 3);
	assert_int_equal(doc_line_of(&d, 0), 3);
	assert_int_equal(doc_line_of(&d, 7), 4);
	doc_reset(&d);
	assert_int_equal(d.len, 0);
	doc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates_join),
		cmocka_unit_test(test_lines_gathered),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
