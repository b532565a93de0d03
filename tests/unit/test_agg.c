/* test_agg: sums by one key, by category (exclusive and inclusive) and by pairs of keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "agg.h"
#include "prof.h"
#include "rules.h"

/* Add a stack written as "a;b;c" with count samples. */
static void add(prof *p, const char *stack, uint64_t count)
{
	uint32_t ids[32];
	size_t n = 0;
	const char *s = stack;
	for (;;) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		ids[n++] = intern_add(prof_frames(p), s, len);
		if (!semi)
			break;
		s = semi + 1;
	}
	assert_int_equal(prof_add(p, ids, n, count), 0);
}

static prof *sample(void)
{
	prof *p = prof_new();
	add(p, "thread (1): t1;f (a.py:1);cuLaunchKernel (libcuda.so.1);0x1 (libcuda.so.1);sched_yield (libc.so.6)", 10);
	add(p, "thread (1): t1;f (a.py:1);get (queue.py:171);wait (threading.py:355)", 5);
	add(p, "thread (2): t2;g (b.py:2);create_block_mask (m.py:3);cudaLaunchKernel (libcudart.so.12)", 3);
	add(p, "thread (2): t2;g (b.py:2);create_block_mask (m.py:3)", 2);
	add(p, "thread (2): t2;g (b.py:2)", 1);
	return p;
}

/* The rows as "key|key2 self total" lines, for one exact comparison. */
static void expect_rows(const agg *a, const char *want)
{
	char got[4096] = "";
	size_t used = 0;
	const struct agg_row *rows = agg_rows(a);
	for (size_t i = 0; i < agg_row_count(a); i++) {
		const char *k1 = intern_str(agg_keys(a), rows[i].key, NULL);
		const char *k2 = rows[i].key2 == AGG_NONE ? "" : intern_str(agg_keys(a), rows[i].key2, NULL);
		used += (size_t)snprintf(got + used, sizeof got - used, "%s|%s %llu %llu\n", k1, k2,
					 (unsigned long long)rows[i].self, (unsigned long long)rows[i].total);
	}
	assert_string_equal(got, want);
}

static void test_frame_unchanged(void **state)
{
	(void)state;
	prof *p = sample();
	agg *a = agg_new(p, KEY_FUNCTION);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "sched_yield (libc.so.6)| 10 10\n"
		       "wait (threading.py)| 5 5\n"
		       "cudaLaunchKernel (libcudart.so.12)| 3 3\n"
		       "create_block_mask (m.py)| 2 5\n"
		       "g (b.py)| 1 6\n"
		       "f (a.py)| 0 15\n"
		       "0x1 (libcuda.so.1)| 0 10\n"
		       "cuLaunchKernel (libcuda.so.1)| 0 10\n"
		       "get (queue.py)| 0 5\n");
	assert_int_equal(agg_unkeyed(a), 0);
	agg_free(a);
	prof_free(p);
}

static void test_category_exclusive(void **state)
{
	(void)state;
	prof *p = sample();
	agg *a = agg_new(p, KEY_CATEGORY); /* the built-in rules */
	agg_sort(a, AGG_BY_SELF);
	/* Leaf-most match: the spin under cuLaunchKernel is launch; the mask builder's own
	 * launch is launch; only its Python time is mask. */
	expect_rows(a, "launch| 13 13\n"
		       "queue| 5 5\n"
		       "mask| 2 2\n"
		       "other| 1 1\n");
	agg_free(a);
	prof_free(p);
}

static void test_category_inclusive(void **state)
{
	(void)state;
	prof *p = sample();
	rules *r = rules_new();
	rules_add_default(r);
	struct agg_spec spec = { { KEY_CATEGORY, KEY_FRAME }, 1, r, 1 };
	agg *a = agg_new_spec(p, &spec);
	agg_sort(a, AGG_BY_TOTAL);
	/* Totals count a stack once in every category it touches; self stays exclusive. */
	expect_rows(a, "launch| 13 13\n"
		       "queue| 5 5\n"   /* ties on total: the larger self first */
		       "mask| 2 5\n"
		       "other| 1 1\n");
	agg_free(a);
	rules_free(r);
	prof_free(p);
}

static void test_pairs(void **state)
{
	(void)state;
	prof *p = sample();
	rules *r = rules_new();
	assert_int_equal(rules_add_text(r, "t", "spin ^sched_yield\npy \\.py:\n", 27, NULL, 0), 0);
	struct agg_spec spec = { { KEY_THREAD, KEY_CATEGORY }, 2, r, 1 };
	agg *a = agg_new_spec(p, &spec);
	agg_sort(a, AGG_BY_SELF);
	/* t2's launch frame matches no rule here, so all of t2 is py. */
	expect_rows(a, "thread (1): t1|spin 10 10\n"
		       "thread (2): t2|py 6 6\n"
		       "thread (1): t1|py 5 15\n");
	agg_free(a);

	/* Two per-frame keys: totals are every combination present in a stack, once. */
	spec = (struct agg_spec){ { KEY_FILE, KEY_THREAD }, 2, NULL, 0 };
	a = agg_new_spec(p, &spec);
	agg_sort(a, AGG_BY_TOTAL);
	expect_rows(a, "a.py|thread (1): t1 0 15\n"
		       "libc.so.6|thread (1): t1 10 10\n"   /* ties on total: the larger self first */
		       "libcuda.so.1|thread (1): t1 0 10\n"
		       "b.py|thread (2): t2 1 6\n"
		       "threading.py|thread (1): t1 5 5\n"
		       "m.py|thread (2): t2 2 5\n"
		       "queue.py|thread (1): t1 0 5\n"
		       "libcudart.so.12|thread (2): t2 3 3\n");
	agg_free(a);
	rules_free(r);
	prof_free(p);
}

static void test_pairs_unkeyed(void **state)
{
	(void)state;
	prof *p = prof_new();
	add(p, "f (a.py:1);g (a.py:2)", 4); /* no thread frame */
	add(p, "thread (7);h (c.py:1)", 1);
	struct agg_spec spec = { { KEY_THREAD, KEY_CATEGORY }, 2, NULL, 0 };
	agg *a = agg_new_spec(p, &spec);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "thread (7)|other 1 1\n");
	assert_int_equal(agg_unkeyed(a), 4);
	agg_free(a);
	prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_unchanged),
		cmocka_unit_test(test_category_exclusive),
		cmocka_unit_test(test_category_inclusive),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_pairs_unkeyed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
