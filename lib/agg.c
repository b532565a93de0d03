/* agg: frame -> key ids cached by frame id; totals de-duplicated with a per-key stamp. */
#include "agg.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

#define NO_KEY UINT32_MAX

struct agg {
	intern *keys;
	struct agg_row *rows;     /* by key id, then sorted */
	size_t nrows, rows_cap;
	uint64_t unkeyed;
};

/* Key of each frame for a per-frame key, or of stack-level kinds (thread, process). */
static uint32_t *frame_keys(agg *a, const prof *p, enum frame_key key)
{
	const intern *frames = prof_frames_const(p);
	size_t nf = intern_count(frames);
	uint32_t *map = xmalloc((nf + 1) * sizeof *map);
	char *buf = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < nf; i++) {
		size_t len;
		const char *text = intern_str(frames, (uint32_t)i, &len);
		map[i] = NO_KEY;
		if (key == KEY_THREAD || key == KEY_PROCESS || key == KEY_ROOT) {
			struct frame_parts parts;
			frame_split(text, len, &parts);
			enum frame_kind want = key == KEY_THREAD ? FRAME_THREAD : key == KEY_PROCESS ? FRAME_PROCESS : FRAME_CODE;
			if (parts.kind == want || (key == KEY_ROOT && parts.kind == FRAME_PSEUDO))
				map[i] = intern_add(a->keys, text, len);
			continue;
		}
		long n = frame_key_text(key, text, len, &buf, &cap);
		if (n >= 0)
			map[i] = intern_add(a->keys, buf, (size_t)n);
	}
	free(buf);
	return map;
}

agg *agg_new(const prof *p, enum frame_key key)
{
	agg *a = xcalloc(1, sizeof *a);
	a->keys = intern_new();
	uint32_t *map = frame_keys(a, p, key);
	a->nrows = a->rows_cap = intern_count(a->keys);
	a->rows = xcalloc(a->nrows + 1, sizeof *a->rows);
	for (size_t k = 0; k < a->nrows; k++)
		a->rows[k].key = (uint32_t)k;
	uint64_t *stamp = xcalloc(a->nrows + 1, sizeof *stamp);

	size_t nstacks = prof_stack_count(p);
	for (size_t s = 0; s < nstacks; s++) {
		size_t n;
		uint64_t count;
		const uint32_t *ids = prof_stack(p, s, &n, &count);
		uint32_t self = NO_KEY;
		int any = 0;
		if (key == KEY_ROOT) {
			/* The first frame below the process and thread pseudo-frames. */
			for (size_t f = 0; f < n && self == NO_KEY; f++)
				if (map[ids[f]] != NO_KEY)
					self = map[ids[f]];
			if (self != NO_KEY) {
				a->rows[self].self += count;
				a->rows[self].total += count;
				stamp[self] = s + 1;
				any = 1;
			}
		} else {
			if (key == KEY_THREAD || key == KEY_PROCESS) {
				/* The innermost pseudo-frame is the stack's own thread or process. */
				for (size_t f = n; f-- > 0 && self == NO_KEY;)
					self = map[ids[f]];
			} else if (n > 0) {
				self = map[ids[n - 1]];
			}
			if (self != NO_KEY)
				a->rows[self].self += count;
			for (size_t f = 0; f < n; f++) {
				uint32_t k = map[ids[f]];
				if (k == NO_KEY || stamp[k] == s + 1)
					continue; /* recursion counts once */
				stamp[k] = s + 1;
				a->rows[k].total += count;
				any = 1;
			}
		}
		if (!any)
			a->unkeyed += count;
	}
	/* Frames of stacks the filters dropped are interned too: keep only keys some stack has. */
	size_t kept = 0;
	for (size_t k = 0; k < a->nrows; k++)
		if (stamp[k])
			a->rows[kept++] = a->rows[k];
	a->nrows = kept;
	free(stamp);
	free(map);
	return a;
}

void agg_free(agg *a)
{
	if (!a)
		return;
	intern_free(a->keys);
	free(a->rows);
	free(a);
}

size_t agg_row_count(const agg *a) { return a->nrows; }
const struct agg_row *agg_rows(const agg *a) { return a->rows; }
const intern *agg_keys(const agg *a) { return a->keys; }
uint64_t agg_unkeyed(const agg *a) { return a->unkeyed; }

struct sort_ctx { const intern *keys; enum agg_order order; };

static int cmp_u64_desc(uint64_t x, uint64_t y) { return (x < y) - (x > y); }

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct agg_row *x = pa, *y = pb;
	int c = ctx->order == AGG_BY_SELF ? cmp_u64_desc(x->self, y->self) : cmp_u64_desc(x->total, y->total);
	if (!c)
		c = ctx->order == AGG_BY_SELF ? cmp_u64_desc(x->total, y->total) : cmp_u64_desc(x->self, y->self);
	if (c)
		return c;
	size_t lx, ly;
	const char *sx = intern_str(ctx->keys, x->key, &lx), *sy = intern_str(ctx->keys, y->key, &ly);
	c = memcmp(sx, sy, lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

void agg_sort(agg *a, enum agg_order order)
{
	struct sort_ctx ctx = { a->keys, order };
	qsort_r(a->rows, a->nrows, sizeof *a->rows, cmp_rows, &ctx);
}

size_t agg_thread_count(const prof *p)
{
	const intern *frames = prof_frames_const(p);
	size_t nf = intern_count(frames), threads = 0;
	unsigned char *used = xcalloc(nf + 1, 1);
	for (size_t s = 0; s < prof_stack_count(p); s++) {
		size_t n;
		const uint32_t *ids = prof_stack(p, s, &n, NULL);
		for (size_t f = 0; f < n; f++)
			used[ids[f]] = 1;
	}
	for (size_t i = 0; i < nf; i++) {
		if (!used[i])
			continue;
		size_t len;
		const char *text = intern_str(frames, (uint32_t)i, &len);
		struct frame_parts parts;
		frame_split(text, len, &parts);
		threads += parts.kind == FRAME_THREAD;
	}
	free(used);
	return threads;
}
