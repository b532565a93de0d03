/* folded: the count is after the last space; frames split on ';' outside process command lines. */
#include "folded.h"
#include "intern.h"
#include "utf8.h"

#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum folded_result folded_parse(const char *line, size_t len, struct folded_line *out,
				const char **reason)
{
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	size_t lead = 0;
	while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
		lead++;
	if (lead == len)
		return FOLDED_BLANK;
	unsigned bytes = utf8_nul_high(line, len);  /* both checks in one pass */
	if (bytes & UTF8_NUL) {
		*reason = "NUL byte in line";
		return FOLDED_BAD;
	}
	/* The count: digits after the last blank. */
	size_t sep = len;
	while (sep > 0 && line[sep - 1] != ' ' && line[sep - 1] != '\t')
		sep--;
	if (sep == 0) {
		*reason = "no count after the stack";
		return FOLDED_BAD;
	}
	const char *digits = line + sep;
	size_t ndigits = len - sep;
	if (digits[0] == '-' && ndigits > 1) {
		*reason = "negative count";
		return FOLDED_BAD;
	}
	uint64_t count = 0;
	for (size_t i = 0; i < ndigits; i++) {
		unsigned d = (unsigned char)digits[i] - '0';
		if (d > 9) {
			*reason = i > 0 && (digits[i] == '.' || digits[i] == 'e' || digits[i] == 'E')
					  ? "count is not an integer"
					  : "no count after the stack";
			return FOLDED_BAD;
		}
		if (count > (UINT64_MAX - d) / 10) {
			*reason = "count overflows 64 bits";
			return FOLDED_BAD;
		}
		count = count * 10 + d;
	}
	size_t end = sep - 1;
	while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
		end--;
	if (lead > end) /* an empty stack, " 4" */
		lead = end;
	if ((bytes & UTF8_HIGH) && !utf8_valid(line + lead, end - lead)) {
		*reason = "invalid UTF-8";
		return FOLDED_BAD;
	}
	out->stack = line + lead;
	out->len = end - lead;
	out->count = count;
	return FOLDED_OK;
}

/* Length of a `process PID:"` opening at s, or 0. */
static size_t process_open(const char *s, size_t len)
{
	if (len < 11 || memcmp(s, "process ", 8) != 0)
		return 0;
	size_t i = 8;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 8 || i + 2 > len || s[i] != ':' || s[i + 1] != '"')
		return 0;
	return i + 2;
}

int folded_next_frame(const char *stack, size_t len, size_t *pos, const char **frame,
		      size_t *frame_len)
{
	size_t start = *pos;
	if (start > len)
		return 0;
	if (start == len) {
		/* A trailing ';' ends with an empty frame, for the caller to reject. */
		if (start == 0 || stack[start - 1] != ';')
			return 0;
		*frame = stack + len;
		*frame_len = 0;
		*pos = len + 1;
		return 1;
	}
	const char *s = stack + start;
	size_t rest = len - start, end;
	size_t open = process_open(s, rest);
	const char *semi = NULL;
	if (open) {
		/* The command line ends at the first `";` (or the end of the stack). */
		for (size_t i = open; i + 1 < rest; i++)
			if (s[i] == '"' && s[i + 1] == ';') {
				semi = s + i + 1;
				break;
			}
	} else {
		semi = memchr(s, ';', rest);
	}
	end = semi ? (size_t)(semi - s) : rest;
	*frame = s;
	*frame_len = end;
	*pos = semi ? start + end + 1 : len + 1;
	return 1;
}

/* Where the first ';' of s[0, n) is, or n: 16 bytes a compare with SSE2 (x86-64's baseline),
 * else 8 bytes a step in a word; the last bytes one by one, nothing read past n. */
static inline size_t find_semi(const unsigned char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i semi = _mm_set1_epi8(';');
	for (; i + 16 <= n; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, semi));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		uint64_t x = w ^ (ones * ';');
		if ((x - ones) & ~x & highs)
			break;  /* the first ';' is in this word */
	}
	while (i < n && s[i] != ';')
		i++;
	return i;
}

int folded_next_frame_hashed(const char *stack, size_t len, size_t *pos, const char **frame,
			     size_t *frame_len, uint64_t *hash)
{
	size_t start = *pos;
	/* Process frames (quoted command lines) and the end take the plain path. */
	if (start >= len || (len - start >= 8 && memcmp(stack + start, "process ", 8) == 0)) {
		int more = folded_next_frame(stack, len, pos, frame, frame_len);
		if (more)
			*hash = intern_hash(*frame, *frame_len);
		return more;
	}
	/* The frame's end first, then its hash in four independent lanes. */
	const unsigned char *s = (const unsigned char *)stack + start;
	size_t rest = len - start, end = find_semi(s, rest);
	*frame = (const char *)s;
	*frame_len = end;
	*hash = intern_hash_inline(s, end);
	*pos = end < rest ? start + end + 1 : len + 1;
	return 1;
}
