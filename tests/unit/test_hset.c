/* test_hset: distinct hashes counted once, zero included, across growth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hset.h"

static void test_distinct(void **state)
{
	(void)state;
	hset *s = hset_new();
	assert_int_equal(hset_add(s, 42), 1);
	assert_int_equal(hset_add(s, 42), 0);
	assert_int_equal(hset_add(s, 0), 1);
	assert_int_equal(hset_add(s, 0), 0);
	for (uint64_t i = 1; i <= 100000; i++)
		hset_add(s, i * 0x9E3779B97F4A7C15ull);
	for (uint64_t i = 1; i <= 100000; i++)
		assert_int_equal(hset_add(s, i * 0x9E3779B97F4A7C15ull), 0);
	assert_int_equal(hset_count(s), 100002);
	hset_free(s);
}

static void test_later(void **state)
{
	(void)state;
	/* Adds held back are counted, merged and seen by a later add; repeats, 0 and growth
	 * while some wait change nothing. */
	hset *a = hset_new(), *b = hset_new();
	for (uint64_t i = 0; i < 5000; i++) {
		hset_add_later(a, (i % 3000) * 0x9E3779B97F4A7C15ull);
		hset_add_later(b, (i + 2000) * 0x9E3779B97F4A7C15ull);
	}
	hset_add_later(a, 0);
	assert_int_equal(hset_add(a, 7 * 0x9E3779B97F4A7C15ull), 0);
	assert_int_equal(hset_count(a), 3000);  /* 0 is i == 0's hash too */
	hset_add_later(a, 1);
	hset_merge(a, b);
	assert_int_equal(hset_count(a), 7001);
	assert_int_equal(hset_count(b), 5000);
	hset_free(a);
	hset_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_distinct), cmocka_unit_test(test_later) };
	return cmocka_run_group_tests_name("hset", tests, NULL, NULL);
}
