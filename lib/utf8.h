/* utf8: UTF-8 as every reader checks it: a character's length, a text's validity, bytes that
 * are no UTF-8 written as '?'. */
#ifndef SIFT_UTF8_H
#define SIFT_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 character at s[i, len) (1 for ASCII), 0 when the bytes are none:
 * a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, or cut short. */
static inline size_t utf8_char(const unsigned char *s, size_t len, size_t i)
{
	unsigned c = s[i];
	if (c < 0x80)
		return 1;
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
	if (n == 0 || c > 0xf4 || i + n > len)
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
	unsigned second = s[i + 1];
	if ((c == 0xe0 && second < 0xa0) || (c == 0xed && second > 0x9f) || (c == 0xf0 && second < 0x90) ||
	    (c == 0xf4 && second > 0x8f))
		return 0;
	return n;
}

/* Code point cp (at most U+10FFFF, no surrogate) written as UTF-8 at o: its length, 1 to 4. */
static inline size_t utf8_put(char *o, unsigned cp)
{
	size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	if (n == 1) {
		o[0] = (char)cp;
		return 1;
	}
	for (size_t k = n - 1; k > 0; k--, cp >>= 6)
		o[k] = (char)(0x80 | (cp & 0x3f));
	o[0] = (char)((n == 2 ? 0xc0 : n == 3 ? 0xe0 : 0xf0) | cp);
	return n;
}

/* Is s[0, len) ASCII (no byte past 0x7f)? Eight bytes at a time. */
int utf8_ascii(const char *s, size_t len);
/* Which of a NUL byte (UTF8_NUL) and a byte past 0x7f (UTF8_HIGH) s[0, len) holds: one pass
 * for a line's two checks, 16 bytes a step with SSE2 (x86-64's baseline), else 8. */
enum { UTF8_NUL = 1, UTF8_HIGH = 2 };
unsigned utf8_nul_high(const char *s, size_t len);
/* Is s[0, len) valid UTF-8? ASCII runs eight bytes at a time. */
int utf8_valid(const char *s, size_t len);
/* Bytes of s[0, len) that are no UTF-8 (a GBK console's bar glyphs, a character cut in two)
 * written as '?' in place: how many were. */
size_t utf8_fix(char *s, size_t len);

#endif
