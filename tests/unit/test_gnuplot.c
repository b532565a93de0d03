/* test_gnuplot: string quoting (the inert-script scheme), preamble. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "gnuplot.h"

/* What gnuplot_quote writes for s. */
static char *quoted(const char *s, size_t len, unsigned flags)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	gnuplot_quote(f, s, len, flags);
	fclose(f);
	return buf;
}

static void check_quote(const char *in, unsigned flags, const char *want)
{
	char *got = quoted(in, strlen(in), flags);
	assert_string_equal(got, want);
	free(got);
}

static void test_quote_specials(void **state)
{
	(void)state;
	check_quote("plain text (x.py:1)", 0, "\"plain text (x.py:1)\"");
	check_quote("`rm -rf ~`", 0, "\"\\140rm -rf ~\\140\"");
	check_quote("@macro", 0, "\"\\100macro\"");
	check_quote("a\"b\\c'd$e", 0, "\"a\\042b\\134c\\047d\\044e\"");
	check_quote("100%", 0, "\"100\\045\"");
	check_quote("100% %s", GNUPLOT_FORMAT, "\"100%% %%s\"");
	check_quote("SIFT_EOD", 0, "\"SIFT_EOD\"");
	check_quote("caf\xc3\xa9", 0, "\"caf\xc3\xa9\"");
}

static void test_quote_control_bytes(void **state)
{
	(void)state;
	char *got = quoted("a\nb\rc\td\0e\x7f", 10, 0);
	assert_string_equal(got, "\"a b c d e \"");
	free(got);
}

static void test_begin_and_block(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct gnuplot_page page = { GNUPLOT_DUMB, 0, 0, "o`x`.txt", "t@" };
	gnuplot_begin(f, &page);
	gnuplot_block_begin(f, "D");
	gnuplot_number(f, 1.5);
	putc(' ', f);
	gnuplot_number(f, 1.0 / 0.0);
	putc(' ', f);
	gnuplot_number(f, 12345678901.0);
	putc('\n', f);
	gnuplot_block_end(f);
	fclose(f);
	assert_string_equal(buf, "set terminal dumb noenhanced size 100,30\n"
				 "set output \"o\\140x\\140.txt\"\n"
				 "set title \"t\\100\"\n"
				 "set border 3\nset tics nomirror\n"
				 "$D << SIFT_EOD\n1.5 0 12345678901\nSIFT_EOD\n");
	free(buf);
	unsigned w, h;
	gnuplot_default_size(GNUPLOT_PNG, &w, &h);
	assert_int_equal(w, 900);
	assert_int_equal(h, 600);
}

static void test_pdf_size_in_inches(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	struct gnuplot_page page = { GNUPLOT_PDF, 720, 360, NULL, NULL };
	gnuplot_begin(f, &page);
	fclose(f);
	assert_string_equal(buf, "set terminal pdfcairo noenhanced size 10.00in,5.00in font \"sans,8\"\n"
				 "set border 3\nset tics nomirror\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_specials),
		cmocka_unit_test(test_quote_control_bytes),
		cmocka_unit_test(test_begin_and_block),
		cmocka_unit_test(test_pdf_size_in_inches),
	};
	return cmocka_run_group_tests_name("gnuplot", tests, NULL, NULL);
}
