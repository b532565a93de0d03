/* test_intern: ids in insertion order, lookups, growth, long strings, the hash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "intern.h"

static void test_ids_and_lookup(void **state)
{
	(void)state;
	intern *in = intern_new();
	assert_int_equal(intern_count(in), 0);
	assert_int_equal(intern_find(in, "a", 1), INTERN_NONE);
	assert_int_equal(intern_add(in, "poll (libc.so.6)", 16), 0);
	assert_int_equal(intern_add(in, "", 0), 1);
	assert_int_equal(intern_add(in, "a\0b", 3), 2);
	assert_int_equal(intern_add(in, "a", 1), 3);
	assert_int_equal(intern_add(in, "poll (libc.so.6)", 16), 0);
	assert_int_equal(intern_add(in, "a\0b", 3), 2);
	assert_int_equal(intern_count(in), 4);
	assert_int_equal(intern_find(in, "a", 1), 3);
	assert_int_equal(intern_find(in, "", 0), 1);
	assert_int_equal(intern_find(in, "a\0c", 3), INTERN_NONE);
	size_t len = 99;
	assert_string_equal(intern_str(in, 0, &len), "poll (libc.so.6)");
	assert_int_equal(len, 16);
	assert_memory_equal(intern_str(in, 2, &len), "a\0b", 4);
	assert_int_equal(len, 3);
	assert_string_equal(intern_str(in, 1, NULL), "");
	intern_free(in);
	intern_free(NULL);
}

static void test_growth(void **state)
{
	(void)state;
	intern *in = intern_new();
	char buf[64];
	for (unsigned i = 0; i < 100000; i++) {
		int n = snprintf(buf, sizeof buf, "frame %u (file%u.py:%u)", i, i % 7, i);
		assert_int_equal(intern_add(in, buf, (size_t)n), i);
	}
	assert_int_equal(intern_count(in), 100000);
	for (unsigned i = 0; i < 100000; i += 997) {
		int n = snprintf(buf, sizeof buf, "frame %u (file%u.py:%u)", i, i % 7, i);
		assert_int_equal(intern_find(in, buf, (size_t)n), i);
		size_t len;
		assert_string_equal(intern_str(in, i, &len), buf);
		assert_int_equal(len, (size_t)n);
	}
	intern_free(in);
}

static void test_long_strings(void **state)
{
	(void)state;
	/* Strings over a quarter of a chunk get their own; small ones after still work. */
	intern *in = intern_new();
	size_t big = 3u << 20;
	char *s = malloc(big);
	memset(s, 'q', big);
	assert_int_equal(intern_add(in, "small", 5), 0);
	assert_int_equal(intern_add(in, s, big), 1);
	s[big - 1] = 'r';
	assert_int_equal(intern_add(in, s, big), 2);
	assert_int_equal(intern_add(in, "after", 5), 3);
	size_t len;
	const char *t = intern_str(in, 2, &len);
	assert_int_equal(len, big);
	assert_int_equal(t[big - 1], 'r');
	assert_int_equal(t[big], '\0');
	assert_string_equal(intern_str(in, 0, NULL), "small");
	assert_string_equal(intern_str(in, 3, NULL), "after");
	assert_int_equal(intern_find(in, s, big), 2);
	free(s);
	intern_free(in);
}

static void test_every_byte_compared(void **state)
{
	(void)state;
	/* Lengths 1..40 (the short, overlapping and word-loop compares), each string and one
	 * byte changed at every place: all distinct. Around 64 KB, the length kept whole beside
	 * the slot's tag: the same bytes one shorter are another string. */
	intern *in = intern_new();
	char buf[41];
	uint32_t want = 0;
	for (size_t len = 1; len <= 40; len++) {
		memset(buf, 'a', len);
		assert_int_equal(intern_add(in, buf, len), want++);
		for (size_t at = 0; at < len; at++) {
			buf[at] = 'b';
			assert_int_equal(intern_add(in, buf, len), want++);
			buf[at] = 'a';
		}
	}
	for (size_t len = 1; len <= 40; len++) {
		memset(buf, 'a', len);
		buf[len - 1] = 'b';
		assert_int_equal(intern_find(in, buf, len), (len - 1) * (len + 2) / 2 + len);
	}
	size_t big = 0xFFFF + 2;
	char *s = malloc(big);
	memset(s, 'z', big);
	uint32_t first = want;
	for (size_t len = big; len >= big - 3; len--)
		assert_int_equal(intern_add(in, s, len), want++);
	for (size_t len = big; len >= big - 3; len--)
		assert_int_equal(intern_find(in, s, len), first + (uint32_t)(big - len));
	free(s);
	intern_free(in);
}

static void test_hash(void **state)
{
	(void)state;
	/* Same bytes, same hash, whatever the alignment; lengths and tails all count. */
	char a[64], b[80];
	const char *text = "thread (3732041): MainThread;step (train.py:12)";
	size_t n = strlen(text);
	memcpy(a, text, n);
	memcpy(b + 3, text, n);
	for (size_t len = 0; len <= n; len++)
		assert_true(intern_hash(a, len) == intern_hash(b + 3, len));
	assert_true(intern_hash("abc", 3) != intern_hash("abd", 3));
	assert_true(intern_hash("", 0) != intern_hash("\0", 1));
	assert_true(intern_hash("12345678", 8) != intern_hash("123456789", 9));
	assert_true(intern_hash("x123456789abcdef", 16) != intern_hash("y123456789abcdef", 16));
}

/* The hash as its definition reads, a byte at a time: words of 8 little-endian bytes, the
 * last 0-7 zero-padded as one more, word i into lane i % 4, lanes joined, the length mixed. */
static uint64_t reference_hash(const unsigned char *p, size_t len)
{
	uint64_t lane[4] = { INTERN_HASH_SEED, INTERN_HASH_SEED ^ 0x6A09E667F3BCC909ull,
			     INTERN_HASH_SEED ^ 0xBB67AE8584CAA73Bull, INTERN_HASH_SEED ^ 0x3C6EF372FE94F82Bull };
	for (size_t i = 0; i <= len / 8; i++) {
		uint64_t w = 0;
		for (size_t k = 0; k < 8 && 8 * i + k < len; k++)
			w |= (uint64_t)p[8 * i + k] << (8 * k);
		lane[i % 4] = intern_hash_word(lane[i % 4], w);
	}
	uint64_t h = lane[0];
	for (int j = 1; j < 4; j++)
		h ^= lane[j] << (16 * j) | lane[j] >> (64 - 16 * j);
	return intern_hash_final(h, len);
}

static void test_hash_definition(void **state)
{
	(void)state;
	/* The word loads (overlapping, 4 or 8 bytes) give what the definition says, for every
	 * length across the lanes and the 32-byte blocks, at every alignment. */
	unsigned char buf[160];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 37 + 11);
	for (size_t at = 0; at < 8; at++)
		for (size_t len = 0; len + at <= 150; len++)
			assert_true(intern_hash(buf + at, len) == reference_hash(buf + at, len));
	/* the same on every machine: these values are the hash's, not this one's */
	assert_true(intern_hash("", 0) == 0x9e8c4e81a8c38de2ull);
	assert_true(intern_hash("sched_yield (libc.so.6)", 23) == 0x5fb51d22e06c2e21ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ids_and_lookup),
		cmocka_unit_test(test_growth),
		cmocka_unit_test(test_long_strings),
		cmocka_unit_test(test_every_byte_compared),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_hash_definition),
	};
	return cmocka_run_group_tests_name("intern", tests, NULL, NULL);
}
