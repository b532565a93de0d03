/* intern: open addressing over an arena of strings; ids are insertion order. */
#include "intern.h"
#include "err.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { FIRST_CHUNK = 4096, CHUNK = 1 << 20 }; /* chunks double up to CHUNK: small inputs stay small */

/* A slot holds what a lookup compares, so that it costs one load of the slot and then the
 * string: the string itself, 16 bits of the hash beside the length (LONG: see lens[]). */
enum { LONG = 0xFFFF };
struct entry { const char *str; uint32_t id; uint32_t tag; };

static inline uint32_t tag_of(uint64_t hash, size_t len)
{
	return ((uint32_t)(hash >> 32) & 0xFFFF0000u) | (uint32_t)(len < LONG ? len : LONG);
}

struct intern {
	struct entry *slots;  /* str NULL when empty */
	size_t nslots;
	const char **strs;    /* by id */
	uint32_t *lens;
	uint64_t *hashes;     /* by id: where a slot goes when the table grows */
	size_t count, cap;
	char **chunks;        /* arena chunks holding the strings */
	size_t nchunks, chunks_cap;
	char *free_at;
	size_t free_left;
};

uint64_t intern_hash(const void *data, size_t len) { return intern_hash_inline(data, len); }

intern *intern_new(void)
{
	intern *in = xcalloc(1, sizeof *in);
	in->nslots = 1024;
	in->slots = xcalloc(in->nslots, sizeof *in->slots);
	return in;
}

void intern_free(intern *in)
{
	if (!in)
		return;
	for (size_t i = 0; i < in->nchunks; i++)
		free(in->chunks[i]);
	free(in->chunks);
	free(in->slots);
	free(in->strs);
	free(in->lens);
	free(in->hashes);
	free(in);
}

static char *arena_copy(intern *in, const char *s, size_t len)
{
	if (len + 1 > in->free_left) {
		size_t step = in->nchunks >= 8 ? CHUNK : (size_t)FIRST_CHUNK << in->nchunks;
		size_t size = len + 1 > step / 4 ? len + 1 : step;
		in->chunks = xgrow(in->chunks, &in->chunks_cap, in->nchunks + 1, sizeof *in->chunks);
		char *chunk = xmalloc(size);
		in->chunks[in->nchunks++] = chunk;
		if (size != step) { /* a big string gets a chunk of its own */
			memcpy(chunk, s, len);
			chunk[len] = '\0';
			return chunk;
		}
		in->free_at = chunk;
		in->free_left = size;
	}
	char *d = in->free_at;
	memcpy(d, s, len);
	d[len] = '\0';
	in->free_at += len + 1;
	in->free_left -= len + 1;
	return d;
}

/* Equal bytes? Inline, 8 at a time with the last 8 (or 4) overlapping: frames are short,
 * and a libc call costs more than the compare itself on this hot path. */
static inline int same_bytes(const char *a, const char *b, size_t len)
{
	uint64_t x, y;
	if (len >= 8) {
		for (size_t i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return x == y;
	}
	if (len >= 4) {
		uint32_t u, v, u2, v2;
		memcpy(&u, a, 4);
		memcpy(&v, b, 4);
		memcpy(&u2, a + len - 4, 4);
		memcpy(&v2, b + len - 4, 4);
		return ((u ^ v) | (u2 ^ v2)) == 0;
	}
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static size_t probe(const intern *in, uint64_t hash, const char *s, size_t len)
{
	size_t mask = in->nslots - 1, i = (size_t)hash & mask;
	uint32_t tag = tag_of(hash, len);
	for (;;) {
		const struct entry *e = &in->slots[i];
		if (!e->str)
			return i;
		if (e->tag == tag && (len < LONG || in->lens[e->id] == len) && same_bytes(e->str, s, len))
			return i;
		i = (i + 1) & mask;
	}
}

static void grow_slots(intern *in)
{
	size_t old_n = in->nslots;
	struct entry *old = in->slots;
	in->nslots *= 2;
	in->slots = xcalloc(in->nslots, sizeof *in->slots);
	size_t mask = in->nslots - 1;
	for (size_t i = 0; i < old_n; i++) {
		if (!old[i].str)
			continue;
		size_t j = (size_t)in->hashes[old[i].id] & mask;
		while (in->slots[j].str)
			j = (j + 1) & mask;
		in->slots[j] = old[i];
	}
	free(old);
}

uint32_t intern_find(const intern *in, const char *s, size_t len)
{
	const struct entry *e = &in->slots[probe(in, intern_hash(s, len), s, len)];
	return e->str ? e->id : INTERN_NONE;
}

uint32_t intern_add(intern *in, const char *s, size_t len)
{
	return intern_add_hashed(in, s, len, intern_hash(s, len));
}

uint32_t intern_add_hashed(intern *in, const char *s, size_t len, uint64_t hash)
{
	if (len > UINT32_MAX)
		err_exit(EXIT_DATA, "string of %zu bytes is too long", len);
	size_t i = probe(in, hash, s, len);
	if (in->slots[i].str)
		return in->slots[i].id;
	if (in->count >= UINT32_MAX - 1)
		err_exit(EXIT_DATA, "too many distinct strings");
	size_t old_cap = in->cap;
	in->strs = xgrow(in->strs, &in->cap, in->count + 1, sizeof *in->strs);
	if (in->cap != old_cap) { /* lens and hashes grow in step with strs */
		in->lens = xrealloc(in->lens, in->cap * sizeof *in->lens);
		in->hashes = xrealloc(in->hashes, in->cap * sizeof *in->hashes);
	}
	uint32_t id = (uint32_t)in->count++;
	in->strs[id] = arena_copy(in, s, len);
	in->lens[id] = (uint32_t)len;
	in->hashes[id] = hash;
	in->slots[i] = (struct entry){ in->strs[id], id, tag_of(hash, len) };
	if (in->count * 2 > in->nslots)
		grow_slots(in);
	return id;
}

const char *intern_str(const intern *in, uint32_t id, size_t *len)
{
	if (len)
		*len = in->lens[id];
	return in->strs[id];
}

size_t intern_count(const intern *in) { return in->count; }
