/* test_xalloc: allocation wrappers: zero sizes, growth by doubling from 16, copies, and the
 * one fatal path a test can reach (a size that overflows) as exit 1 with its message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "err.h"
#include "xalloc.h"

static void test_zero_sizes(void **state)
{
	(void)state;
	/* A size of 0 still gives a pointer the caller may free (never NULL, never a failure). */
	char *a = xmalloc(0), *b = xcalloc(0, 0), *c = xrealloc(NULL, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	free(a);
	free(b);
	free(c);
}

static void test_calloc_realloc(void **state)
{
	(void)state;
	unsigned char *z = xcalloc(5, 3);
	for (size_t i = 0; i < 15; i++)
		assert_int_equal(z[i], 0);
	memcpy(z, "abcdefghijklmno", 15);
	z = xrealloc(z, 1000);
	assert_memory_equal(z, "abcdefghijklmno", 15);
	free(z);
}

static void test_grow(void **state)
{
	(void)state;
	size_t cap = 0;
	int *v = xgrow(NULL, &cap, 1, sizeof *v);
	assert_int_equal(cap, 16);
	v[15] = 7;
	int *same = xgrow(v, &cap, 16, sizeof *v);  /* room enough: untouched */
	assert_ptr_equal(same, v);
	assert_int_equal(cap, 16);
	v = xgrow(v, &cap, 17, sizeof *v);
	assert_int_equal(cap, 32);
	assert_int_equal(v[15], 7);
	v = xgrow(v, &cap, 100, sizeof *v);        /* doubled as often as it takes */
	assert_int_equal(cap, 128);
	free(v);
	cap = 5;                                   /* a capacity set by hand doubles from itself */
	char *s = xgrow(NULL, &cap, 6, 1);
	assert_int_equal(cap, 10);
	free(s);
}

static void overflow(void *arg)
{
	(void)arg;
	size_t cap = 0;
	/* 16 * 2^k elements of 8 bytes pass SIZE_MAX before reaching need: caught before any
	 * allocation. */
	xgrow(NULL, &cap, SIZE_MAX / 4, 8);
}

static void test_grow_overflow(void **state)
{
	(void)state;
	struct captured *c = malloc(sizeof *c);
	assert_non_null(c);
	capture_run(overflow, NULL, c);
	assert_int_equal(c->status, 1);
	assert_string_equal(c->err, "test_xalloc: out of memory\n");
	assert_string_equal(c->out, "");
	free(c);
}

static void test_strndup(void **state)
{
	(void)state;
	char *d = xstrndup("abc\0def", 7);         /* the bytes asked for, NULs and all */
	assert_memory_equal(d, "abc\0def\0", 8);
	free(d);
	d = xstrndup("abcdef", 3);
	assert_string_equal(d, "abc");
	free(d);
	d = xstrndup("", 0);
	assert_string_equal(d, "");
	free(d);
}

static void test_hint_huge(void **state)
{
	(void)state;
	/* Only a hint: the bytes of a small and of a large block are left as they were. */
	char small[64];
	memset(small, 'x', sizeof small);
	xalloc_hint_huge(small, sizeof small);
	for (size_t i = 0; i < sizeof small; i++)
		assert_int_equal(small[i], 'x');
	size_t n = 16u << 20;
	unsigned char *big = xmalloc(n);
	for (size_t i = 0; i < n; i += 4096)
		big[i] = (unsigned char)(i >> 12);
	xalloc_hint_huge(big, n);
	for (size_t i = 0; i < n; i += 4096)
		assert_int_equal(big[i], (unsigned char)(i >> 12));
	free(big);
}

int main(void)
{
	err_set_prog("test_xalloc");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_sizes),
		cmocka_unit_test(test_calloc_realloc),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_grow_overflow),
		cmocka_unit_test(test_strndup),
		cmocka_unit_test(test_hint_huge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
