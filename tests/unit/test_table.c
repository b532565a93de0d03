/* test_table: every output format byte for byte; CSV formula quoting, markdown escaping,
 * JSON with invalid UTF-8, -0.00, empty cells, big counts, write errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"

/* Expected output, checked by hand: see the notes in each test. */
#define WANT_TEXT \
		"name                                n    pct      r\n"\
		"=cmd|x_y                            5  12.35  0.000\n"\
		"caf\xc3""\xa9"" \xff""*[x]       18446744073709551615         1.500\n"\
		"a,b \"q\" t n<>`\\                     0   0.00\n"\
		""
#define WANT_TSV \
		"name\tn\tpct\tr\n"\
		"=cmd|x_y\t5\t12.35\t0.000\n"\
		"caf\xc3""\xa9"" \xff""*[x]\t18446744073709551615\t\t1.500\n"\
		"a,b \"q\" t n<>`\\\t0\t0.00\t\n"\
		""
#define WANT_CSV \
		"name,n,pct,r\r\n"\
		"\"=cmd|x_y\",5,12.35,0.000\r\n"\
		"caf\xc3""\xa9"" \xff""*[x],18446744073709551615,,1.500\r\n"\
		"\"a,b \"\"q\"\"\tt\n"\
		"n<>`\\\",0,0.00,\r\n"\
		""
#define WANT_JSON \
		"[\n"\
		"  {\n"\
		"    \"name\": \"=cmd|x_y\",\n"\
		"    \"n\": 5,\n"\
		"    \"pct\": 12.35,\n"\
		"    \"r\": 0.0\n"\
		"  },\n"\
		"  {\n"\
		"    \"name\": \"caf\xc3""\xa9"" \xef""\xbf""\xbd""*[x]\",\n"\
		"    \"n\": 1.84467440737096e19,\n"\
		"    \"pct\": null,\n"\
		"    \"r\": 1.5\n"\
		"  },\n"\
		"  {\n"\
		"    \"name\": \"a,b \\\"q\\\"\\tt\\nn<>`\\\\\",\n"\
		"    \"n\": 0,\n"\
		"    \"pct\": 0.0,\n"\
		"    \"r\": null\n"\
		"  }\n"\
		"]\n"\
		""
#define WANT_MD \
		"| name | n | pct | r |\n"\
		"| --- | ---: | ---: | ---: |\n"\
		"| =cmd\\|x\\_y | 5 | 12.35 | 0.000 |\n"\
		"| caf\xc3""\xa9"" \xff""\\*\\[x\\] | 18446744073709551615 |  | 1.500 |\n"\
		"| a,b \"q\" t n\\<\\>\\`\\\\ | 0 | 0.00 |  |\n"\
		""
#define WANT_TEXT_KEY_LAST \
		"                   5  12.35  0.000  =cmd|x_y\n"\
		"18446744073709551615         1.500  caf\xc3""\xa9"" \xff""*[x]\n"\
		"                   0   0.00         a,b \"q\" t n<>`\\\n"\
		""

static const struct table_column cols[] = { { "name", TABLE_STR, 0 }, { "n", TABLE_UINT, 0 },
					    { "pct", TABLE_PCT, 0 }, { "r", TABLE_REAL, 3 } };

static table *sample(void)
{
	table *t = table_new(cols, 4);
	table_add_row(t);
	table_set_str(t, 0, "=cmd|x_y", 8);     /* a formula to a spreadsheet */
	table_set_uint(t, 1, 5);
	table_set_real(t, 2, 12.345);           /* two decimals */
	table_set_real(t, 3, -0.0001);          /* no "-0.000" */
	table_add_row(t);
	table_set_str(t, 0, "caf\xc3\xa9 \xff*[x]", 11); /* UTF-8, then a byte that is not */
	table_set_uint(t, 1, UINT64_MAX);
	table_set_real(t, 2, NAN);              /* empty */
	table_set_real(t, 3, 1.5);
	table_add_row(t);
	table_set_str(t, 0, "a,b \"q\"\tt\nn<>`\\", 15);
	table_set_uint(t, 1, 0);
	table_set_real(t, 2, -0.004);           /* "-0.00" -> "0.00" */
	return t;                               /* r of row 3 never set: empty */
}

static char *render(const table *t, enum table_format format, unsigned flags)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(table_write(t, out, format, flags), 0);
	fclose(out);
	return text;
}

static void expect(enum table_format format, unsigned flags, const char *want)
{
	table *t = sample();
	assert_int_equal(table_rows(t), 3);
	char *got = render(t, format, flags);
	assert_string_equal(got, want);
	free(got);
	table_free(t);
}

static void test_text(void **state)
{
	(void)state;
	/* Numbers right-aligned, text left; tab and newline flattened to spaces; widths by
	 * UTF-8 characters; the last text column not padded. */
	expect(TABLE_TEXT, 0, WANT_TEXT);
	expect(TABLE_TEXT, TABLE_TEXT_KEY_LAST | TABLE_NO_HEADER, WANT_TEXT_KEY_LAST);
}

static void test_tsv(void **state)
{
	(void)state;
	expect(TABLE_TSV, 0, WANT_TSV);
}

static void test_csv(void **state)
{
	(void)state;
	/* CRLF rows; quotes doubled; a leading '=' quoted. */
	expect(TABLE_CSV, 0, WANT_CSV);
	const struct table_column one[] = { { "k", TABLE_STR, 0 }, { "v", TABLE_REAL, 1 } };
	table *t = table_new(one, 2);
	const char *lead[] = { "+1", "-1", "@SUM(A1)", "\tx", "\rx", "plain", "a=b", "" };
	for (size_t i = 0; i < sizeof lead / sizeof lead[0]; i++) {
		table_add_row(t);
		table_set_str(t, 0, lead[i], strlen(lead[i]));
		table_set_real(t, 1, -2.25);
	}
	char *got = render(t, TABLE_CSV, 0);
	/* Numbers are never quoted, even negative ones. */
	assert_string_equal(got, "k,v\r\n\"+1\",-2.2\r\n\"-1\",-2.2\r\n\"@SUM(A1)\",-2.2\r\n\"\tx\",-2.2\r\n"
				 "\"\rx\",-2.2\r\nplain,-2.2\r\na=b,-2.2\r\n,-2.2\r\n");
	free(got);
	table_free(t);
}

static void test_json(void **state)
{
	(void)state;
	/* Invalid UTF-8 becomes U+FFFD; counts past 2^63 become reals; empty cells null. */
	expect(TABLE_JSON, 0, WANT_JSON);
	table *t = table_new(cols, 4);
	char *got = render(t, TABLE_JSON, 0);
	assert_string_equal(got, "[]\n");
	free(got);
	got = render(t, TABLE_TSV, 0);
	assert_string_equal(got, "name\tn\tpct\tr\n");
	free(got);
	got = render(t, TABLE_TEXT, 0);
	assert_string_equal(got, "name  n  pct  r\n");
	free(got);
	table_free(t);
}

static void test_md(void **state)
{
	(void)state;
	expect(TABLE_MD, 0, WANT_MD);
}

static void test_overwrite_cell(void **state)
{
	(void)state;
	table *t = table_new(cols, 4);
	table_add_row(t);
	table_set_str(t, 0, "first", 5);
	table_set_str(t, 0, "second", 6);
	table_set_uint(t, 1, 1);
	table_set_uint(t, 1, 22);
	table_set_real(t, 2, 50);
	table_set_real(t, 2, NAN);
	char *got = render(t, TABLE_TSV, 0);
	assert_string_equal(got, "name\tn\tpct\tr\nsecond\t22\t\t\n");
	free(got);
	table_free(t);
	table_free(NULL);
}

static void test_pct(void **state)
{
	(void)state;
	assert_true(table_pct(0, 0) == 0.0);
	assert_true(table_pct(5, 0) == 0.0);
	assert_true(table_pct(1, 4) == 25.0);
	assert_true(table_pct(UINT64_MAX, UINT64_MAX) == 100.0);
	table *t = table_new(cols, 4);
	table_add_row(t);
	table_set_real(t, 2, table_pct(1, 3));
	table_set_real(t, 3, table_pct(2, 3));
	table_add_row(t);
	table_set_real(t, 2, 0.005);   /* binary 0.005 is just above: rounds up */
	table_set_real(t, 3, 99.9996);
	char *got = render(t, TABLE_TSV, 0);
	assert_string_equal(got, "name\tn\tpct\tr\n\t\t33.33\t66.667\n\t\t0.01\t100.000\n");
	free(got);
	table_free(t);
}

static void test_names_and_write_error(void **state)
{
	(void)state;
	const char *names[] = { "text", "tsv", "csv", "json", "md" };
	for (int i = 0; i < 5; i++)
		assert_string_equal(table_format_names[i], names[i]);
	assert_null(table_format_names[5]);
	table *t = sample();
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	setvbuf(full, NULL, _IONBF, 0);
	for (int f = TABLE_TEXT; f <= TABLE_MD; f++)
		assert_int_equal(table_write(t, full, (enum table_format)f, 0), -1);
	fclose(full);
	table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_tsv),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_md),
		cmocka_unit_test(test_overwrite_cell),
		cmocka_unit_test(test_pct),
		cmocka_unit_test(test_names_and_write_error),
	};
	return cmocka_run_group_tests_name("table", tests, NULL, NULL);
}
