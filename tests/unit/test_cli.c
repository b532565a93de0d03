/* test_cli: value parsers, option parsing through the table (typed rows, ranges, choices,
 * FILE... lists), --help text wrapped to 80 columns, usage errors (exit 2, in a child). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <math.h>

#include "capture.h"
#include "cli.h"
#include "err.h"

static const char *const formats[] = { "text", "tsv", NULL };
static const struct cli_option options[] = {
	CLI_ROW_STR("top", 'n', "N", "show N rows"),
	CLI_ROW_STR("format", 0x1001, "FMT", "text or tsv"),
	CLI_ROW_STR("a-very-long-option-name", 0x1002, "VALUE", "wraps to the next line"),
	CLI_ROW_FLAG("strict", 0x1003, "bad lines are fatal"),
	CLI_ROW_END,
};
static const struct cli_spec spec = { "[OPTION]... [FILE]...", "Do a thing.", options, "Exit status: 0.\n" };

/* Rows that say what their values are. */
static const struct cli_option typed[] = {
	CLI_ROW_JOBS,
	CLI_ROW_UINT("top", 'n', "N", "show N rows"),
	CLI_ROW_CHOICE("format", 'f', "FMT", formats, "text (default) or tsv"),
	CLI_ROW_REAL_RANGE("min-effect", 0x1001, "PCT", CLI_MIN | CLI_BELOW_MAX, 0, 100,
			   "a percentage, 0 to below 100", "a change within PCT% is none"),
	CLI_ROW_POSITIVE("rate", 0x1002, "HZ", "samples per second", "samples per second"),
	CLI_ROW_POSITIVE("seconds", 0x1003, "S", NULL, "duration"),
	CLI_ROW_FILES("before", 0x1004, "FILE...", "the before files: every file up to the next option"),
	CLI_ROW_REAL_RANGE("per-work", 0x1005, "B A", CLI_TWO | CLI_ABOVE_MIN, 0, 0, NULL, "units of work"),
	CLI_ROW_STRICT,
	CLI_ROW_VERBOSE,
	CLI_ROW_END,
};
static const struct cli_spec typed_spec = { "[OPTION]... [FILE]...", "Do a typed thing.", typed, NULL };

static void test_values(void **state)
{
	(void)state;
	assert_int_equal(cli_ulong(&spec, "--top", "0"), 0);
	assert_int_equal(cli_ulong(&spec, "--top", "20"), 20);
	assert_true(cli_ulong(&spec, "--top", "18446744073709551615") == UINT64_MAX);
	assert_true(cli_double(&spec, "--x", "2.5") == 2.5);
	assert_true(cli_double(&spec, "--x", "-1e3") == -1000.0);
	const char *names[] = { "self", "total", NULL };
	assert_int_equal(cli_choice(&spec, "--sort", "self", names), 0);
	assert_int_equal(cli_choice(&spec, "--sort", "total", names), 1);
}

struct bad { int kind; const char *value; };

static void bad_value(void *arg)
{
	const struct bad *b = arg;
	err_set_prog("sift-x");
	const char *names[] = { "self", "total", NULL };
	if (b->kind == 0)
		cli_ulong(&spec, "--top", b->value);
	else if (b->kind == 1)
		cli_double(&spec, "--rate", b->value);
	else
		cli_choice(&spec, "--sort", b->value, names);
	printf("accepted\n");
}

static void expect_bad(int kind, const char *value, const char *first_line)
{
	struct bad b = { kind, value };
	struct captured c;
	capture_run(bad_value, &b, &c);
	char want[512];
	snprintf(want, sizeof want, "%s\nUsage: sift-x [OPTION]... [FILE]...\n"
		 "Try 'sift-x --help' for more information.\n", first_line);
	if (c.status != 2 || strcmp(c.err, want) != 0 || c.out_len != 0)
		fail_msg("value '%s': status %d, stderr '%s', stdout '%s'", value ? value : "(null)",
			 c.status, c.err, c.out);
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_bad(0, "-1", "sift-x: invalid value for --top: '-1'");
	expect_bad(0, "+1", "sift-x: invalid value for --top: '+1'");
	expect_bad(0, "", "sift-x: invalid value for --top: ''");
	expect_bad(0, "12x", "sift-x: invalid value for --top: '12x'");
	expect_bad(0, "0x10", "sift-x: invalid value for --top: '0x10'");
	expect_bad(0, "18446744073709551616", "sift-x: invalid value for --top: '18446744073709551616'");
	expect_bad(0, NULL, "sift-x: invalid value for --top: ''");
	expect_bad(1, "nan", "sift-x: invalid value for --rate: 'nan'");
	expect_bad(1, "inf", "sift-x: invalid value for --rate: 'inf'");
	expect_bad(1, "1e999", "sift-x: invalid value for --rate: '1e999'");
	expect_bad(1, "1.5s", "sift-x: invalid value for --rate: '1.5s'");
	expect_bad(1, "", "sift-x: invalid value for --rate: ''");
	expect_bad(2, "Self", "sift-x: invalid value for --sort: 'Self' (one of: self, total)");
}

/* The help of the spec arg, as sift-x. */
static void help(void *arg)
{
	err_set_prog("sift-x");
	cli_help(arg, stdout);
}

static void test_help_text(void **state)
{
	(void)state;
	struct captured c;
	capture_run(help, (void *)&spec, &c);
	assert_string_equal(c.out,
		"Usage: sift-x [OPTION]... [FILE]...\n"
		"Do a thing.\n"
		"\n"
		"Options:\n"
		"  -n, --top N               show N rows\n"
		"      --format FMT          text or tsv\n"
		"      --a-very-long-option-name VALUE\n"
		"                            wraps to the next line\n"
		"      --strict              bad lines are fatal\n"
		"  -h, --help                show this help and exit\n"
		"      --version             show the version and exit\n"
		"\n"
		"Exit status: 0.\n");
}

struct args { const struct cli_spec *spec; int argc; char *argv[12]; };

/* Child: print each key and value as its row reads it, then the operands. */
static void parse(void *arg)
{
	struct args *a = arg;
	err_set_prog("sift-x");
	optind = 0;
	struct cli_value v;
	int key, first;
	while ((key = cli_next(a->spec, a->argc, a->argv, &v, &first)) != -1) {
		printf("%#x=%s", (unsigned)key, v.text ? v.text : "-");
		int typed_row = a->spec == &typed_spec;
		if (typed_row && (key == 'j' || key == 'n'))
			printf(" u=%llu", v.u);
		if (typed_row && key == 'f')
			printf(" choice=%d", v.choice);
		if (typed_row && (key == 0x1001 || key == 0x1002 || key == 0x1005))
			printf(" d=%g", v.d);
		for (size_t i = 1; i < v.n; i++)
			printf(" +%s", v.list[i]);
		printf("\n");
	}
	printf("first=%d", first);
	for (int i = first; i < a->argc; i++)
		printf(" %s", a->argv[i]);
	printf("\n");
}

static void run_spec(struct captured *c, const struct cli_spec *sp, int argc, va_list ap)
{
	static struct args a;
	a.spec = sp;
	a.argc = argc;
	for (int i = 0; i < argc; i++)
		a.argv[i] = va_arg(ap, char *);
	a.argv[argc] = NULL;
	capture_run(parse, &a, c);
}

static void run(struct captured *c, int argc, ...)
{
	va_list ap;
	va_start(ap, argc);
	run_spec(c, &spec, argc, ap);
	va_end(ap);
}

static void run_typed(struct captured *c, int argc, ...)
{
	va_list ap;
	va_start(ap, argc);
	run_spec(c, &typed_spec, argc, ap);
	va_end(ap);
}

static void test_parse(void **state)
{
	(void)state;
	struct captured c;
	run(&c, 7, "sift-x", "-n", "5", "--format=tsv", "file", "--strict", "--top=7");
	assert_int_equal(c.status, 0);
	/* GNU getopt moves operands to the end. */
	assert_string_equal(c.out, "0x6e=5\n0x1001=tsv\n0x1003=-\n0x6e=7\nfirst=6 file\n");
	run(&c, 4, "sift-x", "--", "--strict", "-");
	assert_string_equal(c.out, "first=2 --strict -\n");
	run(&c, 3, "sift-x", "--for", "md"); /* unique abbreviations work */
	assert_string_equal(c.out, "0x1001=md\nfirst=3\n");
}

static void test_parse_errors(void **state)
{
	(void)state;
	struct captured c;
	const char *usage = "Usage: sift-x [OPTION]... [FILE]...\nTry 'sift-x --help' for more information.\n";
	char want[512];
	run(&c, 2, "sift-x", "--bogus");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: unrecognized option '--bogus'\n%s", usage);
	assert_string_equal(c.err, want);
	run(&c, 2, "sift-x", "-q");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: invalid option -- 'q'\n%s", usage);
	assert_string_equal(c.err, want);
	run(&c, 2, "sift-x", "-n");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: option requires an argument -- 'n'\n%s", usage);
	assert_string_equal(c.err, want);
	run(&c, 2, "sift-x", "--top");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: option '--top' requires an argument\n%s", usage);
	assert_string_equal(c.err, want);
	run(&c, 2, "sift-x", "--format");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: option '--format' requires an argument\n%s", usage);
	assert_string_equal(c.err, want);
	run(&c, 2, "sift-x", "--strict=1");
	assert_int_equal(c.status, 2);
	snprintf(want, sizeof want, "sift-x: unrecognized option '--strict=1'\n%s", usage);
	assert_string_equal(c.err, want);
	assert_string_equal(c.out, "");
}

/* Values read as their rows say; a FILE... row takes every argument up to the next option. */
static void test_typed(void **state)
{
	(void)state;
	struct captured c;
	run_typed(&c, 9, "sift-x", "-j", "64", "--top=0", "-f", "tsv", "--min-effect", "0", "--rate=2.5");
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "0x6a=64 u=64\n0x6e=0 u=0\n0x66=tsv choice=1\n0x1001=0 d=0\n"
			    "0x1002=2.5 d=2.5\nfirst=9\n");
	run_typed(&c, 11, "sift-x", "a", "--before", "b", "-", "c", "-v", "d", "--before=e", "f", "--strict");
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "0x1004=b +- +c\n0x76=-\n0x1004=e +f\n0xf01=-\nfirst=9 a d\n");
	run_typed(&c, 6, "sift-x", "--per-work", "1000", "2e3", "x", "-v");
	assert_string_equal(c.out, "0x1005=1000 d=1000 +2e3\n0x76=-\nfirst=5 x\n");
	run_typed(&c, 4, "sift-x", "--before", "--", "a");  /* "--" ends the options, not a file */
	assert_int_equal(c.status, 2);
	assert_memory_equal(c.err, "sift-x: --before needs at least one file\n", 41);
}

static void expect_typed_error(const char *option, const char *value, const char *first_line)
{
	struct captured c;
	run_typed(&c, 3, "sift-x", option, value);
	char want[512];
	snprintf(want, sizeof want, "%s\nUsage: sift-x [OPTION]... [FILE]...\n"
		 "Try 'sift-x --help' for more information.\n", first_line);
	if (c.status != 2 || strcmp(c.err, want) != 0 || c.out_len != 0)
		fail_msg("%s %s: status %d, stderr '%s', stdout '%s'", option, value, c.status, c.err, c.out);
}

static void test_typed_errors(void **state)
{
	(void)state;
	expect_typed_error("-j", "0", "sift-x: invalid value for --jobs: '0' (1 to 64)");
	expect_typed_error("--jobs", "65", "sift-x: invalid value for --jobs: '65' (1 to 64)");
	expect_typed_error("-j", "x", "sift-x: invalid value for --jobs: 'x'");
	expect_typed_error("-n", "-1", "sift-x: invalid value for --top: '-1'");
	expect_typed_error("-f", "xml", "sift-x: invalid value for --format: 'xml' (one of: text, tsv)");
	expect_typed_error("--min-effect", "100",
			   "sift-x: invalid value for --min-effect: '100' (a percentage, 0 to below 100)");
	expect_typed_error("--min-effect", "-0.5",
			   "sift-x: invalid value for --min-effect: '-0.5' (a percentage, 0 to below 100)");
	expect_typed_error("--rate", "0", "sift-x: --rate must be above zero (samples per second): '0'");
	expect_typed_error("--rate", "nan", "sift-x: invalid value for --rate: 'nan'");
	expect_typed_error("--seconds", "-3", "sift-x: --seconds must be above zero: '-3'");
	expect_typed_error("--per-work", "10", "sift-x: --per-work needs two values: B A");
	struct captured c;
	run_typed(&c, 4, "sift-x", "--per-work", "10", "a.txt");
	assert_int_equal(c.status, 2);
	assert_memory_equal(c.err, "sift-x: invalid value for --per-work: 'a.txt'\n", 46);
	run_typed(&c, 4, "sift-x", "--per-work", "0", "1");
	assert_int_equal(c.status, 2);
	assert_memory_equal(c.err, "sift-x: --per-work must be above zero: '0'\n", 43);
}

/* Long help is wrapped at words to 80 columns, continuation lines under the help column. */
static const struct cli_option wordy[] = {
	CLI_ROW_STR("by", 'b', "KEY", "frame (default), function, file, lib, line, root, thread, process, "
		    "category, source (the input file), window (of time); two rank pairs"),
	CLI_ROW_FLAG("x", 0x1001, "a-word-far-longer-than-the-fifty-two-columns-that-the-help-column-has-left "
		     "then short"),
	CLI_ROW_END,
};
static const struct cli_spec wordy_spec = {
	"[OPTION]...",
	"A summary that runs on well past the eightieth column of a terminal, so it is filled.\n"
	"A second paragraph.",
	wordy, "Exit status: 0 ok, 1 unreadable input or bad lines with --strict, 2 usage error, 3 never.\n",
};

static void test_help_wraps(void **state)
{
	(void)state;
	struct captured c;
	capture_run(help, (void *)&wordy_spec, &c);
	assert_string_equal(c.out,
		"Usage: sift-x [OPTION]...\n"
		"A summary that runs on well past the eightieth column of a terminal, so it is\n"
		"filled.\n"
		"A second paragraph.\n"
		"\n"
		"Options:\n"
		"  -b, --by KEY              frame (default), function, file, lib, line, root,\n"
		"                            thread, process, category, source (the input file),\n"
		"                            window (of time); two rank pairs\n"
		"      --x                   a-word-far-longer-than-the-fifty-two-columns-that-the-help-column-has-left\n"
		"                            then short\n"
		"  -h, --help                show this help and exit\n"
		"      --version             show the version and exit\n"
		"\n"
		"Exit status: 0 ok, 1 unreadable input or bad lines with --strict, 2 usage error,\n"
		"3 never.\n");
}

static void test_help_and_version(void **state)
{
	(void)state;
	struct captured c;
	run(&c, 2, "sift-x", "--version");
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "sift-x (sift) " CLI_VERSION "\n");
	run(&c, 3, "sift-x", "-n", "1");
	assert_int_equal(c.status, 0);
	run(&c, 3, "sift-x", "x", "-h");
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	assert_memory_equal(c.out, "Usage: sift-x [OPTION]... [FILE]...\nDo a thing.\n", 48);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_typed),
		cmocka_unit_test(test_typed_errors),
		cmocka_unit_test(test_help_wraps),
		cmocka_unit_test(test_help_and_version),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
