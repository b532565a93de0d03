/* gil: the GIL figures apart from sift-gil's options, so each one is tested on its own. */
#include "gil.h"
#include "intern.h"
#include "sum.h"
#include "xalloc.h"

#include <jansson.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gil_part_names[] = { "both", "summary", "keys", NULL };

double gil_per_wall_second(uint64_t samples, const struct gil_side *side)
{
	return side->seconds > 0 ? (double)samples / (side->seconds * side->rate) : NAN;
}

static int timed(const struct gil_side *total, const struct gil_side *gil)
{
	return total->seconds > 0 && gil->seconds > 0;
}

static struct gil_figure count(const char *name, uint64_t n)
{
	return (struct gil_figure){ name, 0, 0, NULL, 1, n };
}

static struct gil_figure real(const char *name, double value, int decimals)
{
	return (struct gil_figure){ name, value, decimals, NULL, 0, 0 };
}

size_t gil_summary(const struct gil_side *total, const struct gil_side *gil, int rate_assumed,
		   struct gil_figure *out)
{
	int t = timed(total, gil);
	double active = gil_per_wall_second(total->samples, total);
	double util = gil_per_wall_second(gil->samples, gil);
	size_t n = 0;
	out[n++] = count("total_samples", total->samples);
	out[n++] = count("gil_samples", gil->samples);
	out[n++] = real("total_seconds", t ? total->seconds : NAN, 2);
	out[n++] = real("gil_seconds", t ? gil->seconds : NAN, 2);
	out[n++] = real("total_rate_hz", t ? total->rate : NAN, 2);
	out[n++] = real("gil_rate_hz", t ? gil->rate : NAN, 2);
	out[n++] = real("mean_active_threads", active, 2);
	out[n++] = real("gil_utilization_pct", 100.0 * util, 1);
	out[n++] = real("gil_share_of_active_pct", t ? 100.0 * util / active : NAN, 1);
	out[n++] = real("gil_to_total_ratio_pct",
			t ? NAN : 100.0 * (double)gil->samples / (double)total->samples, 2);
	const char *note = t ? (rate_assumed ? "rate not given: 100 Hz assumed" : NULL)
			     : "no seconds given: both recordings assumed of the same duration and rate";
	out[n++] = (struct gil_figure){ "note", NAN, 0, note, 0, 0 };
	return n;
}

static int more_gil_first(const void *pa, const void *pb)
{
	const struct gil_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return 0;
}

size_t gil_rows(const struct gil_side *total, const struct gil_side *gil, struct gil_row **out)
{
	int t = timed(total, gil);
	struct agg_join_row *joined;
	size_t n = agg_join(total->sum, gil->sum, &joined);
	struct gil_row *rows = xcalloc(n + 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		struct gil_row *r = &rows[i];
		r->join = joined[i];
		r->total = joined[i].side[0] ? joined[i].side[0]->total : 0;
		r->gil = joined[i].side[1] ? joined[i].side[1]->total : 0;
		double tn = t ? gil_per_wall_second(r->total, total) : (double)r->total;
		double gn = t ? gil_per_wall_second(r->gil, gil) : (double)r->gil;
		r->share = tn > 0 ? 100.0 * gn / tn : (gn > 0 ? INFINITY : 0);
	}
	free(joined);
	/* Most GIL first: that is what a user looks for here; then by total. */
	qsort(rows, n, sizeof *rows, more_gil_first);
	*out = rows;
	return n;
}

/* The key figures of one row from column c on. */
static void set_row_figures(table *t, size_t c, const struct gil_row *r, const struct gil_side *total,
			    const struct gil_side *gil)
{
	table_set_uint(t, c, r->total);
	table_set_uint(t, c + 1, r->gil);
	table_set_real(t, c + 2, gil_per_wall_second(r->total, total));
	table_set_real(t, c + 3, gil_per_wall_second(r->gil, gil));
	if (isfinite(r->share))
		table_set_real(t, c + 4, r->share);
	const char *flag = !r->join.side[0] ? "GIL-ONLY" : r->share > 100.0 ? "OVER-100" : "";
	table_set_str(t, c + 5, flag, strlen(flag));
}

const char *const gil_key_columns[GIL_KEY_NCOLS] = {
	"total", "gil", "total_per_s", "gil_per_s", "gil_share_pct", "flag",
};
const char *const gil_dumps_columns[GIL_DUMPS_NCOLS] = { "seen", "active", "gil", "active_pct", "gil_pct" };

static void key_columns(struct table_column *cols, const struct agg_spec *keys)
{
	static const struct table_column figures[GIL_KEY_NCOLS] = {
		{ NULL, TABLE_UINT, 0 }, { NULL, TABLE_UINT, 0 }, { NULL, TABLE_REAL, 4 },
		{ NULL, TABLE_REAL, 4 }, { NULL, TABLE_PCT, 0 }, { NULL, TABLE_STR, 0 },
	};
	size_t nk = keys->nkeys;
	for (size_t k = 0; k < nk; k++)
		cols[k] = (struct table_column){ frame_key_names[keys->keys[k]], TABLE_STR, 0 };
	for (size_t c = 0; c < GIL_KEY_NCOLS; c++)
		cols[nk + c] = (struct table_column){ gil_key_columns[c], figures[c].type, figures[c].decimals };
}

table *gil_keys_table(const struct gil_side *total, const struct gil_side *gil,
		      const struct agg_spec *keys, unsigned long long limit)
{
	struct gil_row *rows;
	size_t nrows = gil_rows(total, gil, &rows);
	size_t nk = keys->nkeys;
	struct table_column cols[8];
	key_columns(cols, keys);
	table *t = table_new(cols, nk + 6);
	for (size_t i = 0; i < nrows && (limit == 0 || i < limit); i++) {
		const struct gil_row *r = &rows[i];
		table_add_row(t);
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *text = agg_join_key(total->sum, gil->sum, &r->join, k, &len);
			table_set_str(t, k, text, len);
		}
		set_row_figures(t, nk, r, total, gil);
	}
	free(rows);
	return t;
}

/* Per process. */
enum { KIND_UNKNOWN, KIND_OTHER, KIND_THREAD, KIND_PROCESS };
#define NO_GROUP UINT32_MAX

struct gil_split {
	prof *frames;
	struct agg_spec spec;
	struct gil_proc *procs;
	size_t nprocs, cap;
	unsigned char *kind;       /* frame id -> KIND_* */
	uint32_t *group;           /* frame id -> process index (process frames) */
	uint64_t *thread_samples;  /* frame id -> samples whose own thread it is */
	uint32_t *thread_group;    /* frame id -> the thread's process */
	size_t nframes, frames_cap;
	uint32_t none;             /* the "(no process)" index, NO_GROUP until needed */
	struct load_stats stats;
};

char *gil_proc_name(const char *frame, size_t len)
{
	struct frame_parts parts;
	frame_split(frame, len, &parts);
	if (parts.kind != FRAME_PROCESS)
		return xstrndup(frame, len);
	size_t n = parts.id_len + 2 + parts.name_len;
	char *s = xmalloc(n + 1);
	memcpy(s, parts.id, parts.id_len);
	memcpy(s + parts.id_len, ": ", 2);
	memcpy(s + parts.id_len + 2, parts.name, parts.name_len);
	s[parts.name_len ? n : parts.id_len] = '\0';
	return s;
}

gil_split *gil_split_new(const struct agg_spec *keys)
{
	gil_split *s = xcalloc(1, sizeof *s);
	s->frames = prof_new();
	s->spec = *keys;
	s->none = NO_GROUP;
	return s;
}

void gil_split_free(gil_split *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nprocs; i++) {
		free(s->procs[i].name);
		free(s->procs[i].key);
		agg_free(s->procs[i].sum);
	}
	free(s->procs);
	free(s->kind);
	free(s->group);
	free(s->thread_samples);
	free(s->thread_group);
	prof_free(s->frames);
	free(s);
}

/* A new process: frame NULL is "(no process)". */
static uint32_t split_add(gil_split *s, const char *frame, size_t len)
{
	s->procs = xgrow(s->procs, &s->cap, s->nprocs + 1, sizeof *s->procs);
	struct gil_proc *p = &s->procs[s->nprocs];
	memset(p, 0, sizeof *p);
	p->pid = ULLONG_MAX;
	if (frame) {
		p->name = gil_proc_name(frame, len);
		p->key = xstrndup(frame, len);
		p->pid = strtoull(frame + 8, NULL, 10);
	} else {
		p->name = xstrndup("(no process)", 12);
		p->key = xstrndup("(no process)", 12);
	}
	p->sum = agg_open(prof_frames_const(s->frames), &s->spec);
	return (uint32_t)s->nprocs++;
}

/* Work out the kinds of frames added since the last stack. */
static void split_classify(gil_split *s)
{
	const intern *frames = prof_frames_const(s->frames);
	size_t nf = intern_count(frames);
	if (nf <= s->nframes)
		return;
	size_t cap = s->frames_cap;
	s->kind = xgrow(s->kind, &cap, nf, sizeof *s->kind);
	cap = s->frames_cap;
	s->group = xgrow(s->group, &cap, nf, sizeof *s->group);
	cap = s->frames_cap;
	s->thread_samples = xgrow(s->thread_samples, &cap, nf, sizeof *s->thread_samples);
	cap = s->frames_cap;
	s->thread_group = xgrow(s->thread_group, &cap, nf, sizeof *s->thread_group);
	s->frames_cap = cap;
	for (; s->nframes < nf; s->nframes++) {
		size_t id = s->nframes, len;
		const char *text = intern_str(frames, (uint32_t)id, &len);
		struct frame_parts parts;
		frame_split(text, len, &parts);
		s->kind[id] = parts.kind == FRAME_THREAD ? KIND_THREAD
			    : parts.kind == FRAME_PROCESS ? KIND_PROCESS : KIND_OTHER;
		s->group[id] = NO_GROUP; /* a process has a row once a stack is its own */
		s->thread_samples[id] = 0;
		s->thread_group[id] = NO_GROUP;
	}
}

/* The consumer: the stack goes to its innermost process's sum. */
static void split_stack(void *ctx, const uint32_t *ids, size_t n, uint64_t count)
{
	gil_split *s = ctx;
	split_classify(s);
	uint32_t g = NO_GROUP, thread = NO_GROUP;
	for (size_t f = n; f-- > 0 && g == NO_GROUP;) {
		if (s->kind[ids[f]] == KIND_PROCESS) {
			if (s->group[ids[f]] == NO_GROUP) {
				size_t len;
				const char *text = intern_str(prof_frames_const(s->frames), ids[f], &len);
				s->group[ids[f]] = split_add(s, text, len);
			}
			g = s->group[ids[f]];
		}
		else if (s->kind[ids[f]] == KIND_THREAD && thread == NO_GROUP)
			thread = ids[f];
	}
	if (g == NO_GROUP) {
		if (s->none == NO_GROUP)
			s->none = split_add(s, NULL, 0);
		g = s->none;
	}
	if (thread != NO_GROUP) {
		s->thread_samples[thread] += count;
		s->thread_group[thread] = g;
	}
	agg_add(s->procs[g].sum, ids, n, count);
	s->procs[g].samples += count;
}

int gil_split_read(gil_split *s, char *const *files, size_t nfiles, const struct load_opts *opts,
		   struct err_lines *errs)
{
	struct load_opts o = *opts;
	o.consumer = split_stack;
	o.consumer_ctx = s;
	int status = load_files(s->frames, files, nfiles, &o, errs, &s->stats);
	uint64_t *counts = xcalloc(s->nframes + 1, sizeof *counts);
	for (size_t g = 0; g < s->nprocs; g++) {
		agg_close(s->procs[g].sum);
		size_t n = 0;
		for (size_t id = 0; id < s->nframes; id++)
			if (s->thread_group[id] == g)
				counts[n++] = s->thread_samples[id];
		/* A dump gives every thread one sample per snapshot by nature: profiles only. */
		struct gil_proc *p = &s->procs[g];
		if (!s->stats.dumps && sum_looks_idle(counts, n, &p->idle_min, &p->idle_max))
			p->idle_threads = n;
	}
	free(counts);
	return status;
}

const struct load_stats *gil_split_stats(const gil_split *s)
{
	return &s->stats;
}

const struct gil_proc *gil_split_proc(const gil_split *s, size_t i)
{
	return &s->procs[i];
}

static struct gil_proc *split_find(const gil_split *s, const char *key)
{
	for (size_t i = 0; i < s->nprocs; i++)
		if (strcmp(s->procs[i].key, key) == 0)
			return &s->procs[i];
	return NULL;
}

/* Add other's processes that s lacks, with empty sums. */
static void split_add_missing(gil_split *s, const gil_split *other)
{
	for (size_t i = 0; i < other->nprocs; i++) {
		const struct gil_proc *o = &other->procs[i];
		if (split_find(s, o->key))
			continue;
		uint32_t g = split_add(s, o->pid == ULLONG_MAX ? NULL : o->key, strlen(o->key));
		agg_close(s->procs[g].sum);
	}
}

static int by_pid(const void *pa, const void *pb)
{
	const struct gil_proc *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Keep process i only. */
static void split_keep(gil_split *s, size_t keep)
{
	for (size_t i = 0; i < s->nprocs; i++) {
		if (i == keep)
			continue;
		free(s->procs[i].name);
		free(s->procs[i].key);
		agg_free(s->procs[i].sum);
	}
	s->procs[0] = s->procs[keep];
	s->nprocs = 1;
}

size_t gil_split_align(gil_split *total, gil_split *gil, const char *pid)
{
	split_add_missing(total, gil);
	split_add_missing(gil, total);
	if (total->nprocs == 0) {
		uint32_t t = split_add(total, NULL, 0), g = split_add(gil, NULL, 0);
		agg_close(total->procs[t].sum);
		agg_close(gil->procs[g].sum);
	}
	qsort(total->procs, total->nprocs, sizeof *total->procs, by_pid);
	qsort(gil->procs, gil->nprocs, sizeof *gil->procs, by_pid);
	if (pid) {
		size_t i = 0;
		while (i < total->nprocs && !(total->procs[i].pid != ULLONG_MAX &&
					      total->procs[i].pid == strtoull(pid, NULL, 10)))
			i++;
		if (i == total->nprocs)
			return 0;
		split_keep(total, i);
		split_keep(gil, i);
	}
	return total->nprocs;
}

void gil_split_sides(const gil_split *total, const gil_split *gil, size_t i,
		     const struct gil_side *ts, const struct gil_side *gs,
		     struct gil_side *pt, struct gil_side *pg)
{
	*pt = *ts;
	*pg = *gs;
	pt->sum = total->procs[i].sum;
	pt->samples = total->procs[i].samples;
	pg->sum = gil->procs[i].sum;
	pg->samples = gil->procs[i].samples;
}

int gil_split_check_rate(const gil_split *gil, const struct gil_side *gs, char *msg, size_t cap)
{
	if (gs->seconds <= 0)
		return 0;
	for (size_t i = 0; i < gil->nprocs; i++) {
		const struct gil_proc *p = &gil->procs[i];
		if ((double)p->samples <= gs->seconds * gs->rate * 1.05)
			continue;
		if (gil->nprocs == 1)
			snprintf(msg, cap, "the GIL profile has %llu samples, more than %g s at %g Hz "
				 "allow: only one thread holds the GIL at a time (wrong seconds or rate, "
				 "or not a --gil profile?)", (unsigned long long)p->samples, gs->seconds,
				 gs->rate);
		else
			snprintf(msg, cap, "the GIL profile of process %s has %llu samples, more than "
				 "%g s at %g Hz allow: only one thread holds a process's GIL at a time "
				 "(wrong seconds or rate, or not a --gil profile?)", p->name,
				 (unsigned long long)p->samples, gs->seconds, gs->rate);
		return -1;
	}
	return 0;
}

void gil_split_note_idle(const gil_split *total, const char *what)
{
	for (size_t g = 0; g < total->nprocs; g++) {
		const struct gil_proc *p = &total->procs[g];
		if (!p->idle_threads)
			continue;
		if (total->nprocs == 1) {
			sum_note_idle(what, p->idle_threads, p->idle_min, p->idle_max);
		} else {
			size_t n = strlen(what) + strlen(p->name) + 16;
			char *where = xmalloc(n);
			snprintf(where, n, "%s, process %s", what, p->name);
			sum_note_idle(where, p->idle_threads, p->idle_min, p->idle_max);
			free(where);
		}
		return; /* once */
	}
}

table *gil_procs_summary(const gil_split *total, const gil_split *gil, const struct gil_side *ts,
			 const struct gil_side *gs)
{
	int t = timed(ts, gs);
	struct table_column cols[6] = {
		{ "process", TABLE_STR, 0 }, { "total_samples", TABLE_UINT, 0 },
		{ "gil_samples", TABLE_UINT, 0 }, { "mean_active_threads", TABLE_REAL, 2 },
		{ "gil_utilization_pct", TABLE_REAL, 1 }, { "gil_share_of_active_pct", TABLE_REAL, 1 },
	};
	if (!t)
		cols[3] = (struct table_column){ "gil_to_total_ratio_pct", TABLE_REAL, 2 };
	table *tab = table_new(cols, t ? 6 : 4);
	for (size_t i = 0; i < total->nprocs; i++) {
		struct gil_side pt, pg;
		struct gil_figure f[GIL_FIGURES_MAX];
		gil_split_sides(total, gil, i, ts, gs, &pt, &pg);
		gil_summary(&pt, &pg, 0, f);
		const char *name = total->procs[i].name;
		table_add_row(tab);
		table_set_str(tab, 0, name, strlen(name));
		table_set_uint(tab, 1, pt.samples);
		table_set_uint(tab, 2, pg.samples);
		/* the figures as gil_summary orders them: active, utilization, share, ratio */
		const struct gil_figure *want[3] = { &f[6], &f[7], &f[8] };
		if (!t)
			want[0] = &f[9];
		for (size_t c = 0; c < (t ? 3u : 1u); c++)
			if (isfinite(want[c]->value))
				table_set_real(tab, 3 + c, want[c]->value);
	}
	return tab;
}

/* One key row of one process. */
struct proc_row {
	size_t proc;
	struct gil_row row;
};

static int proc_rows_by_gil(const void *pa, const void *pb)
{
	const struct proc_row *a = pa, *b = pb;
	int c = more_gil_first(&a->row, &b->row);
	if (c)
		return c;
	return (a->proc > b->proc) - (a->proc < b->proc);
}

table *gil_procs_keys(const gil_split *total, const gil_split *gil, const struct gil_side *ts,
		      const struct gil_side *gs, const struct agg_spec *keys, unsigned long long limit)
{
	size_t np = total->nprocs, nk = keys->nkeys, n = 0;
	int own = 0; /* a process key: the process column would repeat it */
	for (size_t k = 0; k < nk; k++)
		own |= keys->keys[k] == KEY_PROCESS;
	struct gil_side *sides = xcalloc(2 * np, sizeof *sides);
	struct proc_row *all = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < np; i++) {
		gil_split_sides(total, gil, i, ts, gs, &sides[2 * i], &sides[2 * i + 1]);
		struct gil_row *rows;
		size_t nr = gil_rows(&sides[2 * i], &sides[2 * i + 1], &rows);
		for (size_t r = 0; r < nr; r++) {
			int keep = 1;
			for (size_t k = 0; k < nk && keep; k++) {
				size_t len;
				const char *text = agg_join_key(sides[2 * i].sum, sides[2 * i + 1].sum,
								&rows[r].join, k, &len);
				/* a parent's pseudo-frame is in its children's stacks too */
				keep = keys->keys[k] != KEY_PROCESS ||
				       (len == strlen(total->procs[i].key) &&
					memcmp(text, total->procs[i].key, len) == 0);
			}
			if (!keep)
				continue;
			all = xgrow(all, &cap, n + 1, sizeof *all);
			all[n++] = (struct proc_row){ i, rows[r] };
		}
		free(rows);
	}
	qsort(all, n, sizeof *all, proc_rows_by_gil);
	struct table_column cols[9];
	size_t c0 = own ? 0 : 1;
	cols[0] = (struct table_column){ "process", TABLE_STR, 0 };
	key_columns(cols + c0, keys);
	table *t = table_new(cols, c0 + nk + 6);
	for (size_t i = 0; i < n && (limit == 0 || i < limit); i++) {
		const struct proc_row *pr = &all[i];
		const struct gil_side *pt = &sides[2 * pr->proc], *pg = &sides[2 * pr->proc + 1];
		table_add_row(t);
		if (!own)
			table_set_str(t, 0, total->procs[pr->proc].name, strlen(total->procs[pr->proc].name));
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *text = agg_join_key(pt->sum, pg->sum, &pr->row.join, k, &len);
			table_set_str(t, c0 + k, text, len);
		}
		set_row_figures(t, c0 + nk, &pr->row, pt, pg);
	}
	free(all);
	free(sides);
	return t;
}

/* --dumps: the same questions answered from py-spy dump statuses. */
struct dump_row { uint32_t name, proc; uint64_t seen, active, gil; };

/* One process's snapshots. */
struct dump_proc_tally {
	char *name;                     /* "PID: CMDLINE" */
	unsigned long long pid;
	uint64_t snapshots, last_snapshot, with_gil, active_threads;
	int has_gil;
};

struct gil_dumps {
	intern *ids;                    /* "PID TID" -> row */
	intern *names;                  /* thread frames, for display */
	intern *pids;                   /* PID text -> process */
	struct dump_row *rows;
	size_t nrows, cap;
	struct dump_proc_tally *procs;
	size_t nprocs, procs_cap;
	char *keep_pid;
	uint64_t last_snapshot, snapshots_with_gil, active_threads;
	int snapshot_has_gil;
};

gil_dumps *gil_dumps_new(void)
{
	gil_dumps *d = xcalloc(1, sizeof *d);
	d->ids = intern_new();
	d->names = intern_new();
	d->pids = intern_new();
	return d;
}

void gil_dumps_free(gil_dumps *d)
{
	if (!d)
		return;
	intern_free(d->ids);
	intern_free(d->names);
	intern_free(d->pids);
	for (size_t i = 0; i < d->nprocs; i++)
		free(d->procs[i].name);
	free(d->procs);
	free(d->keep_pid);
	free(d->rows);
	free(d);
}

void gil_dumps_keep_pid(gil_dumps *d, const char *pid)
{
	free(d->keep_pid);
	d->keep_pid = pid ? xstrndup(pid, strlen(pid)) : NULL;
}

/* The thread's process, added when new; its snapshots counted as they begin. */
static struct dump_proc_tally *dump_proc(gil_dumps *d, const struct dump_thread *t,
					 const struct dump_text *pid, uint32_t *index)
{
	*index = intern_add(d->pids, pid ? pid->s : "", pid ? pid->len : 0);
	if (*index >= d->nprocs) {
		d->procs = xgrow(d->procs, &d->procs_cap, (size_t)*index + 1, sizeof *d->procs);
		struct dump_proc_tally *p = &d->procs[*index];
		memset(p, 0, sizeof *p);
		p->pid = ULLONG_MAX;
		if (pid && pid->len) {
			const struct dump_proc *own = &t->procs[t->nprocs - 1];
			size_t n = pid->len + 2 + own->cmd.len + 1;
			p->name = xmalloc(n);
			snprintf(p->name, n, own->cmd.len ? "%.*s: %.*s" : "%.*s", (int)pid->len, pid->s,
				 (int)own->cmd.len, own->cmd.s);
			p->pid = strtoull(pid->s, NULL, 10);
		} else {
			p->name = xstrndup("(no process)", 12);
		}
		d->nprocs = (size_t)*index + 1;
	}
	struct dump_proc_tally *p = &d->procs[*index];
	if (p->last_snapshot != t->snapshot) {
		p->last_snapshot = t->snapshot;
		p->snapshots++;
		p->has_gil = 0;
	}
	return p;
}

void gil_dumps_thread(void *ctx, const struct dump_thread *t)
{
	if (t->header_only)
		return;
	gil_dumps *d = ctx;
	const struct dump_text *pid = t->nprocs ? &t->procs[t->nprocs - 1].pid : NULL;
	if (d->keep_pid && !(pid && pid->len == strlen(d->keep_pid) &&
			     memcmp(pid->s, d->keep_pid, pid->len) == 0))
		return;
	if (t->snapshot != d->last_snapshot) {
		d->last_snapshot = t->snapshot;
		d->snapshot_has_gil = 0;
	}
	uint32_t proc;
	struct dump_proc_tally *p = dump_proc(d, t, pid, &proc);
	char key[256];
	int n = snprintf(key, sizeof key, "%.*s %.*s", pid ? (int)pid->len : 0, pid ? pid->s : "",
			 (int)t->tid.len, t->tid.s);
	uint32_t id = intern_add(d->ids, key, (size_t)n < sizeof key ? (size_t)n : sizeof key - 1);
	if (id >= d->nrows) {
		d->rows = xgrow(d->rows, &d->cap, (size_t)id + 1, sizeof *d->rows);
		d->rows[id] = (struct dump_row){ intern_add(d->names, t->thread_frame.s, t->thread_frame.len),
						 proc, 0, 0, 0 };
		d->nrows = (size_t)id + 1;
	}
	struct dump_row *r = &d->rows[id];
	r->seen++;
	if (t->status != DUMP_IDLE) {
		r->active++;
		d->active_threads++;
		p->active_threads++;
	}
	if (t->status == DUMP_ACTIVE_GIL) {
		r->gil++;
		if (!d->snapshot_has_gil)
			d->snapshots_with_gil++;
		d->snapshot_has_gil = 1;
		if (!p->has_gil)
			p->with_gil++;
		p->has_gil = 1;
	}
}

size_t gil_dumps_processes(const gil_dumps *d)
{
	return d->nprocs;
}

uint64_t gil_dumps_process_snapshots(const gil_dumps *d, size_t i)
{
	return d->procs[i].snapshots;
}

/* The figures of n snapshots with these tallies. */
static size_t dump_figures(uint64_t snapshots, uint64_t with_gil, uint64_t active_threads,
			   struct gil_figure *out)
{
	double n = (double)snapshots;
	double active = (double)active_threads / n, util = (double)with_gil / n;
	out[0] = count("snapshots", snapshots);
	out[1] = count("snapshots_with_gil", with_gil);
	out[2] = real("mean_active_threads", active, 2);
	out[3] = real("gil_utilization_pct", 100.0 * util, 1);
	out[4] = real("gil_share_of_active_pct", active > 0 ? 100.0 * util / active : NAN, 1);
	return 5;
}

size_t gil_dumps_summary(const gil_dumps *d, uint64_t snapshots, struct gil_figure *out)
{
	return dump_figures(snapshots, d->snapshots_with_gil, d->active_threads, out);
}

/* Process indexes by PID ("(no process)" last). */
static size_t *dump_proc_order(const gil_dumps *d)
{
	size_t *order = xcalloc(d->nprocs + 1, sizeof *order);
	for (size_t i = 0; i < d->nprocs; i++) {
		size_t j = i;
		for (; j > 0 && d->procs[order[j - 1]].pid > d->procs[i].pid; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	return order;
}

table *gil_dumps_procs_summary(const gil_dumps *d)
{
	const struct table_column cols[] = {
		{ "process", TABLE_STR, 0 }, { "snapshots", TABLE_UINT, 0 },
		{ "snapshots_with_gil", TABLE_UINT, 0 }, { "mean_active_threads", TABLE_REAL, 2 },
		{ "gil_utilization_pct", TABLE_REAL, 1 }, { "gil_share_of_active_pct", TABLE_REAL, 1 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	size_t *order = dump_proc_order(d);
	for (size_t i = 0; i < d->nprocs; i++) {
		const struct dump_proc_tally *p = &d->procs[order[i]];
		struct gil_figure f[5];
		dump_figures(p->snapshots, p->with_gil, p->active_threads, f);
		table_add_row(t);
		table_set_str(t, 0, p->name, strlen(p->name));
		table_set_uint(t, 1, p->snapshots);
		table_set_uint(t, 2, p->with_gil);
		for (size_t c = 2; c < 5; c++)
			if (isfinite(f[c].value))
				table_set_real(t, c + 1, f[c].value);
	}
	free(order);
	return t;
}

static int dump_rows_by_gil(const void *pa, const void *pb)
{
	const struct dump_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->active != b->active)
		return a->active < b->active ? 1 : -1;
	if (a->name != b->name)
		return (a->name > b->name) - (a->name < b->name);
	return (a->proc > b->proc) - (a->proc < b->proc);
}

table *gil_dumps_table(gil_dumps *d, uint64_t snapshots, unsigned long long limit)
{
	if (d->nrows > 1)
		qsort(d->rows, d->nrows, sizeof *d->rows, dump_rows_by_gil);
	int several = d->nprocs > 1;
	const struct table_column cols[] = {
		{ "process", TABLE_STR, 0 }, { "thread", TABLE_STR, 0 },
		{ gil_dumps_columns[GIL_DUMPS_SEEN], TABLE_UINT, 0 },
		{ gil_dumps_columns[GIL_DUMPS_ACTIVE], TABLE_UINT, 0 },
		{ gil_dumps_columns[GIL_DUMPS_GIL], TABLE_UINT, 0 },
		{ gil_dumps_columns[GIL_DUMPS_ACTIVE_PCT], TABLE_PCT, 0 },
		{ gil_dumps_columns[GIL_DUMPS_GIL_PCT], TABLE_PCT, 0 },
	};
	size_t c = several ? 1 : 0; /* the process column only when there are several */
	table *t = table_new(cols + 1 - c, sizeof cols / sizeof cols[0] - 1 + c);
	for (size_t i = 0; i < d->nrows && (limit == 0 || i < limit); i++) {
		const struct dump_row *r = &d->rows[i];
		const struct dump_proc_tally *p = &d->procs[r->proc];
		uint64_t of = several ? p->snapshots : snapshots; /* its own process's snapshots */
		size_t len;
		const char *name = intern_str(d->names, r->name, &len);
		table_add_row(t);
		if (several)
			table_set_str(t, 0, p->name, strlen(p->name));
		table_set_str(t, c, name, len);
		table_set_uint(t, c + 1, r->seen);
		table_set_uint(t, c + 2, r->active);
		table_set_uint(t, c + 3, r->gil);
		table_set_real(t, c + 4, table_pct(r->active, of));
		table_set_real(t, c + 5, table_pct(r->gil, of));
	}
	return t;
}

static void write_json(const struct gil_figure *f, size_t n, FILE *out)
{
	json_t *obj = json_object();
	for (size_t i = 0; i < n; i++) {
		if (f[i].text)
			json_object_set_new(obj, f[i].name, json_string(f[i].text));
		else if (f[i].is_count) /* as table.c: past INT64_MAX only a real holds it */
			json_object_set_new(obj, f[i].name, f[i].count <= (uint64_t)INT64_MAX
				? json_integer((json_int_t)f[i].count) : json_real((double)f[i].count));
		else if (!isnan(f[i].value))
			json_object_set_new(obj, f[i].name, f[i].decimals == 0
				? json_integer((json_int_t)f[i].value)
				: json_real(round(f[i].value * pow(10, f[i].decimals)) / pow(10, f[i].decimals)));
	}
	json_dumpf(obj, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(obj);
}

/* The summary: "name value" lines in text, an object in JSON, a name/value table else. */
static void write_summary(const struct gil_figure *f, size_t n, FILE *out, enum table_format format)
{
	if (format == TABLE_TEXT) {
		for (size_t i = 0; i < n; i++) {
			if (f[i].text)
				fprintf(out, "%-26s %s\n", f[i].name, f[i].text);
			else if (f[i].is_count)
				fprintf(out, "%-26s %llu\n", f[i].name, (unsigned long long)f[i].count);
			else if (!isnan(f[i].value))
				fprintf(out, "%-26s %.*f\n", f[i].name, f[i].decimals, f[i].value);
		}
		return;
	}
	if (format == TABLE_JSON) {
		write_json(f, n, out);
		return;
	}
	const struct table_column cols[] = { { "name", TABLE_STR, 0 }, { "value", TABLE_STR, 0 } };
	table *t = table_new(cols, 2);
	for (size_t i = 0; i < n; i++) {
		char buf[64];
		const char *text = f[i].text;
		if (!text && f[i].is_count) {
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)f[i].count);
			text = buf;
		} else if (!text) {
			if (isnan(f[i].value))
				continue;
			snprintf(buf, sizeof buf, "%.*f", f[i].decimals, f[i].value);
			text = buf;
		}
		table_add_row(t);
		table_set_str(t, 0, f[i].name, strlen(f[i].name));
		table_set_str(t, 1, text, strlen(text));
	}
	table_write(t, out, format, 0);
	table_free(t);
}

/* Either figures or a summary table. */
static void write_parts(FILE *out, enum table_format format, enum gil_part part,
			const struct gil_figure *figures, size_t nfigures, const table *summary,
			const table *keys, unsigned flags)
{
	int json = format == TABLE_JSON && part == GIL_BOTH;
	if (json)
		fputs("{\n\"summary\": ", out);
	if (part != GIL_KEYS && summary)
		table_write(summary, out, format, TABLE_TEXT_KEY_LAST);
	else if (part != GIL_KEYS)
		write_summary(figures, nfigures, out, format);
	if (part == GIL_BOTH)
		fputs(json ? ",\n\"keys\": " : "\n", out);
	if (part != GIL_SUMMARY)
		table_write(keys, out, format, flags);
	if (json)
		fputs("}\n", out);
	else if (format == TABLE_JSON && part == GIL_SUMMARY && !summary)
		putc('\n', out);
}

void gil_write(FILE *out, enum table_format format, enum gil_part part,
	       const struct gil_figure *figures, size_t nfigures, const table *keys, unsigned flags)
{
	write_parts(out, format, part, figures, nfigures, NULL, keys, flags);
}

void gil_write_table(FILE *out, enum table_format format, enum gil_part part,
		     const table *summary, const table *keys, unsigned flags)
{
	write_parts(out, format, part, NULL, 0, summary, keys, flags);
}
