/* intern: distinct strings stored once, each known by a dense 32-bit id. */
#ifndef SIFT_INTERN_H
#define SIFT_INTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct intern intern;

#define INTERN_NONE UINT32_MAX

intern *intern_new(void);
void intern_free(intern *in);
/* The id of s, adding it when new. */
uint32_t intern_add(intern *in, const char *s, size_t len);
/* The id of s, or INTERN_NONE. */
uint32_t intern_find(const intern *in, const char *s, size_t len);
/* The string of id (NUL-terminated) and its length. */
const char *intern_str(const intern *in, uint32_t id, size_t *len);
size_t intern_count(const intern *in);

/* As intern_add, with hash = intern_hash(s, len) already known (from a fused scan). */
uint32_t intern_add_hashed(intern *in, const char *s, size_t len, uint64_t hash);

/* The hash every sift table uses, the same on every machine: the bytes as 8-byte little-endian
 * words, the last 0-7 bytes zero-padded as one more word; word i goes to lane i % 4, each lane
 * a chain of intern_hash_word from its own seed, so four words mix at once rather than one
 * after another; then the lanes are joined and the length mixed in (intern_hash_final). The
 * steps are public for hashes of other things (a stack of frame hashes). */
#define INTERN_HASH_SEED 0x9E3779B97F4A7C15ull
uint64_t intern_hash(const void *data, size_t len);
static inline uint64_t intern_hash_word(uint64_t h, uint64_t word)
{
	h = (h ^ (word * 0xFF51AFD7ED558CCDull)) * 0xC4CEB9FE1A85EC53ull;
	return h ^ (h >> 29);
}

static inline uint64_t intern_hash_final(uint64_t h, size_t len)
{
	h = (h ^ (len * 0xC2B2AE3D27D4EB4Full)) * 0xFF51AFD7ED558CCDull;
	return h ^ (h >> 32);
}

/* Bytes p[0, n), n <= 8, as a little-endian word: loads of 8 or 4 bytes that overlap rather
 * than a loop a byte at a time. */
static inline uint64_t intern_le_word(const unsigned char *p, size_t n)
{
	uint64_t w = 0;
	if (n >= 4) {
		uint32_t lo, hi;
		memcpy(&lo, p, 4);
		memcpy(&hi, p + n - 4, 4);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		lo = __builtin_bswap32(lo);
		hi = __builtin_bswap32(hi);
#endif
		return lo | ((uint64_t)hi << (8 * (n - 4)));
	}
	if (n > 0)
		w = p[0] | ((uint64_t)p[n / 2] << (8 * (n / 2))) | ((uint64_t)p[n - 1] << (8 * (n - 1)));
	return w;
}

static inline uint64_t intern_le64(const unsigned char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* intern_hash inline, for the scanners' hot loops. */
static inline uint64_t intern_hash_inline(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t a = INTERN_HASH_SEED, b = a ^ 0x6A09E667F3BCC909ull, c = a ^ 0xBB67AE8584CAA73Bull,
		 d = a ^ 0x3C6EF372FE94F82Bull;
	size_t n = len;
	for (; n >= 32; p += 32, n -= 32) {
		a = intern_hash_word(a, intern_le64(p));
		b = intern_hash_word(b, intern_le64(p + 8));
		c = intern_hash_word(c, intern_le64(p + 16));
		d = intern_hash_word(d, intern_le64(p + 24));
	}
	/* 0-3 whole words, then the padded one (0-7 bytes) in the lane after them; its bytes
	 * loaded as the top of the last 8 when there are 8 */
	size_t r = n % 8;
	uint64_t last = r == 0 ? 0 : len >= 8 ? intern_le64(p + n - 8) >> (8 * (8 - r)) : intern_le_word(p, r);
	switch (n / 8) {
	case 0:
		a = intern_hash_word(a, last);
		break;
	case 1:
		a = intern_hash_word(a, intern_le64(p));
		b = intern_hash_word(b, last);
		break;
	case 2:
		a = intern_hash_word(a, intern_le64(p));
		b = intern_hash_word(b, intern_le64(p + 8));
		c = intern_hash_word(c, last);
		break;
	default:
		a = intern_hash_word(a, intern_le64(p));
		b = intern_hash_word(b, intern_le64(p + 8));
		c = intern_hash_word(c, intern_le64(p + 16));
		d = intern_hash_word(d, last);
		break;
	}
	uint64_t h = a ^ (b << 16 | b >> 48) ^ (c << 32 | c >> 32) ^ (d << 48 | d >> 16);
	return intern_hash_final(h, len);
}

#endif
