/* peek: a stack's frames become its sequence of key values (frames without one passed over);
 * each matching key's outermost place in it names one caller and one callee (or self), so
 * every stack adds to exactly one caller row and one callee-or-self of each key it holds. */
#include "peek.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

const char *const peek_role_names[] = { "caller", ".", "callee", NULL };

enum { UNKNOWN = 0, NO = 1, YES = 2 };

struct edge {
	uint32_t key, other;
	uint32_t role;    /* enum peek_role; UINT32_MAX: the slot is free */
	uint64_t self, samples;
};

struct peek {
	enum frame_key key;
	rx *match;
	intern *keys;
	uint32_t root, nokey;        /* "(root)" and "(no KEY)" */
	uint32_t *fkey;              /* frame id -> key id, INTERN_NONE without one */
	size_t fmapped, fkey_cap;
	uint8_t *kmatch;             /* key id -> UNKNOWN, NO, YES */
	uint64_t *stamp, *self, *total;  /* key id -> last stack holding it, figures */
	size_t kcap;
	uint64_t serial;
	uint32_t *seq;               /* the stack's key values */
	size_t seq_cap;
	char *buf;
	size_t buf_cap;
	struct edge *edges;          /* open addressing, power of two */
	size_t nedges, edge_cap;
};

int peek_key_ok(enum frame_key key)
{
	return key != KEY_ROOT && key != KEY_CATEGORY && key != KEY_SOURCE && key != KEY_WINDOW &&
	       key < KEY_COUNT;
}

peek *peek_new(enum frame_key key, rx *match)
{
	peek *pk = xcalloc(1, sizeof *pk);
	char name[64];
	pk->key = key;
	pk->match = match;
	pk->keys = intern_new();
	pk->root = intern_add(pk->keys, "(root)", 6);
	int len = snprintf(name, sizeof name, "(no %s)", frame_key_names[key]);
	pk->nokey = intern_add(pk->keys, name, (size_t)len);
	return pk;
}

void peek_free(peek *pk)
{
	if (!pk)
		return;
	intern_free(pk->keys);
	free(pk->fkey);
	free(pk->kmatch);
	free(pk->stamp);
	free(pk->self);
	free(pk->total);
	free(pk->seq);
	free(pk->buf);
	free(pk->edges);
	free(pk);
}

const intern *peek_keys(const peek *pk) { return pk->keys; }

/* Per-key arrays follow the key table. */
static void grow_keys(peek *pk)
{
	size_t n = intern_count(pk->keys);
	if (n <= pk->kcap)
		return;
	size_t old = pk->kcap, cap = old;
	pk->kmatch = xgrow(pk->kmatch, &cap, n, 1);
	memset(pk->kmatch + old, 0, cap - old);
	size_t c2 = old;
	pk->stamp = xgrow(pk->stamp, &c2, n, sizeof *pk->stamp);
	c2 = old;
	pk->self = xgrow(pk->self, &c2, n, sizeof *pk->self);
	c2 = old;
	pk->total = xgrow(pk->total, &c2, n, sizeof *pk->total);
	for (size_t i = old; i < cap; i++)
		pk->stamp[i] = pk->self[i] = pk->total[i] = 0;
	pk->kcap = cap;
}

/* The key of frame id, worked out once per distinct frame. */
static uint32_t frame_key(peek *pk, const intern *frames, uint32_t id)
{
	if (id < pk->fmapped)
		return pk->fkey[id];
	size_t nf = intern_count(frames);
	pk->fkey = xgrow(pk->fkey, &pk->fkey_cap, nf, sizeof *pk->fkey);
	for (; pk->fmapped < nf; pk->fmapped++) {
		size_t len;
		const char *text = intern_str(frames, (uint32_t)pk->fmapped, &len);
		uint32_t v = INTERN_NONE;
		if (pk->key == KEY_THREAD || pk->key == KEY_PROCESS) {
			struct frame_parts parts;
			frame_split(text, len, &parts);
			if (parts.kind == (pk->key == KEY_THREAD ? FRAME_THREAD : FRAME_PROCESS))
				v = intern_add(pk->keys, text, len);
		} else {
			long n = frame_key_text(pk->key, text, len, &pk->buf, &pk->buf_cap);
			if (n >= 0)
				v = intern_add(pk->keys, pk->buf, (size_t)n);
		}
		pk->fkey[pk->fmapped] = v;
	}
	grow_keys(pk);
	return pk->fkey[id];
}

/* YES or NO for key id, matched once; -1 on a matching error. */
static int key_matches(peek *pk, uint32_t k, char *err, size_t errlen)
{
	if (pk->kmatch[k] == UNKNOWN) {
		size_t len;
		const char *text = intern_str(pk->keys, k, &len);
		int rc = k == pk->root || k == pk->nokey ? 0 : rx_match(pk->match, text, len, err, errlen);
		if (rc < 0)
			return -1;
		pk->kmatch[k] = rc ? YES : NO;
	}
	return pk->kmatch[k];
}

static size_t edge_slot(const peek *pk, uint32_t key, enum peek_role role, uint32_t other)
{
	uint64_t h = intern_hash_word(intern_hash_word(INTERN_HASH_SEED, ((uint64_t)key << 32) | other), role);
	size_t mask = pk->edge_cap - 1, i = (size_t)h & mask;
	while (pk->edges[i].role != UINT32_MAX &&
	       (pk->edges[i].key != key || pk->edges[i].other != other || pk->edges[i].role != role))
		i = (i + 1) & mask;
	return i;
}

static void edge_add(peek *pk, uint32_t key, enum peek_role role, uint32_t other, uint64_t self,
		     uint64_t samples)
{
	if ((pk->nedges + 1) * 2 > pk->edge_cap) {
		struct edge *old = pk->edges;
		size_t old_cap = pk->edge_cap;
		pk->edge_cap = old_cap ? old_cap * 2 : 64;
		pk->edges = xmalloc(pk->edge_cap * sizeof *pk->edges);
		for (size_t i = 0; i < pk->edge_cap; i++)
			pk->edges[i].role = UINT32_MAX;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].role != UINT32_MAX)
				pk->edges[edge_slot(pk, old[i].key, old[i].role, old[i].other)] = old[i];
		free(old);
	}
	struct edge *e = &pk->edges[edge_slot(pk, key, role, other)];
	if (e->role == UINT32_MAX) {
		*e = (struct edge){ key, other, role, 0, 0 };
		pk->nedges++;
	}
	e->self += self;
	e->samples += samples;
}

int peek_add(peek *pk, const intern *frames, const uint32_t *ids, size_t n, uint64_t count,
	     char *err, size_t errlen)
{
	size_t m = 0;
	int any = 0;
	pk->seq = xgrow(pk->seq, &pk->seq_cap, n + 1, sizeof *pk->seq);
	for (size_t i = 0; i < n; i++) {
		uint32_t k = frame_key(pk, frames, ids[i]);
		if (k == INTERN_NONE)
			continue;
		int rc = key_matches(pk, k, err, errlen);
		if (rc < 0)
			return -1;
		any |= rc == YES;
		pk->seq[m++] = k;
	}
	if (!any)
		return 0;
	uint32_t leaf = n ? frame_key(pk, frames, ids[n - 1]) : INTERN_NONE;
	pk->serial++;
	for (size_t j = 0; j < m; j++) {
		uint32_t k = pk->seq[j];
		if (pk->kmatch[k] != YES || pk->stamp[k] == pk->serial)
			continue; /* outermost occurrence only */
		pk->stamp[k] = pk->serial;
		int is_self = leaf == k;
		pk->total[k] += count;
		pk->self[k] += is_self ? count : 0;
		edge_add(pk, k, PEEK_CALLER, j ? pk->seq[j - 1] : pk->root, is_self ? count : 0, count);
		if (!is_self) {
			uint32_t callee = j + 1 < m ? pk->seq[j + 1] : pk->nokey;
			edge_add(pk, k, PEEK_CALLEE, callee, leaf == callee ? count : 0, count);
		}
	}
	return 0;
}

/* A row with what it sorts by. */
struct sortable {
	struct peek_row row;
	size_t rank;          /* of its key */
	const char *text;     /* of other */
};

static int by_place(const void *pa, const void *pb)
{
	const struct sortable *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->row.role != b->row.role)
		return a->row.role < b->row.role ? -1 : 1;
	if (a->row.samples != b->row.samples)
		return a->row.samples > b->row.samples ? -1 : 1;
	if (a->row.self != b->row.self)
		return a->row.self > b->row.self ? -1 : 1;
	return strcmp(a->text, b->text);
}

struct ranked { uint32_t key; uint64_t first, second; const char *text; };

static int by_figures(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;
	if (a->first != b->first)
		return a->first > b->first ? -1 : 1;
	if (a->second != b->second)
		return a->second > b->second ? -1 : 1;
	return strcmp(a->text, b->text);
}

size_t peek_rows(const peek *pk, enum agg_order order, size_t limit, struct peek_row **rows)
{
	/* Rank the matching keys. */
	size_t nk = 0;
	struct ranked *keys = xcalloc(pk->kcap + 1, sizeof *keys);
	for (size_t k = 0; k < pk->kcap; k++) {
		if (pk->kmatch[k] != YES || !pk->total[k])
			continue;
		uint64_t s = pk->self[k], t = pk->total[k];
		keys[nk++] = (struct ranked){ (uint32_t)k, order == AGG_BY_SELF ? s : t,
					      order == AGG_BY_SELF ? t : s,
					      intern_str(pk->keys, (uint32_t)k, NULL) };
	}
	qsort(keys, nk, sizeof *keys, by_figures);
	if (limit && nk > limit)
		nk = limit;
	size_t *rank = xmalloc((pk->kcap + 1) * sizeof *rank);
	for (size_t k = 0; k < pk->kcap; k++)
		rank[k] = SIZE_MAX;
	for (size_t r = 0; r < nk; r++)
		rank[keys[r].key] = r;

	/* Their edges and . rows, in place order. */
	struct sortable *all = xcalloc(pk->nedges + nk + 1, sizeof *all);
	size_t n = 0;
	for (size_t i = 0; i < pk->edge_cap; i++) {
		const struct edge *e = &pk->edges[i];
		if (e->role == UINT32_MAX || rank[e->key] == SIZE_MAX)
			continue;
		all[n++] = (struct sortable){ { e->key, (enum peek_role)e->role, e->other, e->self, e->samples },
					      rank[e->key], intern_str(pk->keys, e->other, NULL) };
	}
	for (size_t r = 0; r < nk; r++) {
		uint32_t k = keys[r].key;
		all[n++] = (struct sortable){ { k, PEEK_SELF, k, pk->self[k], pk->total[k] }, r, keys[r].text };
	}
	qsort(all, n, sizeof *all, by_place);
	*rows = xcalloc(n + 1, sizeof **rows);
	for (size_t i = 0; i < n; i++)
		(*rows)[i] = all[i].row;
	free(all);
	free(rank);
	free(keys);
	return n;
}

static int digits(uint64_t v)
{
	int d = 1;
	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

/* pprof -peek's look: figures, then `|`, the key flush and its callers above and callees
 * below indented, a rule between keys. */
static void write_text(const peek *pk, const struct peek_row *rows, size_t n, uint64_t base, FILE *out)
{
	int ws = 4, wn = 7;
	for (size_t i = 0; i < n; i++) {
		if (digits(rows[i].self) > ws)
			ws = digits(rows[i].self);
		if (digits(rows[i].samples) > wn)
			wn = digits(rows[i].samples);
	}
	int left = ws + 2 + wn + 2 + 7 + 1;
	char rule[128];
	int rl = left < (int)sizeof rule - 1 ? left : (int)sizeof rule - 1;
	memset(rule, '-', (size_t)rl);
	rule[rl] = '\0';
	fprintf(out, "%*s  %*s  %7s | context\n", ws, "self", wn, "samples", "pct");
	for (size_t i = 0; i < n; i++) {
		const struct peek_row *r = &rows[i];
		if (i == 0 || r->key != rows[i - 1].key)
			fprintf(out, "%s+-------------\n", rule);
		char pct[32];
		snprintf(pct, sizeof pct, "%.2f%%", table_pct(r->samples, base));
		size_t len;
		const char *text = intern_str(pk->keys, r->other, &len);
		fprintf(out, "%*llu  %*llu  %7s | %s", ws, (unsigned long long)r->self, wn,
			(unsigned long long)r->samples, pct, r->role == PEEK_SELF ? "" : "  ");
		fwrite(text, 1, len, out);
		fputc('\n', out);
	}
	if (n)
		fprintf(out, "%s+-------------\n", rule);
}

int peek_write(const peek *pk, const struct peek_row *rows, size_t nrows, uint64_t base,
	       enum table_format format, FILE *out)
{
	if (format == TABLE_TEXT) {
		write_text(pk, rows, nrows, base, out);
		return ferror(out) ? -1 : 0;
	}
	static const struct table_column cols[] = {
		{ "key", TABLE_STR, 0 }, { "role", TABLE_STR, 0 }, { "other", TABLE_STR, 0 },
		{ "self", TABLE_UINT, 0 }, { "samples", TABLE_UINT, 0 }, { "pct", TABLE_PCT, 0 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	for (size_t i = 0; i < nrows; i++) {
		size_t len;
		const char *s = intern_str(pk->keys, rows[i].key, &len);
		table_add_row(t);
		table_set_str(t, 0, s, len);
		table_set_str(t, 1, peek_role_names[rows[i].role], strlen(peek_role_names[rows[i].role]));
		s = intern_str(pk->keys, rows[i].other, &len);
		table_set_str(t, 2, s, len);
		table_set_uint(t, 3, rows[i].self);
		table_set_uint(t, 4, rows[i].samples);
		table_set_real(t, 5, table_pct(rows[i].samples, base));
	}
	int rc = table_write(t, out, format, 0);
	table_free(t);
	return rc;
}
