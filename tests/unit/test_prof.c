/* test_prof: stacks add, empty stacks, overflow refused, sorted folded output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "prof.h"

static uint32_t f(prof *p, const char *s) { return intern_add(prof_frames(p), s, strlen(s)); }

static char *folded(const prof *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(prof_write_folded(p, out), 0);
	fclose(out);
	return text;
}

static void test_add_and_merge(void **state)
{
	(void)state;
	prof *p = prof_new();
	uint32_t main_ = f(p, "main (a.py:1)"), work = f(p, "work (a.py:2)"), b = f(p, "b");
	uint32_t s1[] = { main_, work }, s2[] = { main_ }, s3[] = { work, main_ };
	assert_int_equal(prof_add(p, s1, 2, 5), 0);
	assert_int_equal(prof_add(p, s2, 1, 2), 0);
	assert_int_equal(prof_add(p, s1, 2, 10), 0);
	assert_int_equal(prof_add(p, s3, 2, 1), 0);
	assert_int_equal(prof_add(p, NULL, 0, 4), 0); /* an empty stack, " 4" */
	assert_int_equal(prof_add(p, NULL, 0, 3), 0);
	uint32_t s4[] = { b, b, b };
	assert_int_equal(prof_add(p, s4, 3, 0), 0);
	assert_int_equal(prof_stack_count(p), 5);
	assert_int_equal(prof_total(p), 25);
	size_t n;
	uint64_t count;
	const uint32_t *ids = prof_stack(p, 0, &n, &count);
	assert_int_equal(n, 2);
	assert_int_equal(count, 15);
	assert_memory_equal(ids, s1, sizeof s1);
	prof_stack(p, 3, &n, &count);
	assert_int_equal(n, 0);
	assert_int_equal(count, 7);
	prof_stack(p, 4, &n, NULL);
	assert_int_equal(n, 3);
	char *text = folded(p);
	assert_string_equal(text, "main (a.py:1);work (a.py:2) 15\nmain (a.py:1) 2\nwork (a.py:2);main (a.py:1) 1\n 7\nb;b;b 0\n");
	free(text);
	prof_sort(p);
	text = folded(p);
	assert_string_equal(text, " 7\nb;b;b 0\nmain (a.py:1) 2\nmain (a.py:1);work (a.py:2) 15\nwork (a.py:2);main (a.py:1) 1\n");
	free(text);
	/* After sorting, stacks are still found and add up. */
	assert_int_equal(prof_add(p, s3, 2, 1), 0);
	assert_int_equal(prof_add(p, NULL, 0, 1), 0);
	assert_int_equal(prof_stack_count(p), 5);
	prof_stack(p, 4, &n, &count);
	assert_int_equal(count, 2);
	prof_stack(p, 0, &n, &count);
	assert_int_equal(count, 8);
	prof_free(p);
	prof_free(NULL);
}

static void test_empty_stack_first(void **state)
{
	(void)state;
	prof *p = prof_new();
	assert_int_equal(prof_add(p, NULL, 0, 4), 0);
	assert_int_equal(prof_add(p, NULL, 0, 4), 0);
	assert_int_equal(prof_stack_count(p), 1);
	assert_int_equal(prof_total(p), 8);
	/* Fuzz finding (regress/fuzz_load/empty-stack-first): its frames point into a real
	 * array, not NULL + 0. */
	size_t n = 1;
	assert_non_null(prof_stack(p, 0, &n, NULL));
	assert_int_equal(n, 0);
	char *text = folded(p);
	assert_string_equal(text, " 8\n");
	free(text);
	prof_free(p);
}

static void test_sort_empty(void **state)
{
	(void)state;
	prof *p = prof_new();
	prof_sort(p);
	assert_int_equal(prof_stack_count(p), 0);
	char *text = folded(p);
	assert_string_equal(text, "");
	free(text);
	prof_free(p);
}

static void test_overflow_refused(void **state)
{
	(void)state;
	prof *p = prof_new();
	uint32_t a = f(p, "a"), b = f(p, "b");
	assert_int_equal(prof_add(p, &a, 1, UINT64_MAX - 1), 0);
	assert_int_equal(prof_add(p, &b, 1, 2), -1);
	assert_int_equal(prof_add(p, &a, 1, 2), -1);
	assert_int_equal(prof_add(p, &b, 1, 1), 0);
	assert_true(prof_total(p) == UINT64_MAX);
	assert_int_equal(prof_stack_count(p), 2);
	char *text = folded(p);
	assert_string_equal(text, "a 18446744073709551614\nb 1\n");
	free(text);
	prof_free(p);
}

static void test_many_stacks_sorted(void **state)
{
	(void)state;
	/* Enough stacks to rehash several times; sorting orders by frame text. */
	prof *p = prof_new();
	char buf[32];
	uint32_t root = f(p, "root");
	for (int i = 4999; i >= 0; i--) {
		snprintf(buf, sizeof buf, "f%05d", i);
		uint32_t st[] = { root, f(p, buf) };
		assert_int_equal(prof_add(p, st, 2, (uint64_t)i), 0);
		assert_int_equal(prof_add(p, st, 2, 1), 0);
	}
	assert_int_equal(prof_stack_count(p), 5000);
	assert_int_equal(prof_total(p), 4999 * 5000 / 2 + 5000);
	prof_sort(p);
	for (size_t s = 0; s < 5000; s += 499) {
		size_t n;
		uint64_t count;
		const uint32_t *ids = prof_stack(p, s, &n, &count);
		snprintf(buf, sizeof buf, "f%05zu", s);
		assert_string_equal(intern_str(prof_frames_const(p), ids[1], NULL), buf);
		assert_int_equal(count, s + 1);
	}
	prof_free(p);
}

static void test_write_error(void **state)
{
	(void)state;
	prof *p = prof_new();
	uint32_t a = f(p, "a");
	assert_int_equal(prof_add(p, &a, 1, 1), 0);
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	setvbuf(full, NULL, _IONBF, 0);
	assert_int_equal(prof_write_folded(p, full), -1);
	fclose(full);
	prof_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_and_merge),
		cmocka_unit_test(test_empty_stack_first),
		cmocka_unit_test(test_sort_empty),
		cmocka_unit_test(test_overflow_refused),
		cmocka_unit_test(test_many_stacks_sorted),
		cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests_name("prof", tests, NULL, NULL);
}
