/* test_agg: self and total per key; recursion once; root, thread and process semantics;
 * keys of filtered-out stacks left out; sort orders; thread count; category (exclusive and
 * inclusive) and pairs of keys. */
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
#include "rules.h"
#include "stacks.h"


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

/* source: the input being read, set between stacks; before any, "(no source)". Paired with
 * a per-frame key, a key x input matrix. */
static void test_source(void **state)
{
	(void)state;
	prof *p = prof_new();
	struct agg_spec spec = { { KEY_FUNCTION, KEY_SOURCE }, 2, NULL, 0 };
	agg *a = agg_open(prof_frames_const(p), &spec);
	uint32_t ids[2] = { intern_add(prof_frames(p), "f (a.py:1)", 10), intern_add(prof_frames(p), "g (a.py:2)", 10) };
	agg_add(a, ids, 2, 1);
	agg_set_source(a, "rank0", 5);
	agg_add(a, ids, 2, 4);
	agg_set_source(a, "rank1", 5);
	agg_add(a, ids, 1, 2);
	agg_add(a, ids + 1, 1, 3);
	agg_close(a);
	agg_sort(a, AGG_BY_TOTAL);
	expect_rows(a, "g (a.py)|rank0 4 4\n"
		       "f (a.py)|rank0 0 4\n"
		       "g (a.py)|rank1 3 3\n"
		       "f (a.py)|rank1 2 2\n"
		       "g (a.py)|(no source) 1 1\n"
		       "f (a.py)|(no source) 0 1\n");
	agg_free(a);

	/* Without a source key, a name is not a key: no row may appear for it. */
	spec = (struct agg_spec){ { KEY_FUNCTION, KEY_FRAME }, 1, NULL, 0 };
	a = agg_open(prof_frames_const(p), &spec);
	agg_set_source(a, "rank0", 5);
	agg_add(a, ids, 1, 2);
	agg_close(a);
	expect_rows(a, "f (a.py)| 2 2\n");
	agg_free(a);
	prof_free(p);
}

/* window: set between stacks like source; rows in time order (10 after 2, by value), each
 * window's rows by the sort; agg_window_run gives a window's rows and samples. */
static void test_window(void **state)
{
	(void)state;
	prof *p = prof_new();
	struct agg_spec spec = { { KEY_WINDOW, KEY_FUNCTION }, 2, NULL, 0 };
	agg *a = agg_open(prof_frames_const(p), &spec);
	uint32_t ids[2] = { intern_add(prof_frames(p), "f (a.py:1)", 10), intern_add(prof_frames(p), "g (a.py:2)", 10) };
	agg_set_window(a, 10);
	agg_add(a, ids, 2, 4);
	agg_set_window(a, 2);
	agg_add(a, ids, 1, 2);
	agg_add(a, ids, 2, 3);
	agg_set_window(a, 0.5);
	agg_add(a, ids, 1, 1);
	agg_set_window(a, 2);  /* back to a window seen: the same key */
	agg_add(a, ids, 1, 5);
	agg_close(a);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "0.5|f (a.py) 1 1\n"
		       "2|f (a.py) 7 10\n"
		       "2|g (a.py) 3 3\n"
		       "10|g (a.py) 4 4\n"
		       "10|f (a.py) 0 4\n");
	uint64_t self;
	assert_int_equal(agg_window_run(a, 0, &self), 1);
	assert_int_equal(self, 1);
	assert_int_equal(agg_window_run(a, 1, &self), 3);
	assert_int_equal(self, 10);
	assert_int_equal(agg_window_run(a, 3, &self), 5);
	assert_int_equal(self, 4);
	agg_free(a);

	/* The window second; a stack before any window counts under "(no window)", last. */
	spec = (struct agg_spec){ { KEY_FUNCTION, KEY_WINDOW }, 2, NULL, 0 };
	assert_int_equal(agg_spec_has(&spec, KEY_WINDOW), 1);
	assert_int_equal(agg_spec_has(&spec, KEY_SOURCE), 0);
	a = agg_open(prof_frames_const(p), &spec);
	agg_add(a, ids, 1, 9);
	agg_set_window(a, 1.5);
	agg_add(a, ids, 1, 2);
	agg_set_window(a, 0);
	agg_add(a, ids + 1, 1, 3);
	agg_close(a);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "g (a.py)|0 3 3\n"
		       "f (a.py)|1.5 2 2\n"
		       "f (a.py)|(no window) 9 9\n");
	agg_free(a);
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
	expect_rows(a, "(no thread)|other 4 4\nthread (7)|other 1 1\n");
	assert_int_equal(agg_unkeyed(a), 0);
	agg_free(a);
	prof_free(p);
}


#define P1 "process 10:\"torchrun\""
#define P2 "process 11:\"python train.py; x\""
#define T1 "thread (11): MainThread"
#define T2 "thread (0x1f): Thread-2 (worker)"
#define MAIN "main (a.py:1)"

static void add_frames(prof *p, uint64_t count, ...)
{
	uint32_t ids[16];
	size_t n = 0;
	va_list ap;
	va_start(ap, count);
	for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
		ids[n++] = intern_add(prof_frames(p), s, strlen(s));
	va_end(ap);
	assert_int_equal(prof_add(p, ids, n, count), 0);
}

static prof *sample_keys(void)
{
	prof *p = prof_new();
	add_frames(p, 5, P1, P2, T1, MAIN, "work (a.py:2)", "work (a.py:3)", NULL);
	add_frames(p, 2, P1, T1, MAIN, "other (b.py:7)", NULL);
	add_frames(p, 3, T2, MAIN, NULL);
	add_frames(p, 4, NULL);
	add_frames(p, 1, MAIN, "0x7f00 (libc.so.6)", NULL);
	add_frames(p, 6, "[...more user code...]", MAIN, NULL);
	/* A frame interned but in no stack (its stack was filtered out): no row. */
	intern_add(prof_frames(p), "dropped (c.py:1)", 16);
	intern_add(prof_frames(p), "thread (99): Gone", 17);
	return p;
}

static void expect(enum frame_key key, enum agg_order order, const char *want, uint64_t unkeyed)
{
	prof *p = sample_keys();
	agg *a = agg_new(p, key);
	agg_sort(a, order);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	const struct agg_row *rows = agg_rows(a);
	for (size_t i = 0; i < agg_row_count(a); i++)
		fprintf(out, "%s %llu %llu\n", intern_str(agg_keys(a), rows[i].key, NULL),
			(unsigned long long)rows[i].self, (unsigned long long)rows[i].total);
	fclose(out);
	if (strcmp(text, want) != 0 || agg_unkeyed(a) != unkeyed)
		fail_msg("--by %s: got\n%sunkeyed %llu; want\n%sunkeyed %llu", frame_key_names[key], text,
			 (unsigned long long)agg_unkeyed(a), want, (unsigned long long)unkeyed);
	free(text);
	agg_free(a);
	prof_free(p);
}

static void test_frame(void **state)
{
	(void)state;
	expect(KEY_FRAME, AGG_BY_SELF,
	       MAIN " 9 17\n"
	       "work (a.py:3) 5 5\n"
	       "(no frame) 4 4\n"
	       "other (b.py:7) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n"
	       "work (a.py:2) 0 5\n", 0);
	expect(KEY_FRAME, AGG_BY_TOTAL,
	       MAIN " 9 17\n"
	       "work (a.py:3) 5 5\n"
	       "work (a.py:2) 0 5\n"
	       "(no frame) 4 4\n"
	       "other (b.py:7) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n", 0);
}

static void test_function_file_line_lib(void **state)
{
	(void)state;
	/* work (a.py) twice in one stack counts once in total. */
	expect(KEY_FUNCTION, AGG_BY_SELF,
	       "main (a.py) 9 17\n"
	       "work (a.py) 5 5\n"
	       "(no function) 4 4\n"
	       "other (b.py) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n", 0);
	expect(KEY_FILE, AGG_BY_SELF,
	       "a.py 14 17\n"
	       "(no file) 4 4\n"
	       "b.py 2 2\n"
	       "libc.so.6 1 1\n", 0);
	expect(KEY_LINE, AGG_BY_TOTAL,
	       "a.py:1 9 17\n"
	       "a.py:3 5 5\n"
	       "a.py:2 0 5\n"
	       "(no line) 4 4\n"
	       "b.py:7 2 2\n"
	       "libc.so.6 1 1\n", 0);
	expect(KEY_LIB, AGG_BY_SELF, "libc.so.6 1 1\n", 20);
}

static void test_root_thread_process(void **state)
{
	(void)state;
	/* root: the first frame under the pseudo-frames; a tag frame counts as a root. */
	expect(KEY_ROOT, AGG_BY_SELF,
	       MAIN " 11 11\n"
	       "[...more user code...] 6 6\n"
	       "(no root) 4 4\n", 0);
	expect(KEY_THREAD, AGG_BY_SELF,
	       "(no thread) 11 11\n"
	       T1 " 7 7\n"
	       T2 " 3 3\n", 0);
	/* The innermost process is the stack's own (self); its parents get total. */
	expect(KEY_PROCESS, AGG_BY_SELF,
	       "(no process) 14 14\n"
	       P2 " 5 5\n"
	       P1 " 2 7\n", 0);
	expect(KEY_PROCESS, AGG_BY_TOTAL,
	       "(no process) 14 14\n"
	       P1 " 2 7\n"
	       P2 " 5 5\n", 0);
}

static void test_ties_and_empty(void **state)
{
	(void)state;
	prof *p = prof_new();
	add_frames(p, 2, "b", NULL);
	add_frames(p, 2, "a", NULL);
	add_frames(p, 2, "c;x", NULL);
	agg *a = agg_new(p, KEY_FRAME);
	agg_sort(a, AGG_BY_SELF);
	assert_int_equal(agg_row_count(a), 3);
	assert_string_equal(intern_str(agg_keys(a), agg_rows(a)[0].key, NULL), "a");
	assert_string_equal(intern_str(agg_keys(a), agg_rows(a)[1].key, NULL), "b");
	assert_string_equal(intern_str(agg_keys(a), agg_rows(a)[2].key, NULL), "c;x");
	agg_free(a);
	prof_free(p);

	p = prof_new();
	a = agg_new(p, KEY_THREAD);
	assert_int_equal(agg_row_count(a), 0);
	assert_int_equal(agg_unkeyed(a), 0);
	agg_sort(a, AGG_BY_TOTAL);
	agg_free(a);
	agg_free(NULL);
	assert_int_equal(agg_thread_count(p), 0);
	prof_free(p);
}

static void test_thread_count(void **state)
{
	(void)state;
	prof *p = sample_keys();
	assert_int_equal(agg_thread_count(p), 2); /* "thread (99): Gone" is in no stack */
	prof_free(p);
}

/* Samples are conserved: stacks without the key are a "(no KEY)" row, and a [tag] leaf's
 * self goes to the innermost code frame; lib alone leaves Python leaves out. */
static void test_conserved(void **state)
{
	(void)state;
	prof *p = prof_new();
	add(p, "thread (1): t1;f (a.py:1);[idle]", 4);
	add(p, "f (a.py:1);bare_name", 3);
	add(p, "process 9:\"py\";thread (1): t1;[only a tag]", 2);
	add(p, "g (b.py:2);poll (libc.so.6)", 1);
	agg *a = agg_new(p, KEY_THREAD);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "thread (1): t1| 6 6\n(no thread)| 4 4\n");
	assert_int_equal(agg_missing(a, 0), 4);
	agg_free(a);
	a = agg_new(p, KEY_PROCESS);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "(no process)| 8 8\nprocess 9:\"py\"| 2 2\n");
	agg_free(a);
	a = agg_new(p, KEY_FILE);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "(no file)| 5 5\na.py| 4 7\nlibc.so.6| 1 1\nb.py| 0 1\n");
	agg_free(a);
	a = agg_new(p, KEY_FUNCTION);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "f (a.py)| 4 7\nbare_name| 3 3\n(no function)| 2 2\npoll (libc.so.6)| 1 1\ng (b.py)| 0 1\n");
	agg_free(a);
	a = agg_new(p, KEY_LIB);
	agg_sort(a, AGG_BY_SELF);
	expect_rows(a, "libc.so.6| 1 1\n");
	assert_int_equal(agg_missing(a, 0), 0);
	agg_free(a);
	prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_function_file_line_lib),
		cmocka_unit_test(test_root_thread_process),
		cmocka_unit_test(test_ties_and_empty),
		cmocka_unit_test(test_thread_count),
		cmocka_unit_test(test_frame_unchanged),
		cmocka_unit_test(test_category_exclusive),
		cmocka_unit_test(test_category_inclusive),
		cmocka_unit_test(test_pairs),
		cmocka_unit_test(test_pairs_unkeyed),
		cmocka_unit_test(test_source),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_conserved),
	};
	return cmocka_run_group_tests_name("agg", tests, NULL, NULL);
}
