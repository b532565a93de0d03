/* intern: distinct strings stored once, each known by a dense 32-bit id. */
#ifndef SIFT_INTERN_H
#define SIFT_INTERN_H

#include <stddef.h>
#include <stdint.h>

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

/* The hash every sift table uses: words of 8 bytes (little-endian), the last 0-7 bytes
 * zero-padded as one more word, then the length. The steps are public so a scanner can
 * hash while it splits. */
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

#endif
