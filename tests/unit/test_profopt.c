/* test_profopt: the options every profile tool shares: each key sets its one field, the last
 * regex given wins, --from takes a format or seconds, and bad values are usage errors
 * (exit 2) naming the option. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>

#include "capture.h"
#include "err.h"
#include "profopt.h"
#include "transform.h"

static const struct cli_option rows[] = {
	PROFOPT_FILTER_ROWS, PROFOPT_REWRITE_ROWS, PROFOPT_INPUT_ROWS, PROFOPT_TO_ROW,
	PROFOPT_TRANSFORM_ROWS, CLI_ROW_END,
};
static const struct cli_spec spec = { "[OPTION]... [FILE]...", "test", rows, NULL };

/* key's row given value as on a command line: read and checked by the table, then handled. */
static int handle(int key, const char *value, struct load_opts *o, struct err_lines *errs)
{
	const char *name = NULL;
	for (const struct cli_option *r = rows; r->long_name; r++)
		if (r->key == key)
			name = r->long_name;
	struct cli_value v = { value, 0, 0, 0, NULL, value != NULL };
	if (name) {
		char opt[64];
		snprintf(opt, sizeof opt, "--%s", name);
		char *argv[] = { "test_profopt", opt, (char *)value, NULL };
		int first;
		optind = 0;
		assert_int_equal(cli_next(&spec, value ? 3 : 2, argv, &v, &first), key);
	}
	return profopt_handle(&spec, key, &v, o, errs);
}

static int matches(rx *re, const char *s)
{
	char msg[128];
	return rx_match(re, s, strlen(s), msg, sizeof msg);
}

static void test_flags(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	const int keys[] = { PROFOPT_NO_LINES, PROFOPT_NO_THREADS, PROFOPT_NO_PROCESS, PROFOPT_COLLAPSE,
			     PROFOPT_LIB_BASENAME, CLI_KEY_STRICT, PROFOPT_IDLE, PROFOPT_STATUS,
			     PROFOPT_ASSUME_CPU, CLI_KEY_VERBOSE, PROFOPT_NO_TIDS, PROFOPT_NO_PIDS,
			     PROFOPT_COLLAPSE_RECURSION, PROFOPT_HIDE_WRAPPERS };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assert_int_equal(handle(keys[i], NULL, &o, &errs), 1);
	assert_int_equal(o.no_lines + o.no_threads + o.no_process + o.collapse_addrs + o.lib_basename, 5);
	assert_int_equal(o.idle + o.status + o.assume_cpu + o.no_tids + o.no_pids, 5);
	assert_int_equal(o.xform.collapse_recursion + o.xform.hide_wrappers, 2);
	assert_int_equal(errs.strict, 1);
	assert_int_equal(errs.verbose, 1);
	/* Keys of the tool's own rows are not ours, and change nothing. */
	struct load_opts before = o;
	assert_int_equal(handle('x', "v", &o, &errs), 0);
	assert_int_equal(handle(0x2000, "v", &o, &errs), 0);
	assert_memory_equal(&before, &o, sizeof o);
}

static void test_regexes(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	assert_int_equal(handle(PROFOPT_FOCUS, "^a", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_FOCUS, "^b", &o, &errs), 1);  /* the last wins */
	assert_int_equal(handle(PROFOPT_IGNORE, "x$", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_THREAD, "loader", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_HIDE, "wrap", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_SHOW_FROM, "^main", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_PRUNE_FROM, "cuda", &o, &errs), 1);
	assert_int_equal(matches(o.focus, "bc"), 1);
	assert_int_equal(matches(o.focus, "ab"), 0);
	assert_int_equal(matches(o.ignore, "ax"), 1);
	assert_int_equal(matches(o.thread, "thread (3): loader"), 1);
	assert_int_equal(matches(o.xform.hide, "a wrapper"), 1);
	assert_int_equal(matches(o.xform.show_from, "main (a.py:1)"), 1);
	assert_int_equal(matches(o.xform.prune_from, "cudaLaunch"), 1);
	profopt_free(&o);
	assert_null(o.focus);
	assert_null(o.ignore);
	assert_null(o.thread);
	assert_null(o.xform.hide);
	assert_null(o.xform.show_from);
	assert_null(o.xform.prune_from);
}

static void test_from_to_rate_label(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	assert_int_equal(handle(PROFOPT_FROM, "chrometrace", &o, &errs), 1);
	assert_int_equal(o.from, LOAD_CHROME);
	assert_int_equal(o.win.has_from, 0);
	assert_int_equal(handle(PROFOPT_INPUT_FORMAT, "austin", &o, &errs), 1);
	assert_int_equal(o.from, LOAD_AUSTIN);
	assert_int_equal(handle(PROFOPT_FROM, "2.5", &o, &errs), 1);  /* seconds */
	assert_int_equal(o.from, LOAD_AUSTIN);
	assert_int_equal(o.win.has_from, 1);
	assert_true(o.win.from == 2.5);
	assert_int_equal(handle(PROFOPT_TO, "4", &o, &errs), 1);
	assert_int_equal(o.win.has_to, 1);
	assert_true(o.win.to == 4);
	assert_int_equal(handle(PROFOPT_RATE, "250", &o, &errs), 1);
	assert_true(o.rate == 250);
	assert_int_equal(handle(PROFOPT_LABEL, "base=a.txt", &o, &errs), 1);
	assert_int_equal(handle(PROFOPT_LABEL, "new=b=c.txt", &o, &errs), 1);
	assert_int_equal(o.nlabels, 2);
	assert_string_equal(o.labels[0], "base=a.txt");
	assert_string_equal(o.labels[1], "new=b=c.txt");
	profopt_free(&o);
	assert_null(o.labels);
	assert_int_equal(o.nlabels, 0);
}

/* Each bad value in a child: its status and exact stderr. */
struct bad { int key; const char *value, *value2; };

static void handle_bad(void *arg)
{
	const struct bad *b = arg;
	struct load_opts o = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	handle(b->key, b->value, &o, &errs);
	if (b->value2)  /* --from SEC then --to SEC */
		handle(PROFOPT_TO, b->value2, &o, &errs);
	printf("accepted\n");
}

#define USAGE "Usage: test_profopt [OPTION]... [FILE]...\nTry 'test_profopt --help' for more information.\n"

static void check_bad(int key, const char *value, const char *value2, const char *err)
{
	struct bad b = { key, value, value2 };
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(handle_bad, &b, c);
	assert_int_equal(c->status, 2);
	assert_string_equal(c->out, "");
	assert_string_equal(c->err, err);
	free(c);
}

static void test_bad_values(void **state)
{
	(void)state;
	check_bad(PROFOPT_FOCUS, "a(", NULL,
		  "test_profopt: --focus 'a(': pattern error at offset 2: missing closing parenthesis\n" USAGE);
	check_bad(PROFOPT_HIDE, "[z-a]", NULL,
		  "test_profopt: --hide '[z-a]': pattern error at offset 3: range out of order in character class\n" USAGE);
	check_bad(PROFOPT_FROM, "pdf", NULL,
		  "test_profopt: invalid value for --from: 'pdf' (seconds, 0 or more, or a format: auto, raw, "
		  "dump, json, speedscope, chrometrace, svg, austin)\n" USAGE);
	check_bad(PROFOPT_FROM, "-1", NULL,
		  "test_profopt: invalid value for --from: '-1' (seconds, 0 or more, or a format: auto, raw, "
		  "dump, json, speedscope, chrometrace, svg, austin)\n" USAGE);
	check_bad(PROFOPT_FROM, "5", "5", "test_profopt: --from 5 must come before --to 5 (seconds)\n" USAGE);
	check_bad(PROFOPT_TO, "soon", NULL, "test_profopt: invalid value for --to: 'soon' (seconds, 0 or more)\n" USAGE);
	check_bad(PROFOPT_RATE, "0", NULL,
		  "test_profopt: --rate must be above zero (samples per second): '0'\n" USAGE);
	check_bad(PROFOPT_LABEL, "=a.txt", NULL, "test_profopt: invalid value for --label: '=a.txt' (NAME=FILE)\n" USAGE);
	check_bad(PROFOPT_LABEL, "base=", NULL, "test_profopt: invalid value for --label: 'base=' (NAME=FILE)\n" USAGE);
	check_bad(PROFOPT_LABEL, "base", NULL, "test_profopt: invalid value for --label: 'base' (NAME=FILE)\n" USAGE);
}

/* profopt_take: the rules' options, then ours; a key of neither is a usage error. */
static void take_unknown(void *arg)
{
	(void)arg;
	struct load_opts o = { 0 };
	struct rules_opts r = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct cli_value v = { NULL, 0, 0, 0, NULL, 0 };
	profopt_take(&spec, 'x', &v, &o, &r, &errs);
	printf("accepted\n");
}

static void test_take(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	struct rules_opts r = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct cli_value v = { NULL, 0, 0, 0, NULL, 0 };
	profopt_take(&spec, RULES_OPT_INCLUSIVE, &v, &o, &r, &errs);
	profopt_take(&spec, PROFOPT_NO_LINES, &v, &o, &r, &errs);
	assert_int_equal(r.inclusive, 1);
	assert_int_equal(o.no_lines, 1);
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(take_unknown, NULL, c);
	assert_int_equal(c->status, 2);
	assert_string_equal(c->out, "");
	assert_string_equal(c->err, USAGE);
	free(c);
}

int main(void)
{
	err_set_prog("test_profopt");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_regexes),
		cmocka_unit_test(test_from_to_rate_label),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_take),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
