/* ranks: processes (by label, PID and file rank) observed snapshot by snapshot, grouped by
 * their kind and the normalized stack of their last snapshot. */
#include "ranks.h"
#include "frame.h"
#include "intern.h"
#include "load.h"
#include "prof.h"
#include "rankname.h"
#include "rankstree.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE INTERN_NONE

/* One snapshot of one process. */
struct obs {
	uint64_t snapshot;
	uint32_t sel;              /* the grouping thread's stack, NONE when the snapshot lacks it */
	enum dump_status status;   /* of that thread */
	int cut;                   /* the paste ended inside that thread: its root is missing */
	uint32_t *all;             /* --all-threads: every thread's stack, its thread frame first */
	size_t nall, all_cap;
	uint32_t sig;              /* what groups are made of (ranks_finish) */
};

struct proc {
	uint32_t pid, cmd, label, filerank;  /* ids in strs, NONE when unknown */
	uint32_t *files;                     /* ids in strs, in the order first seen */
	size_t nfiles, files_cap;
	struct obs *obs;
	size_t nobs, obs_cap;
	uint32_t kind;             /* id in kinds (ranks_finish) */
	uint32_t name;             /* id in strs: the rank as shown ("5", "DP1_TP0"), NONE */
	long long rank;            /* numeric rank, -1 when none */
	int moved;                 /* its stacks differ between snapshots */
	size_t group;
};

struct group {
	uint32_t kind, sig;
	size_t *members;
	size_t n, cap;
	int fragment;              /* no grouping thread in the paste: its own group */
	uint32_t shared, mine, theirs;  /* vs the largest group of its kind: the last frame both
					  * have, this group's next frame and that group's */
	int compared;
	uint32_t title;            /* id in strs */
};

struct ranks {
	const struct ranks_opts *opts;
	struct err_lines *errs;
	struct load_opts lopts;
	prof *frames;              /* the normalized frames, interned by the sink */
	load_sink *sink;
	uint32_t *got;             /* the stack the sink just kept */
	size_t ngot, got_cap;
	intern *stacks;            /* frame-id arrays */
	intern *strs;
	intern *keys;              /* process keys -> index in procs */
	intern *kinds;             /* kind keys (command lines, digits blanked) */
	uint32_t *kind_label;      /* by kind: id in strs */
	size_t kind_label_cap;
	struct proc *procs;
	size_t nprocs, procs_cap;
	struct group *groups;
	size_t ngroups, groups_cap;
	uint32_t main_kind;
	int over_time;
	rx *file_rx;
	const char *rank_file;     /* the file whose rank rank_file_id is (a cache) */
	uint32_t rank_file_id;
};

static void capture(void *ctx, const uint32_t *frames, size_t n, uint64_t count)
{
	ranks *r = ctx;
	(void)count;
	r->got = xgrow(r->got, &r->got_cap, n + 1, sizeof *r->got);
	if (n) /* an empty stack may come as NULL */
		memcpy(r->got, frames, n * sizeof *frames);
	r->ngot = n;
}

ranks *ranks_new(const struct ranks_opts *opts, struct err_lines *errs)
{
	ranks *r = xcalloc(1, sizeof *r);
	r->opts = opts;
	r->errs = errs;
	/* sift-diff's normalization: addresses collapsed per library, no TIDs */
	r->lopts.collapse_addrs = 1;
	r->lopts.no_tids = 1;
	r->lopts.no_lines = opts->no_lines;
	r->lopts.consumer = capture;
	r->lopts.consumer_ctx = r;
	r->frames = prof_new();
	r->sink = load_sink_new(r->frames, &r->lopts, errs);
	r->got = xgrow(NULL, &r->got_cap, 16, sizeof *r->got);
	r->stacks = intern_new();
	r->strs = intern_new();
	r->keys = intern_new();
	r->kinds = intern_new();
	static const char file_re[] = "(?i)(?:^|[^a-z])(?<name>(?:rank|tp|dp|pp|worker|gpu)[-_]?(?<n>[0-9]{1,6}))";
	char err[256];
	r->file_rx = rx_compile(file_re, sizeof file_re - 1, err, sizeof err);
	r->rank_file_id = NONE;
	return r;
}

void ranks_free(ranks *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nprocs; i++) {
		for (size_t k = 0; k < r->procs[i].nobs; k++)
			free(r->procs[i].obs[k].all);
		free(r->procs[i].obs);
		free(r->procs[i].files);
	}
	for (size_t i = 0; i < r->ngroups; i++)
		free(r->groups[i].members);
	free(r->procs);
	free(r->groups);
	free(r->kind_label);
	free(r->got);
	load_sink_free(r->sink);
	prof_free(r->frames);
	intern_free(r->stacks);
	intern_free(r->strs);
	intern_free(r->keys);
	intern_free(r->kinds);
	rx_free(r->file_rx);
	free(r);
}

size_t ranks_processes(const ranks *r) { return r->nprocs; }
size_t ranks_groups(const ranks *r) { return r->ngroups; }
int ranks_over_time(const ranks *r) { return r->over_time; }

static uint32_t str_id(ranks *r, const struct dump_text *t)
{
	return intern_add(r->strs, t->s ? t->s : "", t->len);
}

static const char *str_of(const ranks *r, uint32_t id, size_t *len)
{
	return intern_str(r->strs, id, len);
}

/* The rank a file's name gives (rank3.txt, dump-tp3.txt): "rank3", or NONE. */
static uint32_t file_rank(ranks *r, const char *file)
{
	if (!file || !r->file_rx)
		return NONE;
	if (file == r->rank_file)
		return r->rank_file_id;
	const char *base = load_base_name(file), *s;
	size_t len;
	char msg[256];
	r->rank_file = file;
	r->rank_file_id = NONE;
	if (rx_match_groups(r->file_rx, base, strlen(base), msg, sizeof msg) == 1 &&
	    rx_group(r->file_rx, "name", &s, &len))
		r->rank_file_id = intern_add(r->strs, s, len);
	return r->rank_file_id;
}

/* The thread's stack, normalized, root first (its thread frame first when asked). */
static uint32_t stack_of(ranks *r, const struct dump_thread *t, int with_thread)
{
	r->ngot = 0;
	load_stack_begin(r->sink, t->file, t->lineno);
	if (with_thread)
		load_stack_frame(r->sink, t->thread_frame.s, t->thread_frame.len);
	for (size_t i = t->nframes; i-- > 0;)
		load_stack_frame(r->sink, t->frames[i].s, t->frames[i].len);
	load_stack_end(r->sink, 1);
	return intern_add(r->stacks, (const char *)r->got, r->ngot * sizeof *r->got);
}

static int text_is(const struct dump_text *t, const char *s)
{
	return t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

/* The thread groups are made by: --thread's, else the main thread (named so, whose id is
 * the process id, or, unnamed as py-spy 0.1 left threads, whose outermost frame is
 * <module>). */
static int selected(ranks *r, const struct dump_thread *t)
{
	if (r->opts->thread) {
		char msg[256];
		int rc = rx_match(r->opts->thread, t->thread_frame.s, t->thread_frame.len, msg, sizeof msg);
		if (rc < 0)
			err_exit(EXIT_DATA, "%s:%lu: %s", t->file, t->lineno, msg);
		return rc;
	}
	if (t->has_name && text_is(&t->name, "MainThread"))
		return 1;
	if (!t->has_name && t->nframes && t->frames[t->nframes - 1].len > 10 &&
	    memcmp(t->frames[t->nframes - 1].s, "<module> (", 10) == 0)
		return 1;
	if (!t->nprocs)
		return 0;
	const struct dump_text *pid = &t->procs[t->nprocs - 1].pid;
	return pid->len == t->tid.len && memcmp(pid->s, t->tid.s, pid->len) == 0;
}

static struct proc *proc_of(ranks *r, const struct dump_thread *t)
{
	static const struct dump_text none = { "", 0 };
	const struct dump_proc *dp = t->nprocs ? &t->procs[t->nprocs - 1] : NULL;
	uint32_t file = intern_add(r->strs, t->file ? t->file : "", t->file ? strlen(t->file) : 0);
	uint32_t key[4] = { t->label.len ? str_id(r, &t->label) : NONE, dp ? str_id(r, &dp->pid) : NONE,
			    file_rank(r, t->file), NONE };
	if (key[1] == NONE) /* no process header: the file (and label) is all there is */
		key[3] = file;
	uint32_t id = intern_add(r->keys, (const char *)key, sizeof key);
	if (id >= r->nprocs) {
		r->procs = xgrow(r->procs, &r->procs_cap, (size_t)id + 1, sizeof *r->procs);
		struct proc *p = &r->procs[id];
		memset(p, 0, sizeof *p);
		p->label = key[0];
		p->pid = key[1];
		p->filerank = key[2];
		p->cmd = dp ? str_id(r, &dp->cmd) : str_id(r, &none);
		p->name = NONE;
		p->rank = -1;
		r->nprocs = (size_t)id + 1;
	}
	struct proc *p = &r->procs[id];
	size_t cl;
	if (dp && dp->cmd.len && (str_of(r, p->cmd, &cl), cl == 0)) /* --json may lack it */
		p->cmd = str_id(r, &dp->cmd);
	if (!p->nfiles || p->files[p->nfiles - 1] != file) {
		size_t i = 0;
		while (i < p->nfiles && p->files[i] != file)
			i++;
		if (i == p->nfiles) {
			p->files = xgrow(p->files, &p->files_cap, p->nfiles + 1, sizeof *p->files);
			p->files[p->nfiles++] = file;
		}
	}
	return p;
}

static struct obs *obs_of(struct proc *p, uint64_t snapshot)
{
	if (p->nobs && p->obs[p->nobs - 1].snapshot == snapshot)
		return &p->obs[p->nobs - 1];
	/* snapshots come in order: only an older one is looked for */
	for (size_t i = p->nobs; i-- > 0 && p->obs[i].snapshot > snapshot;)
		if (i && p->obs[i - 1].snapshot == snapshot)
			return &p->obs[i - 1];
	p->obs = xgrow(p->obs, &p->obs_cap, p->nobs + 1, sizeof *p->obs);
	struct obs *o = &p->obs[p->nobs++];
	memset(o, 0, sizeof *o);
	o->snapshot = snapshot;
	o->sel = o->sig = NONE;
	return o;
}

void ranks_thread(void *ctx, const struct dump_thread *t)
{
	ranks *r = ctx;
	struct obs *o = obs_of(proc_of(r, t), t->snapshot);
	if (t->header_only) /* its dump was cut after the header: a fragment */
		return;
	if (r->opts->all_threads) {
		o->all = xgrow(o->all, &o->all_cap, o->nall + 1, sizeof *o->all);
		o->all[o->nall++] = stack_of(r, t, 1);
	}
	if (o->sel == NONE && selected(r, t)) {
		o->sel = stack_of(r, t, 0);
		o->status = t->status;
		o->cut = t->cut_off;
	}
}

/* ---- names and kinds ---- */

/* --rank-from: group 1, else the whole match, of the first subject it matches. */
static int rank_from(ranks *r, const char *const *subj, const size_t *lens, struct rankname_sb *name)
{
	for (int i = 0; i < 3; i++) {
		char msg[256];
		const char *s;
		size_t len;
		if (!subj[i])
			continue;
		int rc = rx_match_groups(r->opts->rank_from, subj[i], lens[i], msg, sizeof msg);
		if (rc < 0)
			err_exit(EXIT_DATA, "--rank-from: %s", msg);
		if (rc == 1 && (rx_group_at(r->opts->rank_from, 1, &s, &len) ||
				rx_group_at(r->opts->rank_from, 0, &s, &len)) && len) {
			for (size_t k = 0; k < len; k++) /* a name is a folded frame's text too */
				rankname_put(name, s[k] == ';' ? "," : s + k, 1);
			return 1;
		}
	}
	return 0;
}

/* A process's rank, where the dump says it first: --rank-from, its process title or
 * command line, its label, its file name. */
static void name_proc(ranks *r, struct proc *p, int alone)
{
	struct rankname_sb name = { 0 };
	size_t cl, ll = 0, fl = 0;
	const char *cmd = str_of(r, p->cmd, &cl);
	const char *label = p->label != NONE ? str_of(r, p->label, &ll) : NULL;
	/* a file's name is a process's only when the file holds no other */
	const char *file = p->filerank != NONE && alone ? str_of(r, p->filerank, &fl) : NULL;
	long long num = -1;
	if (r->opts->rank_from) {
		size_t nf;
		const char *f = p->nfiles ? str_of(r, p->files[0], &nf) : NULL;
		const char *subj[3] = { cl ? cmd : NULL, label, f };
		size_t lens[3] = { cl, ll, f ? nf : 0 };
		if (rank_from(r, subj, lens, &name))
			num = rankname_number(name.s, name.len);
	}
	int found = name.len > 0 || rankname_title(cmd, cl, &name, &num) || rankname_flag(cmd, cl, &name, &num);
	if (!found && (label || file)) { /* "3", "rank3", "trainer-3": the number it ends in */
		rankname_put(&name, label ? label : file, label ? ll : fl);
		num = rankname_trailing_number(name.s, name.len);
	}
	if (name.len) {
		p->name = intern_add(r->strs, name.s, name.len);
		p->rank = num;
	}
	free(name.s);
}

/* Kinds: command lines alike but for their digits (ranks, ports, hosts) are one kind. */
static void kind_proc(ranks *r, struct proc *p)
{
	size_t len;
	const char *cmd = str_of(r, p->cmd, &len);
	char *key = xmalloc(len + 1);
	p->kind = intern_add(r->kinds, key, rankname_kind_key(cmd, len, key));
	free(key);
	if (p->kind >= r->kind_label_cap || intern_count(r->kinds) > r->kind_label_cap) {
		size_t old = r->kind_label_cap;
		r->kind_label = xgrow(r->kind_label, &r->kind_label_cap, intern_count(r->kinds), sizeof *r->kind_label);
		for (size_t i = old; i < r->kind_label_cap; i++)
			r->kind_label[i] = NONE;
	}
	if (r->kind_label[p->kind] == NONE) {
		struct rankname_sb l = { 0 };
		rankname_kind_label(cmd, len, &l);
		r->kind_label[p->kind] = intern_add(r->strs, l.s ? l.s : "", l.len);
		free(l.s);
	}
}

/* Two processes of one kind with one number: the numbers say nothing (TP0 of two DP
 * replicas, local rank 0 of two nodes): show the names instead. */
static void drop_shared_numbers(ranks *r)
{
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc *a = &r->procs[i];
		for (size_t k = i + 1; k < r->nprocs && a->rank >= 0; k++) {
			struct proc *b = &r->procs[k];
			if (b->kind != a->kind || b->rank != a->rank)
				continue;
			for (size_t j = 0; j < r->nprocs; j++)
				if (r->procs[j].kind == a->kind)
					r->procs[j].rank = -1;
		}
	}
}

/* ---- groups ---- */

/* A stack's frames, copied out (intern's bytes need not be aligned); free() it. */
static uint32_t *stack_copy(const ranks *r, uint32_t id, size_t *n)
{
	size_t len;
	const char *s = intern_str(r->stacks, id, &len);
	uint32_t *out = xmalloc(len + sizeof *out);
	memcpy(out, s, len);
	*n = len / sizeof *out;
	return out;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static const struct obs *last_obs(const struct proc *p) { return &p->obs[p->nobs - 1]; }

/* What a snapshot is grouped by: its thread's stack, or the multiset of all its threads'. */
static uint32_t signature(ranks *r, struct obs *o)
{
	if (o->sel == NONE || !r->opts->all_threads)
		return o->sel;
	uint32_t *ids = xmalloc((o->nall + 1) * sizeof *ids);
	memcpy(ids, o->all, o->nall * sizeof *ids);
	qsort(ids, o->nall, sizeof *ids, cmp_u32);
	uint32_t sig = intern_add(r->stacks, (const char *)ids, o->nall * sizeof *ids);
	free(ids);
	return sig;
}

static void add_member(struct group *g, size_t proc)
{
	g->members = xgrow(g->members, &g->cap, g->n + 1, sizeof *g->members);
	g->members[g->n++] = proc;
}

static void make_groups(ranks *r)
{
	intern *keys = intern_new();
	for (size_t i = 0; i < r->nprocs; i++) {
		struct proc *p = &r->procs[i];
		for (size_t k = 0; k < p->nobs; k++)
			p->obs[k].sig = signature(r, &p->obs[k]);
		uint32_t sig = last_obs(p)->sig;
		for (size_t k = 0; k + 1 < p->nobs; k++)
			p->moved |= p->obs[k].sig != sig;
		r->over_time |= p->nobs > 1;
		/* a fragment (no main thread in the paste) is its own group: its key is its index;
		 * without the thread --thread names, processes of a kind are one group */
		int fragment = sig == NONE && !r->opts->thread;
		uint32_t key[3] = { p->kind, sig, fragment ? (uint32_t)i : NONE };
		uint32_t g = intern_add(keys, (const char *)key, sizeof key);
		if (g >= r->ngroups) {
			r->groups = xgrow(r->groups, &r->groups_cap, (size_t)g + 1, sizeof *r->groups);
			memset(&r->groups[g], 0, sizeof r->groups[g]);
			r->groups[g].kind = p->kind;
			r->groups[g].sig = sig;
			r->groups[g].fragment = fragment;
			r->groups[g].shared = r->groups[g].mine = r->groups[g].theirs = NONE;
			r->groups[g].title = NONE;
			r->ngroups = (size_t)g + 1;
		}
		add_member(&r->groups[g], i);
	}
	intern_free(keys);
}

/* The kind most processes (with their grouping thread) are of; ties: the first seen. */
static uint32_t main_kind(const ranks *r)
{
	size_t nk = intern_count(r->kinds), best = 0;
	size_t *count = xcalloc(nk + 1, sizeof *count);
	for (size_t i = 0; i < r->ngroups; i++)
		if (!r->groups[i].fragment)
			count[r->groups[i].kind] += r->groups[i].n;
	for (size_t k = 1; k < nk; k++)
		if (count[k] > count[best])
			best = k;
	free(count);
	return (uint32_t)best;
}

static int by_size(const void *a, const void *b, void *ctx)
{
	const ranks *r = ctx;
	const struct group *x = a, *y = b;
	int mx = x->kind == r->main_kind, my = y->kind == r->main_kind;
	if (mx != my)
		return my - mx;
	if (x->fragment != y->fragment)
		return x->fragment - y->fragment;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return x->members[0] < y->members[0] ? -1 : x->members[0] > y->members[0];
}

static int has_stack(const uint32_t *ids, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return 1;
	return 0;
}

/* The stacks a group is compared and drawn by: its first member's last snapshot's. */
static const uint32_t *group_stacks(const ranks *r, const struct group *g, size_t *n)
{
	const struct obs *o = last_obs(&r->procs[g->members[0]]);
	if (r->opts->all_threads) {
		*n = o->nall;
		return o->all;
	}
	*n = o->sel != NONE;
	return &o->sel;
}

/* Where g parts from ref: its first stack ref lacks, against ref's stack that shares the
 * most frames with it. */
static void diverge(ranks *r, struct group *g, const struct group *ref)
{
	size_t nm, nr;
	const uint32_t *mine = group_stacks(r, g, &nm), *theirs = group_stacks(r, ref, &nr);
	size_t c = 0;
	while (c < nm && has_stack(theirs, nr, mine[c]))
		c++;
	if (c == nm || nr == 0)
		return;
	size_t lm, best_k = 0, best_len = 0;
	uint32_t *m = stack_copy(r, mine[c], &lm), *best = NULL;
	for (size_t i = 0; i < nr; i++) {
		size_t lt, k = 0;
		uint32_t *t = stack_copy(r, theirs[i], &lt);
		while (k < lm && k < lt && m[k] == t[k])
			k++;
		if (!best || k > best_k) {
			free(best);
			best = t;
			best_k = k;
			best_len = lt;
		} else {
			free(t);
		}
	}
	g->compared = 1;
	g->shared = best_k ? m[best_k - 1] : NONE;
	g->mine = best_k < lm ? m[best_k] : NONE;
	g->theirs = best_k < best_len ? best[best_k] : NONE;
	free(m);
	free(best);
}

/* Titles: the main kind's groups by number, other kinds by their name, fragments apart. */
static void title_groups(ranks *r)
{
	size_t number = 0, fragments = 0;
	for (size_t i = 0; i < r->ngroups; i++)
		fragments += r->groups[i].fragment;
	size_t nfrag = 0;
	for (size_t i = 0; i < r->ngroups; i++) {
		struct group *g = &r->groups[i];
		struct rankname_sb t = { 0 };
		if (g->fragment) {
			rankname_str(&t, "fragment");
			if (fragments > 1)
				rankname_printf(&t, " %zu", ++nfrag);
		} else if (g->kind == r->main_kind) {
			rankname_printf(&t, "%zu", ++number);
		} else {
			size_t same = 0, before = 0, len;
			for (size_t k = 0; k < r->ngroups; k++)
				if (r->groups[k].kind == g->kind && !r->groups[k].fragment) {
					same++;
					before += k < i;
				}
			const char *l = str_of(r, r->kind_label[g->kind], &len);
			rankname_put(&t, len ? l : "(no process line)", len ? len : 17);
			if (same > 1)
				rankname_printf(&t, " #%zu", before + 1);
		}
		g->title = intern_add(r->strs, t.s, t.len);
		free(t.s);
	}
}

void ranks_finish(ranks *r)
{
	for (size_t i = 0; i < r->nprocs; i++) {
		int alone = 1;
		for (size_t k = 0; k < r->nprocs && alone; k++)
			alone = k == i || r->procs[k].files[0] != r->procs[i].files[0];
		name_proc(r, &r->procs[i], alone);
		kind_proc(r, &r->procs[i]);
	}
	drop_shared_numbers(r);
	make_groups(r);
	r->main_kind = main_kind(r);
	if (r->ngroups > 1)
		qsort_r(r->groups, r->ngroups, sizeof *r->groups, by_size, r);
	for (size_t i = 0; i < r->ngroups; i++) {
		struct group *g = &r->groups[i];
		for (size_t k = 0; k < g->n; k++)
			r->procs[g->members[k]].group = i;
		for (size_t k = 0; k < i && !g->fragment; k++)
			if (r->groups[k].kind == g->kind && !r->groups[k].fragment) {
				diverge(r, g, &r->groups[k]);
				break;
			}
	}
	title_groups(r);
}

/* ---- words ---- */


enum { WHO_PIDS, WHO_RANKS, WHO_FILES, WHO_UNRANKED };

/* One of a group's lists: its pids, its ranks (numbers or names), its files, or the pids
 * of the members that have no rank. */
static void group_list(const ranks *r, const struct group *g, int what, struct rankname_sb *out)
{
	size_t n = 0, cap = g->n + 1;
	for (size_t i = 0; i < g->n; i++)
		cap += r->procs[g->members[i]].nfiles;
	uint32_t *ids = xmalloc(cap * sizeof *ids);
	char num[24];
	for (size_t i = 0; i < g->n; i++) {
		const struct proc *p = &r->procs[g->members[i]];
		if (what == WHO_PIDS && p->pid != NONE) {
			ids[n++] = p->pid;
		} else if (what == WHO_RANKS && p->rank >= 0) {
			int w = snprintf(num, sizeof num, "%lld", p->rank);
			ids[n++] = intern_add(r->strs, num, (size_t)w);
		} else if (what == WHO_RANKS && p->name != NONE) {
			ids[n++] = p->name;
		} else if (what == WHO_FILES) {
			for (size_t k = 0; k < p->nfiles; k++)
				ids[n++] = p->files[k];
		} else if (what == WHO_UNRANKED && p->name == NONE && p->pid != NONE) {
			ids[n++] = p->pid;
		}
	}
	if (what == WHO_FILES) { /* as given, in order, each once */
		for (size_t i = 0; i < n; i++) {
			int dup = 0;
			for (size_t k = 0; k < i && !dup; k++)
				dup = ids[k] == ids[i];
			size_t len;
			const char *s = str_of(r, ids[i], &len);
			if (!dup) {
				if (out->len)
					rankname_put(out, ",", 1);
				rankname_put(out, s, len);
			}
		}
	} else { /* numbers as ranges ("575-582"), then the texts that are no number */
		const char **texts = xmalloc((n + 1) * sizeof *texts);
		size_t *lens = xmalloc((n + 1) * sizeof *lens);
		for (size_t i = 0; i < n; i++)
			texts[i] = str_of(r, ids[i], &lens[i]);
		rankname_list(texts, lens, n, out);
		free(texts);
		free(lens);
	}
	free(ids);
}

/* "rank 5 (pid 580)", "ranks 3,5 (pids 578,580)", "pid 580". */
static void who(const ranks *r, const struct group *g, struct rankname_sb *out)
{
	struct rankname_sb ranks_l = { 0 }, pids = { 0 }, unranked = { 0 };
	group_list(r, g, WHO_RANKS, &ranks_l);
	group_list(r, g, WHO_PIDS, &pids);
	group_list(r, g, WHO_UNRANKED, &unranked);
	const char *s = g->n > 1 ? "s" : "";
	if (ranks_l.len)
		rankname_printf(out, "rank%s %s", s, ranks_l.s);
	if (ranks_l.len && pids.len)
		rankname_printf(out, " (pid%s %s)", s, pids.s);
	else if (pids.len)
		rankname_printf(out, "pid%s %s", s, pids.s);
	if (ranks_l.len && unranked.len) /* some have a rank, some only a pid */
		rankname_printf(out, " and pid%s %s", unranked.len > 1 ? "s" : "", unranked.s);
	if (!out->len)
		rankname_printf(out, "%zu process%s", g->n, g->n > 1 ? "es" : "");
	free(ranks_l.s);
	free(pids.s);
	free(unranked.s);
}

/* A node's or group's ranks, as the tree and folded roots show them: "0-4,6-7", with the
 * pids of processes that have no rank. */
static void rank_set(const ranks *r, const struct group *g, struct rankname_sb *out)
{
	struct rankname_sb set = { 0 }, unranked = { 0 };
	group_list(r, g, WHO_RANKS, &set);
	group_list(r, g, WHO_UNRANKED, &unranked);
	if (unranked.len)
		rankname_printf(&set, "%spid %s", set.len ? "," : "", unranked.s);
	if (!set.len)
		rankname_printf(&set, "%zu process%s", g->n, g->n > 1 ? "es" : "");
	rankname_put(out, set.s, set.len);
	free(set.s);
	free(unranked.s);
}

static const char *frame_text(const ranks *r, uint32_t id, size_t *len)
{
	return intern_str(prof_frames_const(r->frames), id, len);
}

static void put_frame(const ranks *r, uint32_t id, struct rankname_sb *out)
{
	size_t len;
	const char *s = frame_text(r, id, &len);
	rankname_put(out, s, len);
}

/* A frame's function name alone, for "under NAME". */
static void put_name(const ranks *r, uint32_t id, struct rankname_sb *out)
{
	size_t len;
	const char *s = frame_text(r, id, &len);
	struct frame_parts parts;
	frame_split(s, len, &parts);
	rankname_put(out, parts.name_len ? parts.name : s, parts.name_len ? parts.name_len : len);
}

static uint32_t leaf_of(const ranks *r, const struct group *g)
{
	const struct obs *o = last_obs(&r->procs[g->members[0]]);
	if (o->sel == NONE)
		return NONE;
	size_t n;
	uint32_t *f = stack_copy(r, o->sel, &n), leaf = n ? f[n - 1] : NONE;
	free(f);
	return leaf;
}

static void state_of(const ranks *r, const struct group *g, struct rankname_sb *out)
{
	size_t count[3] = { 0, 0, 0 };  /* active, gil, idle */
	for (size_t i = 0; i < g->n; i++) {
		const struct obs *o = last_obs(&r->procs[g->members[i]]);
		if (o->sel != NONE)
			count[o->status == DUMP_ACTIVE ? 0 : o->status == DUMP_ACTIVE_GIL ? 1 : 2]++;
	}
	static const char *const words[] = { "active", "gil", "idle" };
	size_t kinds = (count[0] > 0) + (count[1] > 0) + (count[2] > 0);
	for (int k = 0; k < 3; k++) {
		if (!count[k])
			continue;
		if (kinds == 1)
			rankname_str(out, words[k]);
		else
			rankname_printf(out, "%s%zu %s", out->len ? ", " : "", count[k], words[k]);
	}
}

static void diverges_text(const ranks *r, const struct group *g, struct rankname_sb *out)
{
	if (!g->compared)
		return;
	if (g->shared != NONE)
		put_frame(r, g->shared, out);
	else
		rankname_str(out, "(root)");
	rankname_str(out, " -> ");
	if (g->mine != NONE)
		put_frame(r, g->mine, out);
	else
		rankname_str(out, "(ends here)");
}

static size_t moved_count(const ranks *r, const struct group *g, size_t *snapshots)
{
	size_t moved = 0;
	*snapshots = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct proc *p = &r->procs[g->members[i]];
		moved += p->moved != 0;
		if (p->nobs > *snapshots)
			*snapshots = p->nobs;
	}
	return moved;
}

table *ranks_table(const ranks *r)
{
	const struct table_column cols[] = {
		{ "group", TABLE_STR, 0 }, { "processes", TABLE_UINT, 0 }, { "pids", TABLE_STR, 0 },
		{ "ranks", TABLE_STR, 0 }, { "files", TABLE_STR, 0 }, { "state", TABLE_STR, 0 },
		{ "leaf", TABLE_STR, 0 }, { "diverges_at", TABLE_STR, 0 }, { "snapshots", TABLE_UINT, 0 },
		{ "moved", TABLE_STR, 0 },
	};
	table *t = table_new(cols, r->over_time ? 10 : 8);
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct group *g = &r->groups[i];
		struct rankname_sb cell[6] = { { 0 } };
		size_t len;
		const char *title = str_of(r, g->title, &len);
		table_add_row(t);
		table_set_str(t, 0, title, len);
		table_set_uint(t, 1, g->n);
		group_list(r, g, WHO_PIDS, &cell[0]);
		group_list(r, g, WHO_RANKS, &cell[1]);
		group_list(r, g, WHO_FILES, &cell[2]);
		state_of(r, g, &cell[3]);
		uint32_t leaf = leaf_of(r, g);
		if (leaf != NONE)
			put_frame(r, leaf, &cell[4]);
		diverges_text(r, g, &cell[5]);
		for (int c = 0; c < 6; c++)
			if (cell[c].len)
				table_set_str(t, (size_t)c + 2, cell[c].s, cell[c].len);
		if (r->over_time) {
			size_t snaps, moved = moved_count(r, g, &snaps);
			struct rankname_sb mv = { 0 };
			table_set_uint(t, 8, snaps);
			if (moved == 0 && snaps > 1)
				rankname_str(&mv, "stayed");
			else if (moved && moved == g->n)
				rankname_str(&mv, "moved");
			else if (moved)
				rankname_printf(&mv, "%zu of %zu moved", moved, g->n);
			if (mv.len)
				table_set_str(t, 9, mv.s, mv.len);
			free(mv.s);
		}
		for (int c = 0; c < 6; c++)
			free(cell[c].s);
	}
	return t;
}

/* ---- the verdict ---- */

/* The frame a verdict names a group by: its innermost Python frame (a native leaf says
 * little: [libc.so.6]), else its leaf. */
static uint32_t python_leaf(const ranks *r, const struct group *g)
{
	const struct obs *o = last_obs(&r->procs[g->members[0]]);
	if (o->sel == NONE)
		return NONE;
	size_t n;
	uint32_t *f = stack_copy(r, o->sel, &n), found = n ? f[n - 1] : NONE;
	for (size_t i = n; i-- > 0;) {
		size_t len;
		const char *text = frame_text(r, f[i], &len);
		struct frame_parts parts;
		frame_split(text, len, &parts);
		if (parts.kind == FRAME_CODE && parts.file_len && !parts.native) {
			found = f[i];
			break;
		}
	}
	free(f);
	return found;
}

/* " in FRAME under SHARED": where a group is, and what it shares with the largest. */
static void where(const ranks *r, const struct group *g, struct rankname_sb *out)
{
	uint32_t leaf = python_leaf(r, g);
	if (leaf != NONE) {
		rankname_str(out, " in ");
		put_frame(r, leaf, out);
	} else if (g->sig == NONE) {
		rankname_str(out, " with no thread --thread matches");
	}
	if (g->compared && g->shared != NONE && g->shared != leaf) {
		rankname_str(out, " under ");
		put_name(r, g->shared, out);
	}
}

/* " 5 ranks (0-1,3-4,7)", " 1 process (pid 9)": a large group of a split. */
static void count_who(const ranks *r, const struct group *g, int named, struct rankname_sb *out)
{
	struct rankname_sb set = { 0 };
	rank_set(r, g, &set);
	const char *word = named ? (g->n == 1 ? "rank" : "ranks") : (g->n == 1 ? "process" : "processes");
	rankname_printf(out, " %zu %s (%s)", g->n, word, set.s);
	free(set.s);
}

/* The main kind's verdict: all agree, the odd ones out, or a split between large groups. */
static void main_verdict(const ranks *r, size_t m, size_t total, struct rankname_sb *out)
{
	const struct group *g0 = &r->groups[0];
	int named = 1;
	for (size_t i = 0; i < m; i++)
		for (size_t k = 0; k < r->groups[i].n; k++)
			named &= r->procs[r->groups[i].members[k]].name != NONE;
	const char *word = named ? "ranks" : "processes";
	size_t klen;
	const char *kind = str_of(r, r->kind_label[r->main_kind], &klen);
	if (m == 1 && total == 1) {
		rankname_str(out, "1 process, nothing to compare: ");
		who(r, g0, out);
		where(r, g0, out);
		return;
	}
	if (m == 1) {
		rankname_printf(out, "all %zu %s agree%s%.*s%s:", total, word, klen ? " (" : "", (int)klen, kind, klen ? ")" : "");
		struct rankname_sb st = { 0 };
		state_of(r, g0, &st);
		if (st.len)
			rankname_printf(out, " %s", st.s);
		free(st.s);
		where(r, g0, out);
		return;
	}
	size_t large = 0, odd = 0;
	for (size_t i = 1; i < m; i++) {
		if (2 * r->groups[i].n <= g0->n)
			odd += r->groups[i].n;
		else
			large++;
	}
	if (large) { /* not one culprit: large groups sit in different places */
		rankname_printf(out, "no odd one out, the %s split:", word);
		for (size_t i = 0; i < m; i++) {
			const struct group *g = &r->groups[i];
			if (i && 2 * g->n <= g0->n)
				continue;
			if (i)
				rankname_put(out, ",", 1);
			count_who(r, g, named, out);
			uint32_t f = python_leaf(r, g);
			if (f != NONE) {
				rankname_str(out, " in ");
				put_frame(r, f, out);
			}
		}
		if (r->groups[1].shared != NONE) {
			rankname_str(out, ", parting under ");
			put_name(r, r->groups[1].shared, out);
		}
		if (!odd)
			return;
		rankname_printf(out, "; %zu more differ%s:", odd, odd == 1 ? "s" : "");
	} else {
		rankname_printf(out, "%zu of %zu %s differ%s:", odd, total, word, odd == 1 ? "s" : "");
	}
	int first = 1;
	for (size_t i = 1; i < m; i++) {
		const struct group *g = &r->groups[i];
		if (2 * g->n > g0->n)
			continue;
		rankname_str(out, first ? " " : "; ");
		first = 0;
		who(r, g, out);
		where(r, g, out);
	}
	if (!large) {
		rankname_printf(out, "; %zu wait", g0->n);
		where(r, g0, out);
	}
}

/* Processes of other kinds, fragments, and over time who moved: a line each. */
static void other_lines(const ranks *r, FILE *out)
{
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct group *g = &r->groups[i];
		struct rankname_sb line = { 0 };
		size_t len;
		if (g->fragment) {
			rankname_str(&line, "fragment, left out: ");
			who(r, g, &line);
			const char *file = str_of(r, r->procs[g->members[0]].files[0], &len);
			rankname_printf(&line, " (%.*s) has no %s in the paste", (int)len, file,
					r->opts->thread ? "thread --thread matches" : "MainThread");
		} else if (g->kind != r->main_kind) {
			const char *kind = str_of(r, r->kind_label[g->kind], &len);
			rankname_printf(&line, "another kind, not compared: %.*s ", (int)len, kind);
			who(r, g, &line);
			struct rankname_sb st = { 0 };
			state_of(r, g, &st);
			if (st.len)
				rankname_printf(&line, ", %s", st.s);
			free(st.s);
			where(r, g, &line);
		}
		if (line.len)
			fprintf(out, "%s\n", line.s);
		free(line.s);
	}
	for (size_t i = 0; i < r->nprocs; i++) {
		if (!last_obs(&r->procs[i])->cut)
			continue;
		struct group one = { 0 };
		size_t idx = i;
		one.members = &idx;
		one.n = 1;
		struct rankname_sb line = { 0 };
		who(r, &one, &line);
		fprintf(out, "cut off: %s: the paste ends inside its stack, its outer frames are missing\n", line.s);
		free(line.s);
	}
}

static void time_lines(const ranks *r, FILE *out)
{
	size_t stayed = 0, seen = 0;
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc *p = &r->procs[i];
		if (p->nobs < 2)
			continue;
		seen++;
		stayed += !p->moved;
	}
	if (!seen)
		return;
	fprintf(out, "over time: %zu of %zu processes seen in several snapshots stayed (the same stack in each)%s\n",
		stayed, seen, stayed == seen ? ": stuck" : "");
	if (stayed) {
		struct group still = { 0 };
		still.members = xmalloc(stayed * sizeof *still.members);
		for (size_t i = 0; i < r->nprocs; i++)
			if (r->procs[i].nobs > 1 && !r->procs[i].moved)
				still.members[still.n++] = i;
		struct rankname_sb line = { 0 };
		who(r, &still, &line);
		fprintf(out, "stayed: %s\n", line.s);
		free(line.s);
		free(still.members);
	}
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct proc *p = &r->procs[i];
		if (p->nobs < 2 || !p->moved)
			continue;
		size_t changes = 0;
		for (size_t k = 1; k < p->nobs; k++)
			changes += p->obs[k].sig != p->obs[k - 1].sig;
		struct group one = { 0 };
		size_t idx = i;
		one.members = &idx;
		one.n = 1;
		struct rankname_sb line = { 0 };
		who(r, &one, &line);
		fprintf(out, "moved: %s, its stack changed %zu time%s in %zu snapshots\n", line.s, changes,
			changes == 1 ? "" : "s", p->nobs);
		free(line.s);
	}
}

int ranks_write_verdict(const ranks *r, FILE *out)
{
	size_t m = 0, total = 0;
	while (m < r->ngroups && r->groups[m].kind == r->main_kind && !r->groups[m].fragment)
		total += r->groups[m++].n;
	struct rankname_sb line = { 0 };
	if (m == 0)
		rankname_str(&line, r->nprocs ? "no process has its grouping thread in the paste" : "no process");
	else
		main_verdict(r, m, total, &line);
	fprintf(out, "verdict: %s\n", line.s);
	free(line.s);
	other_lines(r, out);
	time_lines(r, out);
	return ferror(out) ? -1 : 0;
}

/* ---- the prefix tree and folded stacks ---- */

/* The stacks one process is drawn by: its last snapshot's. */
static const uint32_t *proc_stacks(const ranks *r, const struct proc *p, size_t *n)
{
	const struct obs *o = last_obs(p);
	if (r->opts->all_threads) {
		*n = o->nall;
		return o->all;
	}
	*n = o->sel != NONE;
	return &o->sel;
}

/* A node's processes: the main kind's ranks, then each other kind's named by it
 * ("0-7 + sglang.launch_server 0"). */
static void node_label(const ranks *r, const size_t *members, size_t n, struct rankname_sb *out)
{
	size_t *part = xmalloc((n + 1) * sizeof *part);
	struct rankname_sb set_text = { 0 };
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			uint32_t kind = r->procs[members[i]].kind;
			int seen = 0;
			for (size_t k = 0; k < i && !seen; k++) /* each kind once */
				seen = r->procs[members[k]].kind == kind;
			if (seen || (pass == 0) != (kind == r->main_kind))
				continue;
			struct group set = { 0 };
			set.members = part;
			for (size_t k = i; k < n; k++)
				if (r->procs[members[k]].kind == kind)
					part[set.n++] = members[k];
			set_text.len = 0;
			rank_set(r, &set, &set_text);
			size_t len;
			const char *l = str_of(r, r->kind_label[kind], &len);
			rankname_printf(out, "%s%.*s%s%s", out->len ? " + " : "", pass ? (int)len : 0, l,
					pass && len ? " " : "", set_text.s);
		}
	}
	free(set_text.s);
	free(part);
}

struct tree_ctx { const ranks *r; struct rankname_sb label; };

/* A line of the tree: the branch marks, the ranks that reached the frame, the frame. */
static void tree_line(void *ctx, const char *prefix, uint32_t frame, const size_t *members, size_t n,
		      FILE *out)
{
	struct tree_ctx *c = ctx;
	c->label.len = 0;
	node_label(c->r, members, n, &c->label);
	size_t len;
	const char *text = frame_text(c->r, frame, &len);
	fprintf(out, "%s[%s] %.*s\n", prefix, c->label.s, (int)len, text);
}

int ranks_write_tree(const ranks *r, FILE *out)
{
	rankstree *t = rankstree_new();
	for (size_t i = 0; i < r->nprocs; i++) {
		size_t ns;
		const uint32_t *stacks = proc_stacks(r, &r->procs[i], &ns);
		for (size_t s = 0; s < ns; s++) {
			size_t nf;
			uint32_t *f = stack_copy(r, stacks[s], &nf);
			rankstree_add(t, i, f, nf);
			free(f);
		}
	}
	struct tree_ctx c = { r, { 0 } };
	int rc = rankstree_write(t, tree_line, &c, out);
	free(c.label.s);
	rankstree_free(t);
	return rc;
}

int ranks_write_folded(const ranks *r, FILE *out)
{
	struct rankname_sb root = { 0 };
	for (size_t i = 0; i < r->ngroups; i++) {
		const struct group *g = &r->groups[i];
		size_t ns, klen;
		const uint32_t *stacks = group_stacks(r, g, &ns);
		root.len = 0;
		rankname_str(&root, "[ranks ");
		rank_set(r, g, &root);
		const char *kind = str_of(r, r->kind_label[g->kind], &klen);
		if (g->fragment)
			rankname_str(&root, " (fragment)");
		else if (g->kind != r->main_kind && klen)
			rankname_printf(&root, " (%.*s)", (int)klen, kind);
		rankname_str(&root, "]");
		for (size_t k = 0; k < root.len; k++) /* a name may not split the folded line */
			if (root.s[k] == ';')
				root.s[k] = ',';
		for (size_t s = 0; s < ns; s++) {
			size_t nf;
			uint32_t *f = stack_copy(r, stacks[s], &nf);
			fputs(root.s, out);
			for (size_t k = 0; k < nf; k++) {
				size_t len;
				const char *text = frame_text(r, f[k], &len);
				fprintf(out, ";%.*s", (int)len, text);
			}
			fprintf(out, " %zu\n", g->n);
			free(f);
		}
	}
	free(root.s);
	return ferror(out) ? -1 : 0;
}
