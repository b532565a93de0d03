/* threadtab: sift-threads' rows apart from its options, so tallies, the CPU join and the
 * order are tested on their own. */
#include "threadtab.h"
#include "frame.h"
#include "intern.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const threadtab_columns[THREADTAB_NCOLS] = {
	"pid", "tid", "thread", "os_thread", "seen", "active", "idle", "gil", "cpu_mean", "cpu_max",
	"leaf", "handoff", "category",
};

/* One thread over all snapshots. */
struct thr {
	uint32_t tid;               /* id in tids */
	uint32_t pid, name;         /* ids in strs, INTERN_NONE when unknown */
	uint64_t seen, active, idle, gil;
	const struct cpu_thread *cpu;
};

struct threadtab {
	intern *tids;               /* thread id text -> index in thr */
	intern *strs;               /* pids, names, leaf and hand-off frames */
	intern *pairs;              /* (thread, active?, what, string id) -> index in counts */
	uint64_t *counts;
	size_t counts_cap;
	struct thr *thr;
	size_t nthr, thr_cap;
	char *scratch;
	size_t scratch_cap;
	intern *frames;             /* every frame seen, for the category rules */
	rules *rules;
	rules_cache *categories;
	uint32_t *ids;              /* one stack's frame ids, root first */
	size_t ids_cap;
};

enum { WHAT_LEAF, WHAT_HANDOFF, WHAT_CATEGORY };

threadtab *threadtab_new(rules *r)
{
	threadtab *s = xcalloc(1, sizeof *s);
	s->tids = intern_new();
	s->strs = intern_new();
	s->pairs = intern_new();
	s->frames = intern_new();
	s->rules = r;
	s->categories = rules_cache_new(r, s->frames, 0);
	return s;
}

void threadtab_free(threadtab *s)
{
	if (!s)
		return;
	rules_cache_free(s->categories);
	intern_free(s->frames);
	free(s->ids);
	intern_free(s->tids);
	intern_free(s->strs);
	intern_free(s->pairs);
	free(s->counts);
	free(s->thr);
	free(s->scratch);
	free(s);
}

size_t threadtab_count(const threadtab *s) { return s->nthr; }

static void tally(threadtab *s, uint32_t thread, int active, int what, uint32_t str)
{
	uint32_t key[3] = { thread, (uint32_t)(active << 2 | what), str };
	uint32_t id = intern_add(s->pairs, (const char *)key, sizeof key);
	if (id >= s->counts_cap) {
		size_t old = s->counts_cap;
		s->counts = xgrow(s->counts, &s->counts_cap, (size_t)id + 1, sizeof *s->counts);
		memset(s->counts + old, 0, (s->counts_cap - old) * sizeof *s->counts);
	}
	s->counts[id]++;
}

static int is_native(const struct dump_text *f)
{
	struct frame_parts p;
	frame_split(f->s, f->len, &p);
	return p.native;
}

/* The row of thread id text, new rows empty. */
static struct thr *row(threadtab *s, const char *tid, size_t len)
{
	uint32_t id = intern_add(s->tids, tid, len);
	if (id >= s->nthr) {
		s->thr = xgrow(s->thr, &s->thr_cap, (size_t)id + 1, sizeof *s->thr);
		memset(&s->thr[id], 0, sizeof *s->thr);
		s->thr[id].tid = id;
		s->thr[id].pid = s->thr[id].name = INTERN_NONE;
		s->nthr = (size_t)id + 1;
	}
	return &s->thr[id];
}

void threadtab_thread(void *ctx, const struct dump_thread *t)
{
	if (t->header_only)
		return;
	threadtab *s = ctx;
	struct thr *r = row(s, t->tid.s, t->tid.len);
	uint32_t id = r->tid;
	if (t->nprocs)
		r->pid = intern_add(s->strs, t->procs[t->nprocs - 1].pid.s, t->procs[t->nprocs - 1].pid.len);
	if (t->has_name)
		r->name = intern_add(s->strs, t->name.s, t->name.len);
	r->seen++;
	int active = t->status != DUMP_IDLE;
	r->active += active;
	r->idle += !active;
	r->gil += t->status == DUMP_ACTIVE_GIL;
	if (!t->nframes)
		return;
	tally(s, id, active, WHAT_LEAF, intern_add(s->strs, t->frames[0].s, t->frames[0].len));
	/* Hand-off: the innermost Python frame and the native frame it called, if any. */
	for (size_t i = 0; i < t->nframes; i++) {
		if (is_native(&t->frames[i]))
			continue;
		size_t need = t->frames[i].len + 1 + (i ? 4 + t->frames[i - 1].len : 0);
		s->scratch = xgrow(s->scratch, &s->scratch_cap, need, 1);
		size_t used = t->frames[i].len;
		memcpy(s->scratch, t->frames[i].s, used);
		if (i) {
			memcpy(s->scratch + used, " -> ", 4);
			memcpy(s->scratch + used + 4, t->frames[i - 1].s, t->frames[i - 1].len);
			used += 4 + t->frames[i - 1].len;
		}
		tally(s, id, active, WHAT_HANDOFF, intern_add(s->strs, s->scratch, used));
		break;
	}
	/* The category of this snapshot's stack; the column shows the most frequent one. */
	s->ids = xgrow(s->ids, &s->ids_cap, t->nframes, sizeof *s->ids);
	for (size_t i = 0; i < t->nframes; i++)
		s->ids[t->nframes - 1 - i] = intern_add(s->frames, t->frames[i].s, t->frames[i].len);
	size_t len;
	const char *name = rules_category_name(s->rules,
					      rules_stack(s->categories, s->ids, t->nframes), &len);
	tally(s, id, active, WHAT_CATEGORY, intern_add(s->strs, name, len));
}

static uint64_t tid_number(const threadtab *s, const struct thr *r, int *ok)
{
	size_t len;
	const char *t = intern_str(s->tids, r->tid, &len);
	char *end;
	unsigned long long v = strtoull(t, &end, 10);
	*ok = len && *t >= '0' && *t <= '9' && *end == '\0';
	return v;
}

size_t threadtab_join_cpu(threadtab *s, const cpu_table *cpu)
{
	size_t dumped = s->nthr;
	for (size_t i = 0; i < dumped; i++) {
		int ok;
		uint64_t tid = tid_number(s, &s->thr[i], &ok);
		if (ok)
			s->thr[i].cpu = cpu_find(cpu, tid);
	}
	for (size_t i = 0; i < cpu_count(cpu); i++) {
		const struct cpu_thread *c = cpu_at(cpu, i);
		char text[24];
		int n = snprintf(text, sizeof text, "%llu", (unsigned long long)c->tid);
		if (intern_find(s->tids, text, (size_t)n) != INTERN_NONE || c->max <= 0)
			continue;
		char pid[24];
		int np = snprintf(pid, sizeof pid, "%llu", (unsigned long long)c->pid);
		if (c->pid && dumped) {
			uint32_t id = intern_find(s->strs, pid, (size_t)np);
			int ours = 0;
			for (size_t k = 0; k < dumped && !ours; k++)
				ours = id != INTERN_NONE && s->thr[k].pid == id;
			if (!ours)
				continue;
		}
		struct thr *r = row(s, text, (size_t)n);
		if (c->pid)
			r->pid = intern_add(s->strs, pid, (size_t)np);
		r->cpu = c;
	}
	return dumped;
}

/* The most frequent string for each thread and what (out[what][thread]), over active
 * snapshots when the thread had any: one pass over the tallies (one per thread was quadratic). */
static void most(const threadtab *s, uint32_t *const out[3])
{
	uint64_t *best_n = xcalloc(s->nthr * 3 + 1, sizeof *best_n);
	for (size_t i = 0; i < s->nthr; i++)
		out[0][i] = out[1][i] = out[2][i] = INTERN_NONE;
	size_t n = intern_count(s->pairs);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		uint32_t key[3];
		memcpy(key, intern_str(s->pairs, (uint32_t)i, &len), sizeof key);
		const struct thr *r = &s->thr[key[0]];
		uint32_t what = key[1] & 3;
		if (key[1] >> 2 != (uint32_t)(r->active > 0))
			continue;
		uint64_t *bn = &best_n[(size_t)key[0] * 3 + what];
		uint32_t *best = &out[what][key[0]];
		/* ties go to the string seen first: ids are in input order */
		if (s->counts[i] > *bn || (s->counts[i] == *bn && key[2] < *best)) {
			*best = key[2];
			*bn = s->counts[i];
		}
	}
	free(best_n);
}

static double cpu_mean(const struct thr *r)
{
	return r->cpu && r->cpu->samples ? r->cpu->sum / (double)r->cpu->samples : -1;
}

static int by_cpu_then_active(const void *a, const void *b, void *ctx)
{
	const threadtab *st = ctx;
	const struct thr *x = a, *y = b;
	double cx = cpu_mean(x), cy = cpu_mean(y);
	if (cx != cy)
		return cx < cy ? 1 : -1;
	if (x->active != y->active)
		return x->active < y->active ? 1 : -1;
	if (x->seen != y->seen)
		return x->seen < y->seen ? 1 : -1;
	size_t lx, ly;
	const char *tx = intern_str(st->tids, x->tid, &lx);
	const char *ty = intern_str(st->tids, y->tid, &ly);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return memcmp(tx, ty, lx);
}

static void set_id(table *t, size_t col, const intern *in, uint32_t id)
{
	if (id == INTERN_NONE)
		return;
	size_t len;
	const char *s = intern_str(in, id, &len);
	table_set_str(t, col, s, len);
}

/* Text for people: shortened to max characters, a frame's function kept; of a hand-off
 * ("PY -> NATIVE"), the Python frame only (cut is 1). */
static void set_short(table *t, size_t col, const char *s, size_t len, size_t max, int cut)
{
	const char *arrow = cut ? memmem(s, len, " -> ", 4) : NULL;
	if (arrow)
		len = (size_t)(arrow - s);
	char buf[4 * THREADTAB_TEXT_FRAME + 8];
	size_t n = frame_shorten(s, len, max, buf, sizeof buf);
	table_set_str(t, col, buf, n);
}

static void set_frame_text(table *t, size_t col, const intern *in, uint32_t id, size_t max, int cut)
{
	if (id == INTERN_NONE)
		return;
	size_t len;
	const char *s = intern_str(in, id, &len);
	set_short(t, col, s, len, max, cut);
}

/* The table's columns, at[c] the place of column c: text for people (short) drops
 * os_thread, idle (seen less active) and cpu_max (at[c] is THREADTAB_NCOLS). */
static table *new_table(int short_text, size_t at[THREADTAB_NCOLS])
{
	static const enum table_type types[THREADTAB_NCOLS] = {
		TABLE_STR, TABLE_STR, TABLE_STR, TABLE_STR, TABLE_UINT, TABLE_UINT, TABLE_UINT, TABLE_UINT,
		TABLE_PCT, TABLE_PCT, TABLE_STR, TABLE_STR, TABLE_STR,
	};
	struct table_column cols[THREADTAB_NCOLS];
	size_t n = 0;
	for (size_t c = 0; c < THREADTAB_NCOLS; c++) {
		at[c] = THREADTAB_NCOLS;
		if (short_text && (c == THREADTAB_OS_THREAD || c == THREADTAB_IDLE || c == THREADTAB_CPU_MAX))
			continue;
		at[c] = n;
		cols[n++] = (struct table_column){ threadtab_columns[c], types[c], 0 };
	}
	return table_new(cols, n);
}

table *threadtab_table(threadtab *s, int text)
{
	int short_text = text && text != THREADTAB_TEXT_WIDE;
	/* Work out leaf and hand-off before sorting: tallies are keyed by the thread's id. */
	uint32_t *leaf = xmalloc((s->nthr + 1) * sizeof *leaf), *handoff = xmalloc((s->nthr + 1) * sizeof *handoff);
	uint32_t *category = xmalloc((s->nthr + 1) * sizeof *category);
	uint32_t *const by_what[3] = { [WHAT_LEAF] = leaf, [WHAT_HANDOFF] = handoff, [WHAT_CATEGORY] = category };
	most(s, by_what);
	if (s->nthr > 1)
		qsort_r(s->thr, s->nthr, sizeof *s->thr, by_cpu_then_active, s);

	size_t at[THREADTAB_NCOLS];
	table *t = new_table(short_text, at);
	for (size_t i = 0; i < s->nthr; i++) {
		const struct thr *r = &s->thr[i];
		const char *os_name = r->cpu ? r->cpu->name : NULL;
		table_add_row(t);
		set_id(t, at[THREADTAB_PID], s->strs, r->pid);
		set_id(t, at[THREADTAB_TID], s->tids, r->tid);
		table_set_uint(t, at[THREADTAB_SEEN], r->seen);
		table_set_uint(t, at[THREADTAB_ACTIVE], r->active);
		table_set_uint(t, at[THREADTAB_GIL], r->gil);
		if (r->cpu && r->cpu->samples)
			table_set_real(t, at[THREADTAB_CPU_MEAN], r->cpu->sum / (double)r->cpu->samples);
		set_id(t, at[THREADTAB_CATEGORY], s->strs, category[r->tid]);
		if (!short_text) {
			table_set_uint(t, THREADTAB_IDLE, r->idle);
			set_id(t, THREADTAB_THREAD, s->strs, r->name);
			if (os_name)
				table_set_str(t, THREADTAB_OS_THREAD, os_name, strlen(os_name));
			if (r->cpu && r->cpu->samples)
				table_set_real(t, THREADTAB_CPU_MAX, r->cpu->max);
			set_id(t, THREADTAB_LEAF, s->strs, leaf[r->tid]);
			set_id(t, THREADTAB_HANDOFF, s->strs, handoff[r->tid]);
			continue;
		}
		/* no Python name: the OS thread's stands in (os_thread is not shown) */
		if (r->name != INTERN_NONE)
			set_frame_text(t, at[THREADTAB_THREAD], s->strs, r->name, THREADTAB_TEXT_NAME, 0);
		else if (os_name)
			set_short(t, at[THREADTAB_THREAD], os_name, strlen(os_name), THREADTAB_TEXT_NAME, 0);
		set_frame_text(t, at[THREADTAB_LEAF], s->strs, leaf[r->tid], THREADTAB_TEXT_FRAME, 0);
		if (handoff[r->tid] != INTERN_NONE && handoff[r->tid] == leaf[r->tid])
			table_set_str(t, at[THREADTAB_HANDOFF], "=", 1);
		else
			set_frame_text(t, at[THREADTAB_HANDOFF], s->strs, handoff[r->tid], THREADTAB_TEXT_FRAME, 1);
	}
	free(leaf);
	free(handoff);
	free(category);
	return t;
}
