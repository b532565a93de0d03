/* test_agg: self and total per key; recursion once; root, thread and process semantics;
 * keys of filtered-out stacks left out; sort orders; thread count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "agg.h"

#define P1 "process 10:\"torchrun\""
#define P2 "process 11:\"python train.py; x\""
#define T1 "thread (11): MainThread"
#define T2 "thread (0x1f): Thread-2 (worker)"
#define MAIN "main (a.py:1)"

static void add(prof *p, uint64_t count, ...)
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

static prof *sample(void)
{
	prof *p = prof_new();
	add(p, 5, P1, P2, T1, MAIN, "work (a.py:2)", "work (a.py:3)", NULL);
	add(p, 2, P1, T1, MAIN, "other (b.py:7)", NULL);
	add(p, 3, T2, MAIN, NULL);
	add(p, 4, NULL);
	add(p, 1, MAIN, "0x7f00 (libc.so.6)", NULL);
	add(p, 6, "[...more user code...]", MAIN, NULL);
	/* A frame interned but in no stack (its stack was filtered out): no row. */
	intern_add(prof_frames(p), "dropped (c.py:1)", 16);
	intern_add(prof_frames(p), "thread (99): Gone", 17);
	return p;
}

static void expect(enum frame_key key, enum agg_order order, const char *want, uint64_t unkeyed)
{
	prof *p = sample();
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
	       "other (b.py:7) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n"
	       "work (a.py:2) 0 5\n", 4);
	expect(KEY_FRAME, AGG_BY_TOTAL,
	       MAIN " 9 17\n"
	       "work (a.py:3) 5 5\n"
	       "work (a.py:2) 0 5\n"
	       "other (b.py:7) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n", 4);
}

static void test_function_file_line_lib(void **state)
{
	(void)state;
	/* work (a.py) twice in one stack counts once in total. */
	expect(KEY_FUNCTION, AGG_BY_SELF,
	       "main (a.py) 9 17\n"
	       "work (a.py) 5 5\n"
	       "other (b.py) 2 2\n"
	       "0x7f00 (libc.so.6) 1 1\n", 4);
	expect(KEY_FILE, AGG_BY_SELF,
	       "a.py 14 17\n"
	       "b.py 2 2\n"
	       "libc.so.6 1 1\n", 4);
	expect(KEY_LINE, AGG_BY_TOTAL,
	       "a.py:1 9 17\n"
	       "a.py:3 5 5\n"
	       "a.py:2 0 5\n"
	       "b.py:7 2 2\n"
	       "libc.so.6 1 1\n", 4);
	expect(KEY_LIB, AGG_BY_SELF, "libc.so.6 1 1\n", 20);
}

static void test_root_thread_process(void **state)
{
	(void)state;
	/* root: the first frame under the pseudo-frames; a tag frame counts as a root. */
	expect(KEY_ROOT, AGG_BY_SELF,
	       MAIN " 11 11\n"
	       "[...more user code...] 6 6\n", 4);
	expect(KEY_THREAD, AGG_BY_SELF,
	       T1 " 7 7\n"
	       T2 " 3 3\n", 11);
	/* The innermost process is the stack's own (self); its parents get total. */
	expect(KEY_PROCESS, AGG_BY_SELF,
	       P2 " 5 5\n"
	       P1 " 2 7\n", 14);
	expect(KEY_PROCESS, AGG_BY_TOTAL,
	       P1 " 2 7\n"
	       P2 " 5 5\n", 14);
}

static void test_ties_and_empty(void **state)
{
	(void)state;
	prof *p = prof_new();
	add(p, 2, "b", NULL);
	add(p, 2, "a", NULL);
	add(p, 2, "c;x", NULL);
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
	prof *p = sample();
	assert_int_equal(agg_thread_count(p), 2); /* "thread (99): Gone" is in no stack */
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
	};
	return cmocka_run_group_tests_name("agg", tests, NULL, NULL);
}
