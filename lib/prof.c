/* prof: stacks live in one id arena, found again through an open-addressing table. */
#include "prof.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

struct stack {
	size_t offset;      /* into ids */
	uint32_t nframes;
	uint64_t hash;
	uint64_t count;
};

struct slot { uint32_t idx, tag; };

struct prof {
	intern *frames;
	uint32_t *ids;
	size_t nids, ids_cap;
	struct stack *stacks;
	size_t nstacks, stacks_cap;
	struct slot *slots; /* idx: stack index + 1, 0 empty; tag: high hash bits, to skip misses
			     * without touching the stack */
	size_t nslots;
	uint64_t total;
};

prof *prof_new(void)
{
	prof *p = xcalloc(1, sizeof *p);
	p->frames = intern_new();
	p->nslots = 1024;
	p->slots = xcalloc(p->nslots, sizeof *p->slots);
	/* Never NULL: stacks of no frames still point into it (NULL + 0 is undefined). */
	p->ids = xgrow(NULL, &p->ids_cap, 16, sizeof *p->ids);
	return p;
}

void prof_free(prof *p)
{
	if (!p)
		return;
	intern_free(p->frames);
	free(p->ids);
	free(p->stacks);
	free(p->slots);
	free(p);
}

intern *prof_frames(prof *p) { return p->frames; }
const intern *prof_frames_const(const prof *p) { return p->frames; }
size_t prof_stack_count(const prof *p) { return p->nstacks; }
uint64_t prof_total(const prof *p) { return p->total; }

const uint32_t *prof_stack(const prof *p, size_t i, size_t *nframes, uint64_t *count)
{
	*nframes = p->stacks[i].nframes;
	if (count)
		*count = p->stacks[i].count;
	return p->ids + p->stacks[i].offset;
}

static void rehash(prof *p)
{
	free(p->slots);
	p->nslots *= 2;
	p->slots = xcalloc(p->nslots, sizeof *p->slots);
	size_t mask = p->nslots - 1;
	for (size_t s = 0; s < p->nstacks; s++) {
		size_t i = (size_t)p->stacks[s].hash & mask;
		while (p->slots[i].idx)
			i = (i + 1) & mask;
		p->slots[i] = (struct slot){ (uint32_t)(s + 1), (uint32_t)(p->stacks[s].hash >> 32) };
	}
}

int prof_add(prof *p, const uint32_t *frames, size_t nframes, uint64_t count)
{
	if (p->total > UINT64_MAX - count)
		return -1;
	uint64_t hash = intern_hash(frames, nframes * sizeof *frames);
	size_t mask = p->nslots - 1, i = (size_t)hash & mask;
	uint32_t tag = (uint32_t)(hash >> 32);
	for (; p->slots[i].idx; i = (i + 1) & mask) {
		if (p->slots[i].tag != tag)
			continue;
		struct stack *st = &p->stacks[p->slots[i].idx - 1];
		if (st->hash == hash && st->nframes == nframes &&
		    (nframes == 0 || memcmp(p->ids + st->offset, frames, nframes * sizeof *frames) == 0)) {
			st->count += count; /* cannot wrap: the total did not */
			p->total += count;
			return 0;
		}
	}
	if (nframes > UINT32_MAX || p->nstacks >= UINT32_MAX - 1)
		return -1;
	p->ids = xgrow(p->ids, &p->ids_cap, p->nids + nframes, sizeof *p->ids);
	if (nframes) /* an empty stack (" 4") may come with no array at all */
		memcpy(p->ids + p->nids, frames, nframes * sizeof *frames);
	p->stacks = xgrow(p->stacks, &p->stacks_cap, p->nstacks + 1, sizeof *p->stacks);
	p->stacks[p->nstacks] = (struct stack){ p->nids, (uint32_t)nframes, hash, count };
	p->nids += nframes;
	p->slots[i] = (struct slot){ (uint32_t)++p->nstacks, tag };
	p->total += count;
	if (p->nstacks * 2 > p->nslots)
		rehash(p);
	return 0;
}

struct sort_ctx {
	const prof *p;
	const uint32_t *rank;  /* frame id -> position in text order */
};

static int cmp_stacks(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct stack *x = a, *y = b;
	const uint32_t *fx = ctx->p->ids + x->offset, *fy = ctx->p->ids + y->offset;
	size_t n = x->nframes < y->nframes ? x->nframes : y->nframes;
	for (size_t i = 0; i < n; i++)
		if (fx[i] != fy[i])
			return ctx->rank[fx[i]] < ctx->rank[fy[i]] ? -1 : 1;
	return (x->nframes > y->nframes) - (x->nframes < y->nframes);
}

static int cmp_frame_text(const void *a, const void *b, void *arg)
{
	const intern *frames = arg;
	size_t la, lb;
	const char *sa = intern_str(frames, *(const uint32_t *)a, &la);
	const char *sb = intern_str(frames, *(const uint32_t *)b, &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

void prof_sort(prof *p)
{
	if (p->nstacks < 2)
		return;
	/* Rank frames by text once; then stacks compare as integer arrays. */
	size_t nf = intern_count(p->frames);
	uint32_t *order = xmalloc((nf + 1) * sizeof *order);
	uint32_t *rank = xmalloc((nf + 1) * sizeof *rank);
	for (size_t i = 0; i < nf; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, nf, sizeof *order, cmp_frame_text, p->frames);
	for (size_t i = 0; i < nf; i++)
		rank[order[i]] = (uint32_t)i;
	struct sort_ctx ctx = { p, rank };
	if (p->nstacks > 1) /* no stacks may mean no array: qsort_r wants one */
		qsort_r(p->stacks, p->nstacks, sizeof *p->stacks, cmp_stacks, &ctx);
	free(order);
	free(rank);
	memset(p->slots, 0, p->nslots * sizeof *p->slots);
	p->nslots /= 2;
	rehash(p);
}

int prof_write_folded(const prof *p, FILE *out)
{
	for (size_t s = 0; s < p->nstacks; s++) {
		const struct stack *st = &p->stacks[s];
		const uint32_t *ids = p->ids + st->offset;
		for (uint32_t f = 0; f < st->nframes; f++) {
			size_t len;
			const char *text = intern_str(p->frames, ids[f], &len);
			if (f)
				putc_unlocked(';', out);
			fwrite_unlocked(text, 1, len, out);
		}
		fprintf(out, " %llu\n", (unsigned long long)st->count);
	}
	return ferror(out) ? -1 : 0;
}
