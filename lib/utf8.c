/* utf8: UTF-8 checks shared by the readers. */
#include "utf8.h"

#include <stdint.h>
#include <string.h>

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
