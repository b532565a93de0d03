/* test_chrome: chrometrace B/E events into stacks weighted by open time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "docstacks.h"

#include "chrome.h"

static void test_events(void **state)
{
	(void)state;
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	/* Two threads interleaved; 10 ms at 100 Hz is one sample. */
	struct doc_buf d = stacks_doc(
		"[{\"args\":{\"filename\":\"a.py\",\"line\":1},\"cat\":\"py-spy\",\"name\":\"main\",\"ph\":\"B\",\"pid\":1,\"tid\":255,\"ts\":0},"
		"{\"args\":{\"filename\":\"\",\"line\":0},\"name\":\"thread (9): T\",\"ph\":\"B\",\"pid\":1,\"tid\":7,\"ts\":5000},"
		"{\"args\":{\"filename\":\"a.py\",\"line\":null},\"name\":\"f\",\"ph\":\"B\",\"pid\":1,\"tid\":255,\"ts\":20000},"
		"{\"name\":\"meta\",\"ph\":\"M\",\"pid\":1,\"tid\":255},"
		"{\"args\":{\"filename\":\"a.py\",\"line\":null},\"name\":\"f\",\"ph\":\"E\",\"pid\":1,\"tid\":255,\"ts\":50000},"
		"{\"args\":{\"filename\":\"a.py\",\"line\":1},\"name\":\"main\",\"ph\":\"E\",\"pid\":1,\"tid\":255,\"ts\":60000},"
		"{\"name\":\"thread (9): T\",\"ph\":\"E\",\"pid\":1,\"tid\":7,\"ts\":25000},"
		"{\"name\":\"x\",\"ph\":\"E\",\"pid\":1,\"tid\":7,\"ts\":26000}]");
	chrome_read(&d, 100, &errs, stacks_take, NULL, &o, &st);
	assert_string_equal(o.text, "thread (0xFF);main (a.py:1) 2\n"
				    "thread (0xFF);main (a.py:1);f (a.py) 3\n"
				    "thread (0xFF);main (a.py:1) 1\n"
				    "thread (9): T 2\n");
	assert_int_equal(st.bad, 1);  /* the E with nothing open */
	assert_int_equal(errs.bad, 1);

	/* Timed: each thread's time from its own first event. */
	o = (struct stacks_out){ "", 0 };
	chrome_read(&d, 100, &errs, stacks_take, stacks_time, &o, &st);
	assert_string_equal(o.text, "@0+0.02 thread (0xFF);main (a.py:1) 2\n"
				    "@0.02+0.03 thread (0xFF);main (a.py:1);f (a.py) 3\n"
				    "@0.05+0.01 thread (0xFF);main (a.py:1) 1\n"
				    "@0+0.02 thread (9): T 2\n");
}

static void test_bad(void **state)
{
	(void)state;
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct doc_buf d = stacks_doc("{\"traceEvents\": 3}");
	chrome_read(&d, 100, &errs, stacks_take, NULL, &o, &st);
	d = stacks_doc("[\n{\"ph\": \"B\",\n");
	chrome_read(&d, 100, &errs, stacks_take, NULL, &o, &st);
	assert_string_equal(o.text, "");
	assert_int_equal(st.bad, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
