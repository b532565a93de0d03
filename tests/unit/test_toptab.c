/* test_toptab: sift-top's table: its schema (the column names chart.c recognises), rows in
 * the sum's order, --top's limit, percentages of the samples given and the running sum of
 * the sort column, one column per key of a pair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agg.h"
#include "prof.h"
#include "stacks.h"
#include "toptab.h"

static prof *sample(void)
{
	prof *p = prof_new();
	add(p, "thread (1): t1;f (a.py:1);g (a.py:2)", 6);
	add(p, "thread (1): t1;f (a.py:1)", 2);
	add(p, "thread (2): t2;h (b.py:3)", 2);
	return p;
}

static char *tsv(const table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(table_write(t, f, TABLE_TSV, 0), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_schema(void **state)
{
	(void)state;
	const char *want[] = { "self", "self_pct", "total", "total_pct", "cum_pct" };
	assert_int_equal(TOPTAB_NCOLS, 5);
	for (size_t c = 0; c < TOPTAB_NCOLS; c++)
		assert_string_equal(toptab_columns[c], want[c]);
}

/* The table of p's stacks by keys, sorted by order, its first top rows (0: all), its
 * percentages of samples: written as TSV, as want. */
static void expect(prof *p, const struct agg_spec *keys, enum agg_order order, size_t top, uint64_t samples,
		   const char *want)
{
	agg *a = agg_new_spec(p, keys);
	agg_sort(a, order);
	table *t = toptab_table(a, keys, order, top, samples);
	char *out = tsv(t);
	assert_string_equal(out, want);
	free(out);
	table_free(t);
	agg_free(a);
}

static void test_one_key(void **state)
{
	(void)state;
	prof *p = sample();
	struct agg_spec keys = { { KEY_FUNCTION, KEY_FUNCTION }, 1, NULL, 0 };
	expect(p, &keys, AGG_BY_SELF, 0, 10,
	       "function\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n"
	       "g (a.py)\t6\t60.00\t6\t60.00\t60.00\n"
	       "f (a.py)\t2\t20.00\t8\t80.00\t80.00\n"
	       "h (b.py)\t2\t20.00\t2\t20.00\t100.00\n");
	/* --top 2, by total, percentages of 20 samples (all read, more than kept). */
	expect(p, &keys, AGG_BY_TOTAL, 2, 20,
	       "function\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n"
	       "f (a.py)\t2\t10.00\t8\t40.00\t40.00\n"
	       "g (a.py)\t6\t30.00\t6\t30.00\t70.00\n");
	prof_free(p);
}

static void test_pair(void **state)
{
	(void)state;
	prof *p = sample();
	struct agg_spec keys = { { KEY_THREAD, KEY_FUNCTION }, 2, NULL, 0 };
	expect(p, &keys, AGG_BY_SELF, 1, 10,
	       "thread\tfunction\tself\tself_pct\ttotal\ttotal_pct\tcum_pct\n"
	       "thread (1): t1\tg (a.py)\t6\t60.00\t6\t60.00\t60.00\n");
	prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema),
		cmocka_unit_test(test_one_key),
		cmocka_unit_test(test_pair),
	};
	return cmocka_run_group_tests_name("toptab", tests, NULL, NULL);
}
