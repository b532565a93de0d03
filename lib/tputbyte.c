/* tputbyte: byte scans every sift-tput stage runs on each line it reads, SIMD where there. */
#include "tputbyte.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* The first digit in s[i, len), len when none: 16 bytes at a time where SSE2 is there (the
 * key/value reader hops from figure to figure of every line it reads). */
size_t tputbyte_next_digit(const char *s, size_t len, size_t i)
{
#if defined(__x86_64__)
	const __m128i zero = _mm_setzero_si128(), d0 = _mm_set1_epi8('0'), d9 = _mm_set1_epi8(9);
	for (; i + 16 <= len; i += 16) {
		/* '0' <= x <= '9': x - '0' (wrapping) is at most 9, so 9 off it (saturating) is 0 */
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(x, d0), d9), zero));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < len && !tputbyte_digit(s[i]))
		i++;
	return i;
}

void tputbyte_shape(const char *s, size_t len, char *out)
{
	size_t i = 0;
#if defined(__x86_64__)
	const __m128i zero = _mm_setzero_si128(), d0 = _mm_set1_epi8('0'), d9 = _mm_set1_epi8(9);
	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(s + i));
		__m128i digit = _mm_cmpeq_epi8(_mm_subs_epu8(_mm_sub_epi8(x, d0), d9), zero);
		_mm_storeu_si128((__m128i *)(out + i), _mm_or_si128(_mm_andnot_si128(digit, x), _mm_and_si128(digit, d0)));
	}
#endif
	for (; i < len; i++)
		out[i] = tputbyte_digit(s[i]) ? '0' : s[i];
}

_Static_assert(TPUTBYTE_SETS == 1 << 7, "tputbyte_set takes the hash's top 7 bits");

size_t tputbyte_set(const char *key, size_t len)
{
	/* eight bytes a step, each word multiplied apart (no chain of multiplications to wait
	 * on): this runs for every line with a literal and every figure with a key */
	uint64_t h = len * 0x9e3779b97f4a7c15ULL, word;
	size_t i = 0;
	for (; i + 8 <= len; i += 8) {
		memcpy(&word, key + i, 8);
		h += (word ^ (i * 0x2545f4914f6cdd1dULL)) * 0xff51afd7ed558ccdULL;
	}
	if (i < len) {
		word = 0;
		memcpy(&word, key + i, len - i);
		h += (word ^ (i * 0x2545f4914f6cdd1dULL)) * 0xff51afd7ed558ccdULL;
	}
	h ^= h >> 29;  /* the set from the high bits, which every byte reached */
	return (size_t)((h * 0xc4ceb9fe1a85ec53ULL) >> 57);
}
