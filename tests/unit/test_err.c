/* test_err: messages start with the program name; bad lines named up to the limit, then
 * counted; --strict exits 1 at the first; skipped lines only when verbose; stdout checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture.h"
#include "err.h"

static void test_prog_name(void **state)
{
	(void)state;
	err_set_prog("/usr/local/bin/sift-top");
	assert_string_equal(err_prog(), "sift-top");
	err_set_prog("plain");
	assert_string_equal(err_prog(), "plain");
	err_set_prog(NULL);
	assert_string_equal(err_prog(), "sift");
	err_set_prog("sift-test");
}

static void warn_and_exit(void *arg)
{
	(void)arg;
	err_warn("%s: %d", "a", 1);
	err_exit(EXIT_USAGE, "bye %s", "now");
}

static void test_warn_exit(void **state)
{
	(void)state;
	struct captured c;
	capture_run(warn_and_exit, NULL, &c);
	assert_int_equal(c.status, 2);
	assert_string_equal(c.err, "sift-test: a: 1\nsift-test: bye now\n");
	assert_string_equal(c.out, "");
}

static void twelve_bad(void *arg)
{
	struct err_lines lines;
	err_lines_init(&lines);
	lines.verbose = arg != NULL;
	for (unsigned long i = 1; i <= 12; i++)
		err_bad_line(&lines, "in.txt", i * 10, "reason %lu", i);
	err_skip_line(&lines, "in.txt", 200, "blank line");
	err_lines_finish(&lines);
	printf("bad=%lu skipped=%lu\n", lines.bad, lines.skipped);
}

/* Held messages of two chunks read apart, renumbered as the file's: the second chunk's
 * after the first's 100 lines, then replayed in order. */
static void shifted(void *arg)
{
	(void)arg;
	struct err_lines all, held;
	err_lines_init(&all);
	err_lines_init(&held);
	held.keep = 1;
	err_bad_line(&held, "in.txt", 7, "first");
	err_bad_line(&held, "in.txt", 3, "second");
	err_bad_line(&held, "in.txt", 5, "second");
	err_lines_shift(&held, 1, 3, 100);
	err_lines_shift(&held, 2, 9, 1);  /* past nkept: only what is held */
	err_lines_replay(&all, &held);
	err_lines_finish(&all);
}

static void test_lines_shift(void **state)
{
	(void)state;
	struct captured c;
	capture_run(shifted, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "sift-test: in.txt:7: first\n"
				   "sift-test: in.txt:103: second\n"
				   "sift-test: in.txt:106: second\n");
}

static void test_bad_lines_limit(void **state)
{
	(void)state;
	struct captured c;
	capture_run(twelve_bad, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err,
			    "sift-test: in.txt:10: reason 1\n"
			    "sift-test: in.txt:20: reason 2\n"
			    "sift-test: in.txt:30: reason 3\n"
			    "sift-test: in.txt:40: reason 4\n"
			    "sift-test: in.txt:50: reason 5\n"
			    "sift-test: in.txt:60: reason 6\n"
			    "sift-test: in.txt:70: reason 7\n"
			    "sift-test: in.txt:80: reason 8\n"
			    "sift-test: in.txt:90: reason 9\n"
			    "sift-test: in.txt:100: reason 10\n"
			    "sift-test: 2 more bad lines not shown\n");
	assert_string_equal(c.out, "bad=12 skipped=1\n");
}

static void test_bad_lines_verbose(void **state)
{
	(void)state;
	struct captured c;
	capture_run(twelve_bad, "verbose", &c);
	assert_int_equal(c.status, 0);
	/* Every bad line named, the skipped one too, and no count at the end. */
	const char *tail = "sift-test: in.txt:110: reason 11\n"
			   "sift-test: in.txt:120: reason 12\n"
			   "sift-test: in.txt:200: skipped: blank line\n";
	assert_true(c.err_len > strlen(tail));
	assert_string_equal(c.err + c.err_len - strlen(tail), tail);
	assert_true(strstr(c.err, "more bad") == NULL);
	assert_string_equal(c.out, "bad=12 skipped=1\n");
}

static void eleven_bad(void *arg)
{
	(void)arg;
	struct err_lines lines;
	err_lines_init(&lines);
	for (unsigned long i = 1; i <= 11; i++)
		err_bad_line(&lines, "f", i, "r");
	err_lines_finish(&lines);
}

static void test_one_more_bad_line(void **state)
{
	(void)state;
	struct captured c;
	capture_run(eleven_bad, NULL, &c);
	const char *tail = "sift-test: f:10: r\nsift-test: 1 more bad line not shown\n";
	assert_string_equal(c.err + c.err_len - strlen(tail), tail);
}

static void strict_bad(void *arg)
{
	(void)arg;
	struct err_lines lines;
	err_lines_init(&lines);
	lines.strict = 1;
	printf("before\n");
	err_bad_line(&lines, "(stdin)", 3, "negative count");
	printf("not reached\n");
}

static void test_strict(void **state)
{
	(void)state;
	struct captured c;
	capture_run(strict_bad, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-test: (stdin):3: negative count\n");
	assert_string_equal(c.out, "before\n");
}

static void test_init(void **state)
{
	(void)state;
	struct err_lines lines;
	memset(&lines, 0xff, sizeof lines);
	err_lines_init(&lines);
	assert_int_equal(lines.bad, 0);
	assert_int_equal(lines.skipped, 0);
	assert_int_equal(lines.limit, 10);
	assert_int_equal(lines.verbose, 0);
	assert_int_equal(lines.strict, 0);
}

static void write_to_full(void *arg)
{
	(void)arg;
	if (!freopen("/dev/full", "w", stdout))
		_exit(99);
	for (int i = 0; i < 10000; i++)
		printf("line %d\n", i);
	err_close_stdout();
	_exit(0);
}

static void write_small_to_full(void *arg)
{
	(void)arg;
	if (!freopen("/dev/full", "w", stdout))
		_exit(99);
	printf("short\n"); /* still in the buffer: the error comes at the flush */
	err_close_stdout();
	_exit(0);
}

/* A tool's start and end as the tools call them: its name, zeroed counts, stdout buffered
 * in 1 MB (10,000 lines stay unwritten until the end), a full disk named at err_finish. */
static void tool_to_full(void *arg)
{
	(void)arg;
	if (!freopen("/dev/full", "w", stdout))
		_exit(99);
	struct err_lines lines;
	memset(&lines, 0xff, sizeof lines);
	char *outbuf = err_start("/usr/bin/sift-tool", &lines);
	if (!outbuf || lines.bad != 0 || lines.limit != 10)
		_exit(98);
	for (int i = 0; i < 10000; i++)
		printf("line %d\n", i);
	if (ferror(stdout))  /* a 4 KB buffer would have failed a write by now */
		_exit(97);
	err_finish(outbuf);
	_exit(0);
}

static void test_start_finish(void **state)
{
	(void)state;
	struct captured c;
	capture_run(tool_to_full, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-tool: write error: No space left on device\n");
	err_set_prog("sift-test");
}

static void test_close_stdout_full(void **state)
{
	(void)state;
	struct captured c;
	capture_run(write_to_full, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-test: write error: No space left on device\n");
	capture_run(write_small_to_full, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "sift-test: write error: No space left on device\n");
}

static void write_to_closed_pipe(void *arg)
{
	(void)arg;
	int fds[2];
	if (pipe(fds) != 0)
		_exit(99);
	close(fds[0]);
	dup2(fds[1], 1);
	close(fds[1]);
	err_set_prog("sift-test"); /* SIGPIPE back to its default: end quietly */
	for (int i = 0; i < 100000; i++)
		printf("line %d\n", i);
	err_close_stdout();
	_exit(0);
}

static void test_closed_pipe(void **state)
{
	(void)state;
	struct captured c;
	capture_run(write_to_closed_pipe, NULL, &c);
	assert_int_equal(c.status, 128 + SIGPIPE);
	assert_string_equal(c.err, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prog_name),
		cmocka_unit_test(test_start_finish),
		cmocka_unit_test(test_warn_exit),
		cmocka_unit_test(test_bad_lines_limit),
		cmocka_unit_test(test_lines_shift),
		cmocka_unit_test(test_bad_lines_verbose),
		cmocka_unit_test(test_one_more_bad_line),
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_close_stdout_full),
		cmocka_unit_test(test_closed_pipe),
	};
	return cmocka_run_group_tests_name("err", tests, NULL, NULL);
}
