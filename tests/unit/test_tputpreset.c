/* test_tputpreset: the presets table: names found, each preset complete for its reader. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tputpreset.h"

static void test_find(void **state)
{
	(void)state;
	assert_int_equal(tputpreset_count, 37);
	assert_int_equal(tputpreset_find("megatron-deepspeed"), 0);
	assert_int_equal(tputpreset_find("torchtitan"), 2);
	assert_int_equal(tputpreset_find("tqdm"), 9);
	assert_int_equal(tputpreset_find("verl"), 33);
	assert_int_equal(tputpreset_find("darknet"), 21);
	assert_int_equal(tputpreset_find("pytracking"), 22);
	assert_int_equal(tputpreset_find("mlperf"), 34);
	assert_int_equal(tputpreset_find("generic"), 35);
	assert_int_equal(tputpreset_find("kv"), 36);
	assert_int_equal(tputpreset_find("Torchtitan"), -1);
	assert_int_equal(tputpreset_find(""), -1);
}

/* A regex preset has a pattern and literals; a key/value one no pattern; the reader's own
 * (kv) no literals of its own; every one an example line and a known unit. */
static void test_complete(void **state)
{
	(void)state;
	for (size_t i = 0; i < tputpreset_count; i++) {
		const struct tput_preset *p = &tputpreset_table[i];
		assert_non_null(p->name);
		assert_non_null(p->source);
		assert_non_null(p->example);
		assert_int_equal(tputpreset_find(p->name), (int)i);
		if (p->reader == TPUT_READ_REGEX) {
			assert_non_null(p->pattern);
			assert_non_null(p->literals[0]);
		} else {
			assert_null(p->pattern);
		}
		assert_true(p->time_scale > 0);
	}
	assert_null(tputpreset_table[tputpreset_find("kv")].literals[0]);
	assert_string_equal(tputpreset_table[tputpreset_find("torchtitan")].unit, "tokens/s/gpu");
	assert_int_equal(tputpreset_table[tputpreset_find("nemo-automodel")].per_device, -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_complete),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
