/* utf8: UTF-8 checks shared by the readers. */
#include "utf8.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Where the ASCII run from s[i] ends, eight bytes a step (then byte by byte from there). */
static size_t ascii_run(const unsigned char *s, size_t len, size_t i)
{
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof w);
		if (w & 0x8080808080808080ULL)
			break;
	}
	while (i < len && s[i] < 0x80)
		i++;
	return i;
}

int utf8_ascii(const char *s, size_t len)
{
	return ascii_run((const unsigned char *)s, len, 0) == len;
}

unsigned utf8_nul_high(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	unsigned found = 0;
#ifdef __SSE2__
	__m128i any = _mm_setzero_si128(), nul = _mm_setzero_si128();
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		any = _mm_or_si128(any, v);
		nul = _mm_or_si128(nul, _mm_cmpeq_epi8(v, _mm_setzero_si128()));
	}
	found |= (_mm_movemask_epi8(nul) ? UTF8_NUL : 0) | (_mm_movemask_epi8(any) ? UTF8_HIGH : 0);
#endif
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t any8 = 0, nul8 = 0;
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, sizeof w);
		any8 |= w;
		nul8 |= (w - ones) & ~w & highs;  /* nonzero when a byte of w is 0 */
	}
	for (; i < len; i++) {
		any8 |= s[i];
		nul8 |= s[i] == 0;
	}
	return found | (nul8 ? UTF8_NUL : 0) | (any8 & highs ? UTF8_HIGH : 0);
}

int utf8_valid(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	for (size_t i = ascii_run(s, len, 0); i < len; i = ascii_run(s, len, i)) {
		size_t n = utf8_char(s, len, i);
		if (n == 0)
			return 0;
		i += n;
	}
	return 1;
}

size_t utf8_fix(char *str, size_t len)
{
	unsigned char *s = (unsigned char *)str;
	size_t fixed = 0;
	for (size_t i = ascii_run(s, len, 0); i < len; i = ascii_run(s, len, i)) {
		size_t n = utf8_char(s, len, i);
		if (n) {
			i += n;
			continue;
		}
		s[i++] = '?';
		fixed++;
	}
	return fixed;
}
