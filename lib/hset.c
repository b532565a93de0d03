/* hset: open addressing over the hashes themselves; 0 is kept aside as the empty mark. */
#include "hset.h"
#include "xalloc.h"

#include <stdlib.h>

struct hset {
	uint64_t *slots;
	size_t nslots, count;
	int has_zero;
};

hset *hset_new(void)
{
	hset *s = xcalloc(1, sizeof *s);
	s->nslots = 1024;
	s->slots = xcalloc(s->nslots, sizeof *s->slots);
	return s;
}

void hset_free(hset *s)
{
	if (!s)
		return;
	free(s->slots);
	free(s);
}

static void put(uint64_t *slots, size_t mask, uint64_t h)
{
	size_t i = (size_t)(h ^ (h >> 29)) & mask;
	while (slots[i] && slots[i] != h)
		i = (i + 1) & mask;
	slots[i] = h;
}

int hset_add(hset *s, uint64_t h)
{
	if (h == 0) {
		int added = !s->has_zero;
		s->has_zero = 1;
		s->count += (size_t)added;
		return added;
	}
	size_t mask = s->nslots - 1, i = (size_t)(h ^ (h >> 29)) & mask;
	while (s->slots[i]) {
		if (s->slots[i] == h)
			return 0;
		i = (i + 1) & mask;
	}
	s->slots[i] = h;
	s->count++;
	if (s->count * 2 > s->nslots) {
		uint64_t *old = s->slots;
		size_t old_n = s->nslots;
		s->nslots *= 2;
		s->slots = xcalloc(s->nslots, sizeof *s->slots);
		for (size_t k = 0; k < old_n; k++)
			if (old[k])
				put(s->slots, s->nslots - 1, old[k]);
		free(old);
	}
	return 1;
}

size_t hset_count(const hset *s) { return s->count; }

void hset_merge(hset *dst, const hset *src)
{
	if (src->has_zero)
		hset_add(dst, 0);
	for (size_t i = 0; i < src->nslots; i++)
		if (src->slots[i])
			hset_add(dst, src->slots[i]);
}
