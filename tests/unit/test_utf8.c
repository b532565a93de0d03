/* test_utf8: a character's length, a text's validity (folded lines), ASCII eight bytes at a
 * time, and bytes that are no UTF-8 written as '?' (sift-tput's lines). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "utf8.h"

static void test_char(void **state)
{
	(void)state;
	const unsigned char *s = (const unsigned char *)"a\xc3\xa9\xe2\x96\x88\xf0\x9f\x94\xa5";
	assert_int_equal(utf8_char(s, 10, 0), 1);
	assert_int_equal(utf8_char(s, 10, 1), 2);
	assert_int_equal(utf8_char(s, 10, 3), 3);
	assert_int_equal(utf8_char(s, 10, 6), 4);
	assert_int_equal(utf8_char(s, 9, 6), 0);  /* cut short */
	assert_int_equal(utf8_char(s, 10, 2), 0); /* a continuation byte alone */
}

/* Each length's edges written as UTF-8, and read back as one character of that length. */
static void test_put(void **state)
{
	(void)state;
	static const struct { unsigned cp; const char *want; } cases[] = {
		{ 0x41, "A" }, { 0x7f, "\x7f" }, { 0x80, "\xc2\x80" }, { 0x7ff, "\xdf\xbf" },
		{ 0x800, "\xe0\xa0\x80" }, { 0xe9, "\xc3\xa9" }, { 0xffff, "\xef\xbf\xbf" },
		{ 0x10000, "\xf0\x90\x80\x80" }, { 0x1f600, "\xf0\x9f\x98\x80" }, { 0x10ffff, "\xf4\x8f\xbf\xbf" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char o[4];
		size_t n = utf8_put(o, cases[i].cp);
		assert_int_equal(n, strlen(cases[i].want));
		assert_memory_equal(o, cases[i].want, n);
		assert_int_equal(utf8_char((const unsigned char *)o, n, 0), n);
	}
}

static void test_valid(void **state)
{
	(void)state;
	assert_true(utf8_valid("caf\xc3\xa9 \xe2\x96\x88 \xf0\x9f\x94\xa5", 14));
	assert_false(utf8_valid("\xc0\x80", 2));          /* overlong */
	assert_false(utf8_valid("\xe0\x9f\xbf", 3));      /* overlong, three bytes */
	assert_false(utf8_valid("\xed\xa0\x80", 3));      /* surrogate */
	assert_false(utf8_valid("\xf4\x90\x80\x80", 4));  /* past U+10FFFF */
	assert_false(utf8_valid("abc\xe2\x96", 5));       /* cut short */
	assert_true(utf8_valid("plain ascii text here", 21));
	assert_false(utf8_valid("plain ascii text \xff here", 23));  /* after an 8-byte run */
	assert_true(utf8_valid("", 0));
}

static void test_ascii(void **state)
{
	(void)state;
	assert_true(utf8_ascii("", 0));
	assert_true(utf8_ascii("step 10 | 980 tok/s, loss 2.1", 29));
	assert_false(utf8_ascii("step 10 | 980 tok/s \xe2\x96\x88", 23));  /* in the tail */
	assert_false(utf8_ascii("\x80" "bcdefgh", 8));  /* in a word */
}

/* Bytes that are no UTF-8 become '?'; UTF-8 of every length stays. */
static void test_fix(void **state)
{
	(void)state;
	char gbk[] = "Epoch 1:   2%|\xa8\x87         | 1/48 [00:00<00:38,  1.23it/s]";
	assert_int_equal(utf8_fix(gbk, strlen(gbk)), 2);
	assert_string_equal(gbk, "Epoch 1:   2%|??         | 1/48 [00:00<00:38,  1.23it/s]");
	char good[] = "\xe2\x96\x88\xe2\x96\x8c caf\xc3\xa9 \xf0\x9f\x9a\x80";
	char copy[sizeof good];
	memcpy(copy, good, sizeof good);
	assert_int_equal(utf8_fix(good, strlen(good)), 0);
	assert_string_equal(good, copy);
	/* overlong, a surrogate, past U+10FFFF, a character cut at the end */
	char bad[] = "\xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x96";
	assert_int_equal(utf8_fix(bad, strlen(bad)), 11);
	assert_string_equal(bad, "?? ??? ???? ??");
}

static void test_nul_high(void **state)
{
	(void)state;
	/* one NUL or one high byte anywhere, in the 16-byte steps, the 8-byte ones or the tail */
	char buf[64];
	for (size_t len = 0; len <= 40; len++) {
		for (size_t at = 0; at <= len; at++) {
			memset(buf, 'a', sizeof buf);
			buf[len] = '\0';  /* past the end: never seen */
			assert_int_equal(utf8_nul_high(buf, len), 0);
			if (at == len)
				continue;
			buf[at] = '\0';
			assert_int_equal(utf8_nul_high(buf, len), UTF8_NUL);
			buf[at] = (char)0x80;
			assert_int_equal(utf8_nul_high(buf, len), UTF8_HIGH);
			buf[len - 1 - (len - 1 - at) / 2] = '\0';
			assert_int_equal(utf8_nul_high(buf, len), at == len - 1 - (len - 1 - at) / 2 ? UTF8_NUL : UTF8_NUL | UTF8_HIGH);
		}
	}
	assert_int_equal(utf8_nul_high("h\xc3\xa9llo, \xe4\xb8\x96\xe7\x95\x8c", 14), UTF8_HIGH);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_char),
		cmocka_unit_test(test_put),
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_ascii),
		cmocka_unit_test(test_fix),
		cmocka_unit_test(test_nul_high),
	};
	return cmocka_run_group_tests_name("utf8", tests, NULL, NULL);
}
