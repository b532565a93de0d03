/* test_tputbyte: byte classes, the next digit (16 bytes at a time), a line's shape, cache sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tputbyte.h"

static void test_classes(void **state)
{
	(void)state;
	assert_true(tputbyte_digit('0') && tputbyte_digit('9') && !tputbyte_digit('a') && !tputbyte_digit('/'));
	assert_true(tputbyte_alpha('a') && tputbyte_alpha('Z') && !tputbyte_alpha('@') && !tputbyte_alpha('['));
	assert_true(tputbyte_alnum('q') && tputbyte_alnum('4') && !tputbyte_alnum('_'));
	assert_true(tputbyte_word('_') && tputbyte_word('x') && !tputbyte_word('-') && !tputbyte_word((char)0xc3));
	static const char stops[] = ",|;{}[]'\"\t:=<>*";
	for (int c = 1; c < 256; c++)
		assert_int_equal(tputbyte_key_stop((char)c), strchr(stops, c) != NULL);
}

/* The next digit, at every offset of lines longer than one 16-byte step. */
static void test_next_digit(void **state)
{
	(void)state;
	const char *s = "step: tokens per second, throughput=9 and 12";
	size_t len = strlen(s);
	assert_int_equal(tputbyte_next_digit(s, len, 0), 36);
	assert_int_equal(tputbyte_next_digit(s, len, 36), 36);
	assert_int_equal(tputbyte_next_digit(s, len, 37), 42);
	assert_int_equal(tputbyte_next_digit(s, len, 44), 44);
	assert_int_equal(tputbyte_next_digit(s, 36, 0), 36);  /* none before len */
	assert_int_equal(tputbyte_next_digit("", 0, 0), 0);
	assert_true(tputbyte_has_digit("a1", 2));
	assert_false(tputbyte_has_digit("no figure at all in this long line of words", 43));
}

static void test_shape(void **state)
{
	(void)state;
	const char *s = "[rank12]:step: 345  loss: 6.78  tps: 9,012  x";
	char out[64];
	tputbyte_shape(s, strlen(s), out);
	assert_memory_equal(out, "[rank00]:step: 000  loss: 0.00  tps: 0,000  x", strlen(s));
}

/* Equal keys go to one set, every set index is in range. */
static void test_sets(void **state)
{
	(void)state;
	assert_int_equal(tputbyte_set("step", 4), tputbyte_set("step", 4));
	assert_int_equal(tputbyte_set("step", 4), 79);
	const char *keys[] = { "", "a", "tokens_per_second", "a key longer than sixteen bytes, with its tail" };
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		assert_true(tputbyte_set(keys[i], strlen(keys[i])) < TPUTBYTE_SETS);
	assert_true(tputbyte_set("step_time", 9) != tputbyte_set("step_tim0", 9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes),
		cmocka_unit_test(test_next_digit),
		cmocka_unit_test(test_shape),
		cmocka_unit_test(test_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
