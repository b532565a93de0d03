/* test_sum: one reader or several give the same sums, counts and messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "sum.h"

static char *fixture(const char *name)
{
	static char paths[4][512];
	static int next;
	const char *dir = getenv("SIFT_TESTDATA");
	char *p = paths[next++ % 4];
	snprintf(p, 512, "%s/%s", dir ? dir : "testdata", name);
	return p;
}

/* The whole result as text, to compare runs. */
static void describe(const struct sum_result *r, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "read %llu kept %llu stacks %zu threads %zu\n",
				       (unsigned long long)r->stats.samples_read,
				       (unsigned long long)r->stats.samples_kept, r->stacks, r->threads);
	const struct agg_row *rows = agg_rows(r->table);
	for (size_t i = 0; i < agg_row_count(r->table) && used < len; i++) {
		size_t klen;
		const char *key = intern_str(agg_keys(r->table), rows[i].key, &klen);
		used += (size_t)snprintf(buf + used, len - used, "%.*s %llu %llu\n", (int)klen, key,
					 (unsigned long long)rows[i].self, (unsigned long long)rows[i].total);
	}
}

static void run(unsigned workers, enum frame_key key, char *out, size_t len, unsigned long *bad)
{
	char *paths[] = { fixture("raw/zoo.txt"), fixture("raw/merge-a.txt"), fixture("raw/merge-b.txt"),
			  fixture("raw/enginecore-native-idle.txt") };
	struct load_opts opts = { 0 };
	struct agg_spec spec = { { key, KEY_FRAME }, 1, NULL, 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	struct sum_result r;
	assert_int_equal(sum_files(paths, 4, &opts, &spec, workers, &errs, &r), 0);
	assert_int_equal(r.workers, workers);
	agg_sort(r.table, AGG_BY_SELF);
	describe(&r, out, len);
	*bad = errs.bad;
	sum_result_free(&r);
}

static void test_workers_agree(void **state)
{
	(void)state;
	static char one[65536], many[65536];
	const enum frame_key keys[] = { KEY_FRAME, KEY_THREAD, KEY_CATEGORY, KEY_ROOT };
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
		unsigned long bad1, badn;
		run(1, keys[k], one, sizeof one, &bad1);
		for (unsigned w = 2; w <= 7; w++) {
			run(w, keys[k], many, sizeof many, &badn);
			assert_string_equal(one, many);
			assert_int_equal(bad1, badn);
		}
	}
	run(1, KEY_THREAD, one, sizeof one, &(unsigned long){ 0 });
	assert_non_null(strstr(one, "read 30047 kept 30047 stacks 90 threads 8"));
}

/* --idle recordings: three or more threads equal to within 1%. */
static void test_looks_idle(void **state)
{
	(void)state;
	uint64_t lo = 0, hi = 0;
	const uint64_t equal[] = { 600, 600, 600 }, close[] = { 600, 594, 597, 600 },
		       apart[] = { 600, 593, 600 }, zero[] = { 0, 0, 0 };
	assert_int_equal(sum_looks_idle(equal, 3, &lo, &hi), 1);
	assert_true(lo == 600 && hi == 600);
	assert_int_equal(sum_looks_idle(close, 4, &lo, &hi), 1);
	assert_true(lo == 594 && hi == 600);
	assert_int_equal(sum_looks_idle(apart, 3, &lo, &hi), 0);
	assert_int_equal(sum_looks_idle(equal, 2, &lo, &hi), 0);
	assert_int_equal(sum_looks_idle(zero, 3, &lo, &hi), 0);
}

int main(void)
{
	err_set_prog("test_sum");
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_workers_agree),
					    cmocka_unit_test(test_looks_idle) };
	return cmocka_run_group_tests_name("sum", tests, NULL, NULL);
}
