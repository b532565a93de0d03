/* fuzz_lit: the input is 1 to 8 literals then a haystack; lit_find (SIMD, SSE-only and
 * portable sets) must give the naive leftmost, first-added match at every hit in turn. */
#include "fuzz.h"

#include "lit.h"

/* Layout: byte 0 = number of literals (1 + b % 8); then per literal a length byte
 * (1 + b % 40, cut to what is left) and its bytes; the rest is the haystack. */
static size_t naive(const uint8_t *const *lits, const size_t *lens, size_t n, const uint8_t *t,
		    size_t len, unsigned *id)
{
	for (size_t i = 0; i < len; i++)
		for (size_t k = 0; k < n; k++)
			if (lens[k] <= len - i && memcmp(t + i, lits[k], lens[k]) == 0) {
				*id = (unsigned)k;
				return i;
			}
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t n = 1 + data[0] % 8, pos = 1;
	const uint8_t *lits[8];
	size_t lens[8], got = 0;
	while (got < n && pos < size) {
		size_t l = 1 + data[pos++] % 40;
		if (l > size - pos)
			break;
		lits[got] = data + pos;
		lens[got++] = l;
		pos += l;
	}
	if (got == 0)
		return 0;
	size_t len = size - pos;
	/* An exactly-sized copy: ASan sees any read past either end. */
	uint8_t *hay = malloc(len ? len : 1);
	if (!hay)
		abort();
	memcpy(hay, data + pos, len);
	lit_set *sets[3] = { lit_new(), lit_new_sse(), lit_new_portable() };
	for (size_t s = 0; s < 3; s++)
		for (size_t k = 0; k < got; k++)
			lit_add(sets[s], (const char *)lits[k], lens[k], (unsigned)k + 100);
	for (size_t from = 0; from <= len;) {
		unsigned want_id = 0;
		size_t want = naive(lits, lens, got, hay + from, len - from, &want_id);
		for (size_t s = 0; s < 3; s++) {
			unsigned id = 999;
			size_t at = lit_find(sets[s], (const char *)hay + from, len - from, &id);
			if (at != want || (want < len - from && id != want_id + 100))
				abort();
		}
		if (want == len - from)
			break;
		from += want + 1;
	}
	for (size_t s = 0; s < 3; s++)
		lit_free(sets[s]);
	free(hay);
	return 0;
}
