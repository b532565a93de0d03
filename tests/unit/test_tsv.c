/* test_tsv: a sift TSV read whole: padding, repeated headers, blank lines, bad lines, sift-gil's
 * summary then keys table, several files, and the header queries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "tmpdir.h"
#include "err.h"
#include "tsv.h"

static char tmpdir[] = "/tmp/sift-test-tsv-XXXXXX";

static int setup(void **state)
{
	(void)state;
	err_set_prog("test_tsv");
	return tmpdir_make(tmpdir);
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

/* Files are written into the scratch directory and named relative to it (messages name
 * them as given), so the reading child changes into it first. */
static void put_n(const char *name, const char *text, size_t len)
{
	char path[512];
	assert_non_null(tmpdir_file(tmpdir, name, text, len, path, sizeof path));
}

static void put(const char *name, const char *text)
{
	put_n(name, text, strlen(text));
}

/* The table as "file: h1,h2 | c1,c2 | ...", one line, with the read status. */
static void show(const struct tsv *t, int status)
{
	printf("%s:", t->file ? t->file : "(none)");
	for (size_t c = 0; c < t->ncols; c++)
		printf("%s%s", c ? "," : " ", t->head[c]);
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			printf("%s%s", c ? "," : " | ", t->rows[r][c]);
	printf(" (status %d)\n", status);
}

struct files { char *paths[3]; size_t n; };

static void read_show(void *arg)
{
	struct files *f = arg;
	struct err_lines errs;
	struct tsv t;
	if (chdir(tmpdir) != 0)
		abort();
	err_lines_init(&errs);
	int status = tsv_read(f->paths, f->n, &t, &errs);
	err_lines_finish(&errs);
	show(&t, status);
	tsv_free(&t);
	tsv_free(&t); /* a freed table frees again as empty */
}

static void check_read(const char *a, const char *b, const char *out, const char *err)
{
	struct files f = { { (char *)a, (char *)b, NULL }, b ? 2 : 1 };
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(read_show, &f, c);
	assert_int_equal(c->status, 0);
	assert_string_equal(c->out, out);
	assert_string_equal(c->err, err);
	free(c);
}

static void test_rows_padded(void **state)
{
	(void)state;
	put("pad.tsv", "a\tb\tc\n1\t2\t3\nx\ty\n\t\t\n");
	check_read("pad.tsv", NULL, "pad.tsv: a,b,c | 1,2,3 | x,y, | ,, (status 0)\n", "");
}

static void test_repeats_blanks_bad_lines(void **state)
{
	(void)state;
	static const char text[] = "h1\th2\n1\t2\n\nh1\th2\n3\t4\t5\nn\0ul\t1\n6\n";
	put_n("bad.tsv", text, sizeof text - 1);
	check_read("bad.tsv", NULL, "bad.tsv: h1,h2 | 1,2 | 6, (status 0)\n",
		   "test_tsv: bad.tsv:5: 3 cells, the header has 2\n"
		   "test_tsv: bad.tsv:6: NUL byte in line\n");
}

static void test_summary_then_keys(void **state)
{
	(void)state;
	put("gil.tsv", "name\tvalue\nsamples\t10\n\nframe\tgil\nf\t1\n");
	check_read("gil.tsv", NULL, "gil.tsv: frame,gil | f,1 (status 0)\n", "");
	/* A summary alone stays a summary; so does one whose blank line ends the input. */
	put("sum.tsv", "name\tvalue\nsamples\t10\n\n");
	check_read("sum.tsv", NULL, "sum.tsv: name,value | samples,10 (status 0)\n", "");
}

static void test_files_concatenated(void **state)
{
	(void)state;
	put("one.tsv", "k\tv\na\t1\n");
	put("two.tsv", "k\tv\nb\t2\n");
	check_read("one.tsv", "two.tsv", "one.tsv: k,v | a,1 | b,2 (status 0)\n", "");
}

static void test_empty_and_header_only(void **state)
{
	(void)state;
	put("empty.tsv", "");
	check_read("empty.tsv", NULL, "(none): (status 0)\n", "");
	put("head.tsv", "k\tv\n\nk\tv\n");
	check_read("head.tsv", NULL, "head.tsv: k,v (status 0)\n", "");
}

static void test_missing_file(void **state)
{
	(void)state;
	check_read("no-such.tsv", NULL, "(none): (status 1)\n",
		   "test_tsv: no-such.tsv: No such file or directory\n");
}

static void test_header_queries(void **state)
{
	(void)state;
	char *head[] = { "frame", "before", "after", "before_rate", "name" };
	struct tsv t = { head, 5, NULL, 0, 0, "t.tsv" };
	assert_int_equal(tsv_col(&t, "frame"), 0);
	assert_int_equal(tsv_col(&t, "before_rate"), 3);
	assert_int_equal(tsv_col(&t, "before_"), -1);
	assert_int_equal(tsv_col(&t, ""), -1);
	assert_int_equal(tsv_has_run(&t, 1, "before after"), 1);
	assert_int_equal(tsv_has_run(&t, 1, "before after before_pct|before_rate"), 1);
	assert_int_equal(tsv_has_run(&t, 1, "before after before_pct"), 0);
	assert_int_equal(tsv_has_run(&t, 0, "before"), 0);
	assert_int_equal(tsv_has_run(&t, 4, "name value"), 0);   /* past the last column */
	assert_int_equal(tsv_has_run(&t, 4, "x|name"), 1);
	assert_int_equal(tsv_has_run(&t, 0, "frame|"), 1);
	assert_int_equal(tsv_is_summary(&t), 0);
	char *sum[] = { "name", "value" };
	struct tsv s = { sum, 2, NULL, 0, 0, "s.tsv" };
	assert_int_equal(tsv_is_summary(&s), 1);
	s.ncols = 1;
	assert_int_equal(tsv_is_summary(&s), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_padded),
		cmocka_unit_test(test_repeats_blanks_bad_lines),
		cmocka_unit_test(test_summary_then_keys),
		cmocka_unit_test(test_files_concatenated),
		cmocka_unit_test(test_empty_and_header_only),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_header_queries),
	};
	return cmocka_run_group_tests_name("tsv", tests, setup, teardown);
}
