/* test_chrome: chrometrace B/E events into stacks weighted by open time, read as a stream:
 * any cut of the text reads the same, JSON is checked as jansson checks it, and a document
 * that breaks partway or whose input fails gives no stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdlib.h>

#include "capture.h"
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
	/* Untimed, at the end: a stack as many times as it was held, its samples summed in the
	 * last (main: 2 then 1 samples). */
	assert_string_equal(o.text, "thread (0xFF);main (a.py:1) 1\n"
				    "thread (0xFF);main (a.py:1) 2\n"
				    "thread (0xFF);main (a.py:1);f (a.py) 3\n"
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

/* A document given `step` bytes a read; then CHROME_READ_FAILED when failed. */
struct cut { const char *text; size_t len, step; int failed; };

static size_t cut_read(void *ctx, char *buf, size_t cap)
{
	struct cut *c = ctx;
	size_t n = c->len < c->step ? c->len : c->step;
	if (n > cap)
		n = cap;
	if (n == 0)
		return c->failed ? CHROME_READ_FAILED : 0;
	memcpy(buf, c->text, n);
	c->text += n;
	c->len -= n;
	return n;
}

static const char streamed[] =
	"{\"otherData\": {\"x\": [1, {\"y\": null}]}, \"traceEvents\": [\n"
	"{\"name\": \"thread (1): \\u00e9\\ud83d\\ude00\", \"ph\": \"B\", \"pid\": 7, \"tid\": 1, \"ts\": 0},\n"
	"{\"ph\": \"E\", \"name\": \"caf\u00e9 \\\"q\\\"\", \"ph\": \"B\", \"ts\": 1e4, \"pid\": 7, \"tid\": 1,\n"
	" \"args\": {\"filename\": \"a.py\", \"line\": 3}, \"args\": {\"filename\": \"b\\/c.py\", \"line\": 4.0}},\n"
	"{\"ph\": \"E\", \"ts\": 30000.5, \"pid\": 7.5, \"tid\": 1}, [\"not an event\"], 3,\n"
	"{\"ph\": \"B\", \"ts\": 30000.5, \"pid\": 7, \"tid\": 1, \"name\": 5, \"args\": 1}]}\n";

/* Any cut of the text reads the same; duplicate keys keep their last value (as jansson):
 * the second event is a B, its args the second ones (a real line is no line); escapes and
 * UTF-8 decoded, split across reads or not. */
static void test_stream(void **state)
{
	(void)state;
	for (size_t step = 1; step <= sizeof streamed; step = step < 8 ? step + 1 : step * 3) {
		struct stacks_out o = { "", 0 };
		struct doc_stats st = { 0 };
		struct err_lines errs;
		err_lines_init(&errs);
		struct cut c = { streamed, strlen(streamed), step, 0 };
		chrome_stream(cut_read, &c, "t", 1, 100, &errs, stacks_take, NULL, &o, &st);
		/* pid 7.5 is no integer: pid 0, another thread, whose E closes nothing (bad); the
		 * last B (name 5: "?") is still open at the end */
		assert_string_equal(o.text, "thread (1): \xc3\xa9\xf0\x9f\x98\x80 1\n"
					    "thread (1): \xc3\xa9\xf0\x9f\x98\x80;caf\xc3\xa9 \"q\" (b/c.py) 2\n");
		assert_int_equal(st.bad, 1);
		assert_int_equal(st.stacks, 2);
	}
}

static void broken(void *arg)
{
	struct stacks_out o = { "", 0 };
	struct doc_stats st = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct cut *c = arg;
	chrome_stream(cut_read, c, "t", 10, 100, &errs, stacks_take, NULL, &o, &st);
	printf("%s|bad %lu\n", o.text, st.bad);
}

/* A document that breaks partway gives no stack (no table from half a file): its fault
 * named at its line; one whose input failed (said by the input) gives nothing, silently. */
static void test_broken(void **state)
{
	(void)state;
	char text[1024];
	size_t n = (size_t)snprintf(text, sizeof text, "%.*s{\"ph\": }]\n", (int)(strrchr(streamed, '{') - streamed),
				    streamed);
	struct cut c = { text, n, 64, 0 };
	struct captured cap;
	capture_run(broken, &c, &cap);
	assert_string_equal(cap.out, "|bad 1\n");
	assert_string_equal(cap.err, "sift: t:15: bad chrometrace JSON: invalid token (byte 384)\n");
	c = (struct cut){ streamed, strlen(streamed) - 20, 64, 1 };
	capture_run(broken, &c, &cap);
	assert_string_equal(cap.out, "|bad 0\n");
	assert_string_equal(cap.err, "");
}

/* JSON is checked as jansson checked it: each value in an events array is taken or
 * refused by both alike. */
static void test_like_jansson(void **state)
{
	(void)state;
	static const char *const values[] = {
		"1", "1,", "01", "-", "-0", "1.", ".5", "1e", "1e+5", "1E-2", "-1.5e3", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1e400", "1e-400",
		"\"\\u0000\"", "\"\\ud800\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "\"\\ud83d\\ude00\"",
		"\"\\x\"", "\"\\u12g4\"", "\"a\tb\"", "\"\x7f\"", "\"\xc3\xa9\"", "\"\xc3\"", "\"\xc3(\"",
		"\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"", "\"\xe0\x80\xaf\"",
		"\"\xf0\x9f\x98\x80\"", "true", "false", "null", "True", "nul", "nullx", "+1", "[1,]", "[,1]",
		"{\"a\" 1}", "{\"a\":1,}", "{\"a\":1 \"b\":2}", "{1:2}", "{}", "[]", "[[]]", "{\"ph\":\"B\"}{}",
		"\"unterminated", "{\"a\":", "/* c */ 1", "'s'", "\"\\u00e9\"", "\"a\\/b\"",
		"{\"ph\":\"B\",\"ts\":1,\"args\":{\"line\":1e999}}",
	};
	for (size_t i = 0; i < sizeof values / sizeof values[0] + 4; i++) {
		char *text;
		size_t k = sizeof values / sizeof values[0];
		if (i < k) {
			text = malloc(strlen(values[i]) + 3);
			sprintf(text, "[%s]", values[i]);
		} else {  /* nesting: a value at depth 2048 is taken, one deeper is not */
			size_t depth = 2045 + (i - k);
			text = malloc(2 * depth + 4);
			memset(text, '[', depth + 1);
			text[depth + 1] = '1';
			memset(text + depth + 2, ']', depth + 1);
			text[2 * depth + 3] = '\0';
		}
		json_error_t error;
		json_t *tree = json_loads(text, 0, &error);
		struct stacks_out o = { "", 0 };
		struct doc_stats st = { 0 };
		struct err_lines errs;
		err_lines_init(&errs);
		errs.limit = 0;
		struct cut c = { text, strlen(text), 5, 0 };
		chrome_stream(cut_read, &c, "t", 1, 100, &errs, stacks_take, NULL, &o, &st);
		if ((tree != NULL) != (st.bad == 0))
			fail_msg("%s: jansson %s, chrome %s", i < k ? values[i] : "(nesting)", tree ? "takes" : "refuses",
				 st.bad ? "refuses" : "takes");
		json_decref(tree);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_stream),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_like_jansson),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
