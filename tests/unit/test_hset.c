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

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_distinct) };
	return cmocka_run_group_tests_name("hset", tests, NULL, NULL);
}
