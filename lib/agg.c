/* agg: frame -> key ids cached by frame id; totals de-duplicated with a per-key stamp;
 * categories through the rules cache; pairs of keys found through an intern of id pairs. */
#include "agg.h"
#include "err.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NO_KEY UINT32_MAX

/* One key's values for each stack: per-frame keys through a frame-id map (extended as the
 * frame table grows), category through the rules cache. vals lists the stack's total
 * values, each once. */
struct keyer {
	enum frame_key key;
	uint32_t *map;          /* frame id -> key id (per-frame and pseudo-frame keys) */
	unsigned char *code;    /* frame id -> 1 for a code frame, 0 for a pseudo-frame */
	size_t code_cap;
	size_t mapped, map_cap; /* frames [0, mapped) have their key worked out */
	rules_cache *rc;        /* category */
	uint32_t *cat_key;      /* rules category id -> key id */
	int inclusive;
	uint32_t *vals;
	size_t nvals, cap;
	uint64_t *stamp;        /* key id -> serial of the last stack that listed it */
	size_t stamp_cap;
	char *buf;
	size_t buf_cap;
	uint32_t none;          /* the "(no KEY)" row's key id, interned when first needed */
};

struct agg {
	intern *keys;
	intern *pairs;            /* two keys: (key, key2) ids as 8 bytes -> row index */
	struct agg_row *rows;     /* by key id (or pair index), then sorted */
	size_t nrows, rows_cap;
	uint64_t unkeyed;
	uint64_t missing[2];      /* samples counted under a "(no KEY)" row, per key */
	const intern *frames;     /* the profile's frame table (may grow while adding) */
	struct keyer k[2];
	size_t nk;
	uint64_t serial;          /* stacks added */
	uint32_t source;          /* key id of the input being read (agg_set_source), or NO_KEY */
	uint32_t window;          /* key id of the window being read (agg_set_window), or NO_KEY */
	double window_start;      /* ... and its start, so a repeat needs no formatting */
	int window_k;             /* which key (0 or 1) is window, else -1 (kept past agg_close) */
	rules *own_rules;
};

/* The key id of frame id, working out the keys of frames added since the last call. */
static uint32_t keyer_frame(struct keyer *k, agg *a, uint32_t id)
{
	if (id < k->mapped)
		return k->map[id];
	size_t nf = intern_count(a->frames);
	k->map = xgrow(k->map, &k->map_cap, nf, sizeof *k->map);
	k->code = xgrow(k->code, &k->code_cap, nf, sizeof *k->code);
	for (; k->mapped < nf; k->mapped++) {
		size_t len;
		const char *text = intern_str(a->frames, (uint32_t)k->mapped, &len);
		uint32_t v = NO_KEY;
		struct frame_parts parts;
		frame_split(text, len, &parts);
		k->code[k->mapped] = parts.kind == FRAME_CODE;
		if (k->key == KEY_THREAD || k->key == KEY_PROCESS || k->key == KEY_ROOT) {
			enum frame_kind want = k->key == KEY_THREAD ? FRAME_THREAD : k->key == KEY_PROCESS ? FRAME_PROCESS : FRAME_CODE;
			if (parts.kind == want && k->key != KEY_ROOT && parts.id_len == 1 && parts.id[0] == '0' &&
			    parts.name_len) /* --no-tids, --no-pids: the name is the identity */
				v = intern_add(a->keys, parts.name, parts.name_len);
			else if (parts.kind == want || (k->key == KEY_ROOT && parts.kind == FRAME_PSEUDO))
				v = intern_add(a->keys, text, len);
		} else {
			long n = frame_key_text(k->key, text, len, &k->buf, &k->buf_cap);
			if (n >= 0)
				v = intern_add(a->keys, k->buf, (size_t)n);
		}
		k->map[k->mapped] = v;
	}
	return k->map[id];
}

static void keyer_init(struct keyer *k, agg *a, enum frame_key key, rules *r, int inclusive)
{
	memset(k, 0, sizeof *k);
	k->key = key;
	k->none = NO_KEY;
	if (key != KEY_CATEGORY)
		return;
	k->inclusive = inclusive;
	k->rc = rules_cache_new(r, a->frames, inclusive);
	size_t nc = rules_category_count(r);
	k->cat_key = xmalloc(nc * sizeof *k->cat_key);
	for (uint32_t c = 0; c < nc; c++) {
		size_t len;
		const char *name = rules_category_name(r, c, &len);
		k->cat_key[c] = intern_add(a->keys, name, len);
	}
	k->cap = nc;
	k->vals = xmalloc(nc * sizeof *k->vals);
}

static void keyer_free(struct keyer *k)
{
	free(k->map);
	free(k->code);
	free(k->cat_key);
	free(k->vals);
	free(k->stamp);
	free(k->buf);
	rules_cache_free(k->rc);
}

static void keyer_push(struct keyer *k, uint32_t v)
{
	if (k->nvals == k->cap)  /* no call on the per-frame path */
		k->vals = xgrow(k->vals, &k->cap, k->nvals + 1, sizeof *k->vals);
	k->vals[k->nvals++] = v;
}

/* Listed already for the stack with this serial? Marks it when not. */
static int keyer_seen(struct keyer *k, uint32_t v, uint64_t serial)
{
	if (v >= k->stamp_cap) {
		size_t old = k->stamp_cap;
		k->stamp = xgrow(k->stamp, &k->stamp_cap, (size_t)v + 1, sizeof *k->stamp);
		memset(k->stamp + old, 0, (k->stamp_cap - old) * sizeof *k->stamp);
	}
	if (k->stamp[v] == serial)
		return 1;
	k->stamp[v] = serial;
	return 0;
}

/* The "(no thread)"-style key of stacks that lack the key. */
static uint32_t keyer_none(struct keyer *k, agg *a)
{
	if (k->none == NO_KEY) {
		char text[32];
		int len = snprintf(text, sizeof text, "(no %s)", frame_key_names[k->key]);
		k->none = intern_add(a->keys, text, (size_t)len);
	}
	return k->none;
}

/* A code frame, not a thread, process or [tag] pseudo-frame. */
static int keyer_is_code(struct keyer *k, agg *a, uint32_t id)
{
	keyer_frame(k, a, id);
	return k->code[id];
}

/* A stack's self value (NO_KEY when none) and its total values in k->vals. */
static uint32_t keyer_stack(struct keyer *k, agg *a, const uint32_t *ids, size_t n, uint64_t serial)
{
	uint32_t self = NO_KEY;
	k->nvals = 0;
	if (k->key == KEY_CATEGORY) {
		self = k->cat_key[rules_stack(k->rc, ids, n)];
		if (!k->inclusive) {
			keyer_push(k, self);
			return self;
		}
		k->nvals = rules_stack_all(k->rc, ids, n, k->vals);
		for (size_t i = 0; i < k->nvals; i++)
			k->vals[i] = k->cat_key[k->vals[i]];
		return self;
	}
	if (k->key == KEY_SOURCE || k->key == KEY_WINDOW) { /* known per input or time, not per frame */
		uint32_t v = k->key == KEY_SOURCE ? a->source : a->window;
		self = v != NO_KEY ? v : keyer_none(k, a);
		keyer_push(k, self);
		return self;
	}
	if (k->key == KEY_ROOT) {
		/* The first frame below the process and thread pseudo-frames. */
		for (size_t f = 0; f < n && self == NO_KEY; f++)
			self = keyer_frame(k, a, ids[f]);
		if (self == NO_KEY)
			self = keyer_none(k, a);
		keyer_push(k, self);
		return self;
	}
	if (k->key == KEY_THREAD || k->key == KEY_PROCESS) {
		/* The innermost pseudo-frame is the stack's own thread or process. */
		for (size_t f = n; f-- > 0 && self == NO_KEY;)
			self = keyer_frame(k, a, ids[f]);
	} else {
		/* The innermost code frame: a [tag] leaf gives its self to the frame it tags. */
		size_t f = n;
		while (f > 0 && !keyer_is_code(k, a, ids[f - 1]))
			f--;
		if (f > 0)
			self = keyer_frame(k, a, ids[f - 1]);
	}
	for (size_t f = 0; f < n; f++) {
		uint32_t v = keyer_frame(k, a, ids[f]);
		if (v == NO_KEY || keyer_seen(k, v, serial))
			continue; /* recursion counts once */
		keyer_push(k, v);
	}
	if (self == NO_KEY && k->key != KEY_LIB) {
		/* Samples are conserved: a stack without the key is counted in a "(no KEY)" row.
		 * Not for lib, where a Python leaf's self has no library (documented). */
		self = keyer_none(k, a);
		if (!keyer_seen(k, self, serial))
			keyer_push(k, self);
	}
	return self;
}

/* The row of a key or pair, added when new. */
static struct agg_row *row_for(agg *a, uint32_t k1, uint32_t k2)
{
	size_t id = k1;
	if (a->pairs) {
		uint32_t both[2] = { k1, k2 };
		id = intern_add(a->pairs, (const char *)both, sizeof both);
	}
	while (id >= a->nrows) {
		a->rows = xgrow(a->rows, &a->rows_cap, a->nrows + 1, sizeof *a->rows);
		a->rows[a->nrows] = (struct agg_row){ a->pairs ? k1 : (uint32_t)a->nrows, a->pairs ? k2 : AGG_NONE, 0, 0 };
		a->nrows++;
	}
	return &a->rows[id];
}

agg *agg_open(const intern *frames, const struct agg_spec *spec)
{
	agg *a = xcalloc(1, sizeof *a);
	a->keys = intern_new();
	a->frames = frames;
	a->source = NO_KEY;
	a->window = NO_KEY;
	a->window_k = spec->keys[0] == KEY_WINDOW ? 0 : spec->nkeys > 1 && spec->keys[1] == KEY_WINDOW ? 1 : -1;
	rules *r = spec->rules;
	if (agg_spec_needs_rules(spec) && !r) {
		a->own_rules = r = rules_new();
		rules_add_default(r);
	}
	a->nk = spec->nkeys > 1 ? 2 : 1;
	for (size_t i = 0; i < a->nk; i++)
		keyer_init(&a->k[i], a, spec->keys[i], r, spec->inclusive);
	if (a->nk == 2)
		a->pairs = intern_new();
	return a;
}

void agg_set_source(agg *a, const char *name, size_t len)
{
	for (size_t i = 0; i < a->nk; i++)
		if (a->k[i].key == KEY_SOURCE) /* else the name would be a key no stack has */
			a->source = intern_add(a->keys, name, len);
}

void agg_set_window(agg *a, double start)
{
	if (a->window != NO_KEY && a->window_start == start)
		return;
	for (size_t i = 0; i < a->nk; i++) {
		if (a->k[i].key == KEY_WINDOW) {
			char text[32];
			int n = snprintf(text, sizeof text, "%.9g", start);
			a->window = intern_add(a->keys, text, (size_t)n);
			a->window_start = start;
		}
	}
}

size_t agg_window_run(const agg *a, size_t i, uint64_t *self)
{
	size_t end = i;
	*self = 0;
	for (; end < a->nrows; end++) {
		const struct agg_row *r = &a->rows[end], *first = &a->rows[i];
		if (a->window_k == 0 && r->key != first->key)
			break;
		if (a->window_k == 1 && r->key2 != first->key2)
			break;
		*self += r->self;
	}
	return end;
}

int agg_spec_has(const struct agg_spec *spec, enum frame_key key)
{
	return spec->keys[0] == key || (spec->nkeys == 2 && spec->keys[1] == key);
}

void agg_add(agg *a, const uint32_t *ids, size_t n, uint64_t count)
{
	uint64_t serial = ++a->serial;
	uint32_t self[2] = { NO_KEY, NO_KEY };
	for (size_t i = 0; i < a->nk; i++)
		self[i] = keyer_stack(&a->k[i], a, ids, n, serial);
	int any = 0;
	for (size_t i = 0; i < a->nk; i++)
		if (self[i] != NO_KEY && self[i] == a->k[i].none)
			a->missing[i] += count;
	if (self[0] != NO_KEY && (a->nk == 1 || self[1] != NO_KEY))
		row_for(a, self[0], a->nk == 1 ? AGG_NONE : self[1])->self += count;
	if (a->nk == 1) {
		for (size_t v = 0; v < a->k[0].nvals; v++, any = 1)
			row_for(a, a->k[0].vals[v], AGG_NONE)->total += count;
	} else {
		/* Each key's values are distinct, so every combination is too. */
		for (size_t v = 0; v < a->k[0].nvals; v++)
			for (size_t w = 0; w < a->k[1].nvals; w++, any = 1)
				row_for(a, a->k[0].vals[v], a->k[1].vals[w])->total += count;
	}
	if (!any)
		a->unkeyed += count;
}

void agg_merge(agg *dst, const agg *src)
{
	for (size_t i = 0; i < src->nrows; i++) {
		const struct agg_row *r = &src->rows[i];
		if (!r->self && !r->total)
			continue;
		size_t len;
		const char *text = intern_str(src->keys, r->key, &len);
		uint32_t k1 = intern_add(dst->keys, text, len), k2 = AGG_NONE;
		if (r->key2 != AGG_NONE) {
			text = intern_str(src->keys, r->key2, &len);
			k2 = intern_add(dst->keys, text, len);
		}
		struct agg_row *d = row_for(dst, k1, k2);
		d->self += r->self;
		d->total += r->total;
	}
	dst->unkeyed += src->unkeyed;
	dst->missing[0] += src->missing[0];
	dst->missing[1] += src->missing[1];
}

void agg_close(agg *a)
{
	/* Keys no stack has (categories no rule matched, frames of filtered stacks) make no row. */
	size_t kept = 0;
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].self || a->rows[i].total)
			a->rows[kept++] = a->rows[i];
	a->nrows = kept;
	for (size_t i = 0; i < a->nk; i++)
		keyer_free(&a->k[i]);
	a->nk = 0;
	rules_free(a->own_rules);
	a->own_rules = NULL;
}

agg *agg_new_spec(const prof *p, const struct agg_spec *spec)
{
	agg *a = agg_open(prof_frames_const(p), spec);
	size_t nstacks = prof_stack_count(p);
	for (size_t s = 0; s < nstacks; s++) {
		size_t n;
		uint64_t count;
		const uint32_t *ids = prof_stack(p, s, &n, &count);
		agg_add(a, ids, n, count);
	}
	agg_close(a);
	return a;
}

agg *agg_new(const prof *p, enum frame_key key)
{
	struct agg_spec spec = { { key, KEY_FRAME }, 1, NULL, 0 };
	return agg_new_spec(p, &spec);
}

void agg_free(agg *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nk; i++) /* not closed */
		keyer_free(&a->k[i]);
	rules_free(a->own_rules);
	intern_free(a->keys);
	intern_free(a->pairs);
	free(a->rows);
	free(a);
}

size_t agg_row_count(const agg *a) { return a->nrows; }
const struct agg_row *agg_rows(const agg *a) { return a->rows; }
const intern *agg_keys(const agg *a) { return a->keys; }
uint64_t agg_unkeyed(const agg *a) { return a->unkeyed; }
uint64_t agg_missing(const agg *a, size_t k) { return k < 2 ? a->missing[k] : 0; }

void agg_note_missing(const agg *a, const struct agg_spec *spec)
{
	for (size_t k = 0; k < spec->nkeys && k < 2; k++) {
		const char *how = spec->keys[k] == KEY_THREAD ? "py-spy record --threads" :
				  spec->keys[k] == KEY_PROCESS ? "py-spy record --subprocesses" : NULL;
		if (how && a->missing[k])
			err_warn("note: %llu samples have no %s frame, counted as \"(no %s)\": %s records them",
				 (unsigned long long)a->missing[k], frame_key_names[spec->keys[k]],
				 frame_key_names[spec->keys[k]], how);
	}
}

/* window: which key (0 or 1) is the window, which comes first, in time order; -1 none. */
struct sort_ctx { const intern *keys; enum agg_order order; int window; };

static double window_of(const intern *keys, const struct agg_row *r, int k)
{
	size_t len;
	const char *text = intern_str(keys, k == 0 ? r->key : r->key2, &len);
	char buf[32];
	if (len >= sizeof buf || (len && text[0] == '('))
		return HUGE_VAL;  /* "(no window)" last */
	memcpy(buf, text, len);
	buf[len] = '\0';
	return strtod(buf, NULL);
}

static int cmp_u64_desc(uint64_t x, uint64_t y) { return (x < y) - (x > y); }

static int cmp_text(const intern *keys, uint32_t a, uint32_t b)
{
	size_t la, lb;
	const char *sa = intern_str(keys, a, &la), *sb = intern_str(keys, b, &lb);
	int c = memcmp(sa, sb, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct agg_row *x = pa, *y = pb;
	if (ctx->window >= 0) {
		double wx = window_of(ctx->keys, x, ctx->window), wy = window_of(ctx->keys, y, ctx->window);
		if (wx != wy)
			return wx < wy ? -1 : 1;
	}
	int c = ctx->order == AGG_BY_SELF ? cmp_u64_desc(x->self, y->self) : cmp_u64_desc(x->total, y->total);
	if (!c)
		c = ctx->order == AGG_BY_SELF ? cmp_u64_desc(x->total, y->total) : cmp_u64_desc(x->self, y->self);
	if (c)
		return c;
	c = cmp_text(ctx->keys, x->key, y->key);
	if (!c && x->key2 != AGG_NONE && y->key2 != AGG_NONE)
		c = cmp_text(ctx->keys, x->key2, y->key2);
	return c;
}

void agg_sort(agg *a, enum agg_order order)
{
	struct sort_ctx ctx = { a->keys, order, a->window_k };
	if (a->nrows < 2)
		return;
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

static int key_named(const char *name, size_t len, enum frame_key *key)
{
	for (int i = 0; frame_key_names[i]; i++)
		if (strlen(frame_key_names[i]) == len && memcmp(frame_key_names[i], name, len) == 0) {
			*key = (enum frame_key)i;
			return 0;
		}
	return -1;
}

int agg_parse_keys(const char *value, struct agg_spec *spec, char *err, size_t errlen)
{
	const char *comma = strchr(value, ',');
	size_t first_len = comma ? (size_t)(comma - value) : strlen(value);
	if (comma && strchr(comma + 1, ',')) {
		snprintf(err, errlen, "--by takes one key or two: '%s'", value);
		return -1;
	}
	if (key_named(value, first_len, &spec->keys[0]) != 0 ||
	    (comma && key_named(comma + 1, strlen(comma + 1), &spec->keys[1]) != 0)) {
		snprintf(err, errlen, "invalid value for --by: '%s' (one or two of: frame, function, file, "
			 "lib, line, root, thread, process, category, source, window)", value);
		return -1;
	}
	spec->nkeys = comma ? 2 : 1;
	if (comma && spec->keys[0] == spec->keys[1]) {
		snprintf(err, errlen, "--by: the two keys must differ: '%s'", value);
		return -1;
	}
	return 0;
}

int agg_spec_needs_rules(const struct agg_spec *spec)
{
	return spec->keys[0] == KEY_CATEGORY || (spec->nkeys == 2 && spec->keys[1] == KEY_CATEGORY);
}

/* A row's key values as one unambiguous string: the first's length, then both texts. */
static const char *joined_text(const agg *a, const struct agg_row *r, char **buf, size_t *cap,
			       size_t *len)
{
	size_t l1, l2 = 0;
	const char *k1 = intern_str(a->keys, r->key, &l1);
	const char *k2 = r->key2 != AGG_NONE ? intern_str(a->keys, r->key2, &l2) : "";
	*buf = xgrow(*buf, cap, sizeof l1 + l1 + l2 + 1, 1);
	memcpy(*buf, &l1, sizeof l1);
	memcpy(*buf + sizeof l1, k1, l1);
	memcpy(*buf + sizeof l1 + l1, k2, l2);
	*len = sizeof l1 + l1 + l2;
	return *buf;
}

size_t agg_join(const agg *a, const agg *b, struct agg_join_row **rows)
{
	intern *index = intern_new(); /* a's keys; id = a's row */
	char *buf = NULL;
	size_t cap = 0, len;
	struct agg_join_row *out = xcalloc(a->nrows + b->nrows + 1, sizeof *out);
	for (size_t i = 0; i < a->nrows; i++) {
		const char *text = joined_text(a, &a->rows[i], &buf, &cap, &len);
		intern_add(index, text, len);
		out[i].side[0] = &a->rows[i];
	}
	size_t n = a->nrows;
	for (size_t i = 0; i < b->nrows; i++) {
		const char *text = joined_text(b, &b->rows[i], &buf, &cap, &len);
		uint32_t id = intern_find(index, text, len);
		if (id == INTERN_NONE)
			out[n++].side[1] = &b->rows[i];
		else
			out[id].side[1] = &b->rows[i];
	}
	free(buf);
	intern_free(index);
	*rows = out;
	return n;
}

const char *agg_join_key(const agg *a, const agg *b, const struct agg_join_row *row, size_t k,
			 size_t *len)
{
	const agg *owner = row->side[0] ? a : b;
	const struct agg_row *r = row->side[0] ? row->side[0] : row->side[1];
	uint32_t id = k == 0 ? r->key : r->key2;
	if (id == AGG_NONE) {
		*len = 0;
		return "";
	}
	return intern_str(owner->keys, id, len);
}

const char *agg_inclusive_unused(const struct agg_spec *spec)
{
	if (!spec->inclusive || agg_spec_needs_rules(spec))
		return NULL;
	return "--inclusive changes category totals only: add --by category (or a pair with category)";
}
