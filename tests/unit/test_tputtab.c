/* test_tputtab: a header row's names, the rows of bare figures under it read as pairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tputtab.h"

static size_t row(struct tputtab *t, const char *s) { return tputtab_row(t, s, strlen(s), 0); }

/* DomainBed's table: names apart by runs of blanks, a step's column, rows of figures. */
static void test_domainbed(void **state)
{
	(void)state;
	struct tputtab t = { 0 };
	const char *head = "env0_in_acc   epoch         loss          step          step_time    ";
	assert_int_equal(tputtab_header(&t, head, strlen(head)), 1);
	assert_int_equal(t.cols, 5);
	const char *r = "0.6448763251  10.335689045  1.2e-05       300           0.2678673498 \r";
	size_t n = row(&t, r);
	assert_string_equal(t.row, "env0_in_acc: 0.6448763251 epoch: 10.335689045 loss: 1.2e-05 step: 300 step_time: 0.2678673498");
	assert_int_equal(n, strlen(t.row));
	n = row(&t, "nan  1  -0.5  400  inf");
	assert_int_equal(n, strlen(t.row));
	assert_string_equal(t.row, "env0_in_acc: nan epoch: 1 loss: -0.5 step: 400 step_time: inf");
	tputtab_free(&t);
}

/* A row's prefix (a rank, a timestamp) is kept as it is; '|' parts fields as blanks do. */
static void test_prefix_and_bars(void **state)
{
	(void)state;
	struct tputtab t = { 0 };
	const char *head = "| Step | loss | tokens/s |";
	assert_int_equal(tputtab_header(&t, head, strlen(head)), 1);
	const char *r = "[1]: | 20 | 3.5 | 1200 |";
	assert_int_equal(tputtab_row(&t, r, strlen(r), 5), strlen("[1]: Step: 20 loss: 3.5 tokens/s: 1200"));
	assert_string_equal(t.row, "[1]: Step: 20 loss: 3.5 tokens/s: 1200");
	tputtab_free(&t);
}

/* Lines that are no header: fewer than three names, no step's column (a benchmark's
 * table), a figure among the names, a key/value line. */
static void test_not_header(void **state)
{
	(void)state;
	struct tputtab t = { 0 };
	const char *no[] = { "step time", "model batch_size throughput_samples/s", "step 12 loss time",
			     "step: loss: time:", "epoch=1 loss=2 time=3", "" };
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_int_equal(tputtab_header(&t, no[i], strlen(no[i])), 0);
	assert_int_equal(t.cols, 0);
	assert_int_equal(row(&t, "1 2 3"), 0);  /* no table open */
	tputtab_free(&t);
}

/* Lines that are no row: another count of fields, a word, a time of day, a K suffix. */
static void test_not_row(void **state)
{
	(void)state;
	struct tputtab t = { 0 };
	assert_int_equal(tputtab_header(&t, "epoch loss time", 15), 1);
	const char *no[] = { "1 2", "1 2 3 4", "1 loss 3", "1 2 00:12", "1 2 14.5K", "1 2 3e", "- 2 3", "" };
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		assert_int_equal(row(&t, no[i]), 0);
	assert_int_equal(row(&t, "1 2 3"), strlen("epoch: 1 loss: 2 time: 3"));
	tputtab_close(&t);
	assert_int_equal(row(&t, "1 2 3"), 0);
	tputtab_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_domainbed),
		cmocka_unit_test(test_prefix_and_bars),
		cmocka_unit_test(test_not_header),
		cmocka_unit_test(test_not_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
