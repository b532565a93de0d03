/* test_cli: value parsers, option parsing through the table, --help text, usage errors
 * (exit 2, in a child). */
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

static const struct cli_option options[] = {
	{ "top", 'n', "N", "show N rows" },
	{ "format", 0x1001, "FMT", "text or tsv" },
	{ "a-very-long-option-name", 0x1002, "VALUE", "wraps to the next line" },
	{ "strict", 0x1003, NULL, "bad lines are fatal" },
	{ 0, 0, 0, 0 },
};
static const struct cli_spec spec = { "[OPTION]... [FILE]...", "Do a thing.", options, "Exit status: 0.\n" };

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

static void help(void *arg)
{
	(void)arg;
	err_set_prog("sift-x");
	cli_help(&spec, stdout);
}

static void test_help_text(void **state)
{
	(void)state;
	struct captured c;
	capture_run(help, NULL, &c);
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

struct args { int argc; char *argv[8]; };

/* Child: print each key and value, then the first operand index. */
static void parse(void *arg)
{
	struct args *a = arg;
	err_set_prog("sift-x");
	optind = 0;
	const char *value;
	int key, first;
	while ((key = cli_next(&spec, a->argc, a->argv, &value, &first)) != -1)
		printf("%#x=%s\n", (unsigned)key, value ? value : "-");
	printf("first=%d\n", first);
}

static void run(struct captured *c, int argc, ...)
{
	static struct args a;
	va_list ap;
	va_start(ap, argc);
	a.argc = argc;
	for (int i = 0; i < argc; i++)
		a.argv[i] = va_arg(ap, char *);
	a.argv[argc] = NULL;
	va_end(ap);
	capture_run(parse, &a, c);
}

static void test_parse(void **state)
{
	(void)state;
	struct captured c;
	run(&c, 7, "sift-x", "-n", "5", "--format=tsv", "file", "--strict", "--top=7");
	assert_int_equal(c.status, 0);
	/* GNU getopt moves operands to the end. */
	assert_string_equal(c.out, "0x6e=5\n0x1001=tsv\n0x1003=-\n0x6e=7\nfirst=6\n");
	run(&c, 4, "sift-x", "--", "--strict", "-");
	assert_string_equal(c.out, "first=2\n");
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
		cmocka_unit_test(test_help_and_version),
	};
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
