/* hset: open addressing over the hashes themselves; 0 is kept aside as the empty mark. */
#include "hset.h"
#include "xalloc.h"

#include <stdlib.h>

enum { LATER = 16 };  /* adds in flight: enough to cover a miss to memory */

struct hset {
	uint64_t *slots;
	size_t nslots, count;
	int has_zero;
	uint64_t later[LATER];  /* a ring of hashes whose slots are being fetched */
	size_t nlater, next;
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

static size_t home(uint64_t h, size_t mask)
{
	return (size_t)(h ^ (h >> 29)) & mask;
}

static void put(uint64_t *slots, size_t mask, uint64_t h)
{
	size_t i = home(h, mask);
	while (slots[i] && slots[i] != h)
		i = (i + 1) & mask;
	slots[i] = h;
}

static int add_now(hset *s, uint64_t h);

static void flush(hset *s)
{
	size_t n = s->nlater;
	s->nlater = 0;
	for (size_t k = 0; k < n; k++)
		add_now(s, s->later[k]);
	s->next = 0;
}

void hset_add_later(hset *s, uint64_t h)
{
	__builtin_prefetch(&s->slots[home(h, s->nslots - 1)], 1);
	if (s->nlater < LATER) {
		s->later[s->nlater++] = h;
		return;
	}
	uint64_t due = s->later[s->next];  /* the oldest: its slot fetched LATER adds ago */
	s->later[s->next] = h;
	s->next = (s->next + 1) % LATER;
	add_now(s, due);
}

int hset_add(hset *s, uint64_t h)
{
	if (s->nlater)
		flush(s);
	return add_now(s, h);
}

static int add_now(hset *s, uint64_t h)
{
	if (h == 0) {
		int added = !s->has_zero;
		s->has_zero = 1;
		s->count += (size_t)added;
		return added;
	}
	size_t mask = s->nslots - 1, i = home(h, mask);
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

size_t hset_count(hset *s)
{
	flush(s);
	return s->count;
}

void hset_merge(hset *dst, hset *src)
{
	flush(src);
	if (src->has_zero)
		hset_add(dst, 0);
	for (size_t i = 0; i < src->nslots; i++)
		if (src->slots[i])
			hset_add_later(dst, src->slots[i]);
	flush(dst);
}
