/* sum: each reader sums into its own table with its own frame ids; tables, stack hashes and
 * thread names are merged by text at the end, so the result does not depend on the split. */
#include "sum.h"
#include "chunk.h"
#include "hset.h"
#include "input.h"
#include "rules.h"
#include "sniff.h"
#include "speedscope.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
	MAX_WORKERS = 8,
	SNIFF_BYTES = 64 << 10,     /* how much of each file shows its format */
};

/* One reader's sums, over its own frame table. */
struct part {
	prof *frames;
	agg *table;
	hset *stacks;
	uint64_t *frame_hash;       /* frame id -> hash of its text, 0 when not yet worked out */
	unsigned char *used;        /* frame id -> seen in a kept stack */
	unsigned char *thread;      /* frame id -> a thread pseudo-frame (known with frame_hash) */
	uint64_t *thread_samples;   /* frame id -> samples whose own thread it is */
	size_t cap;
	const struct sum_tap *tap;  /* given each kept stack too, or NULL */
};

static void part_init(struct part *pt, const struct agg_spec *spec)
{
	memset(pt, 0, sizeof *pt);
	pt->frames = prof_new();
	pt->table = agg_open(prof_frames_const(pt->frames), spec);
	pt->stacks = hset_new();
}

static void part_free(struct part *pt)
{
	agg_free(pt->table);
	hset_free(pt->stacks);
	prof_free(pt->frames);
	free(pt->frame_hash);
	free(pt->used);
	free(pt->thread);
	free(pt->thread_samples);
}

/* The consumer: sum the stack, note its hash (of frame texts, so that readers with other
 * frame ids agree) and its frames. */
static void take_stack(void *ctx, const uint32_t *ids, size_t n, uint64_t count)
{
	struct part *pt = ctx;
	const intern *frames = prof_frames_const(pt->frames);
	agg_add(pt->table, ids, n, count);
	/* The stack's hash in two lanes (frames alternate), so frames do not wait on each other. */
	uint64_t h = INTERN_HASH_SEED, h2 = ~INTERN_HASH_SEED;
	for (size_t f = 0; f < n; f++) {
		uint32_t id = ids[f];
		if (id >= pt->cap) {
			size_t old = pt->cap, cap = old;
			pt->frame_hash = xgrow(pt->frame_hash, &cap, (size_t)id + 1, sizeof *pt->frame_hash);
			cap = old;
			pt->used = xgrow(pt->used, &cap, (size_t)id + 1, 1);
			cap = old;
			pt->thread = xgrow(pt->thread, &cap, (size_t)id + 1, 1);
			cap = old;
			pt->thread_samples = xgrow(pt->thread_samples, &cap, (size_t)id + 1,
						   sizeof *pt->thread_samples);
			memset(pt->frame_hash + old, 0, (cap - old) * sizeof *pt->frame_hash);
			memset(pt->used + old, 0, cap - old);
			memset(pt->thread + old, 0, cap - old);
			memset(pt->thread_samples + old, 0, (cap - old) * sizeof *pt->thread_samples);
			pt->cap = cap;
		}
		if (!pt->frame_hash[id]) {
			size_t len;
			const char *text = intern_str(frames, id, &len);
			pt->frame_hash[id] = intern_hash(text, len) | 1;
			struct frame_parts parts;
			frame_split(text, len, &parts);
			pt->thread[id] = parts.kind == FRAME_THREAD;
		}
		pt->used[id] = 1;
		uint64_t next = intern_hash_word(h, pt->frame_hash[id]);
		h = h2;
		h2 = next;
	}
	h ^= h2 << 32 | h2 >> 32;
	/* The innermost thread pseudo-frame is the stack's own thread. */
	for (size_t f = n; f-- > 0;) {
		if (pt->thread[ids[f]]) {
			pt->thread_samples[ids[f]] += count;
			break;
		}
	}
	hset_add_later(pt->stacks, intern_hash_final(h, n));
	if (pt->tap)
		pt->tap->fn(pt->tap->ctx, frames, ids, n, count);
}

/* --by window: the window of the stacks take_stack gets next. */
static void take_window(void *ctx, double start)
{
	struct part *pt = ctx;
	agg_set_window(pt->table, start);
}

/* Thread pseudo-frames of the part's kept stacks, by text, and their samples. */
static void add_threads(const struct part *pt, intern *threads, uint64_t **samples, size_t *cap)
{
	const intern *frames = prof_frames_const(pt->frames);
	for (size_t id = 0; id < pt->cap; id++) {
		if (!pt->used[id])
			continue;
		size_t len;
		const char *text = intern_str(frames, (uint32_t)id, &len);
		struct frame_parts parts;
		frame_split(text, len, &parts);
		if (parts.kind != FRAME_THREAD)
			continue;
		uint32_t t = intern_add(threads, text, len);
		if (t >= *cap) {
			size_t old = *cap;
			*samples = xgrow(*samples, cap, (size_t)t + 1, sizeof **samples);
			memset(*samples + old, 0, (*cap - old) * sizeof **samples);
		}
		(*samples)[t] += pt->thread_samples[id];
	}
}

/* A byte range of one file. */
struct segment {
	const char *path;
	size_t file;                /* index of path among the files */
	unsigned long long start, end;
	unsigned long lines;        /* lines that begin in it, once read */
	size_t kept_from, kept_to;  /* its held messages, in the worker's errs */
};

struct worker {
	struct segment *segs;
	size_t nsegs;
	struct load_opts opts;      /* patterns compiled for this thread */
	struct agg_spec spec;       /* rules compiled for this thread */
	struct err_lines errs;      /* kept, replayed in order afterwards */
	struct load_stats stats;
	struct part part;
	int status;
	pthread_t thread;
};

/* The source key of what is read from path next: its --label, else its basename. */
static void set_source(agg *a, const struct load_opts *opts, const char *path)
{
	size_t len;
	const char *name = load_label(opts->labels, opts->nlabels, path, &len);
	if (!name) {
		name = load_base_name(path);
		len = strlen(name);
	}
	agg_set_source(a, name, len);
}

int sum_head_is_folded(const char *head, size_t len)
{
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(head + at, '\n', len - at);
		if (!nl)
			return 0;  /* the first line that tells is not whole in the head */
		enum load_format f = sniff_line(head + at, (size_t)(nl - head - at));
		if (f != LOAD_AUTO)
			return f == LOAD_RAW;
		at = (size_t)(nl - head) + 1;
	}
	return 0;
}

static int wants_source(const struct agg_spec *spec)
{
	return spec->keys[0] == KEY_SOURCE || (spec->nkeys == 2 && spec->keys[1] == KEY_SOURCE);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	for (size_t i = 0; i < w->nsegs; i++) {
		set_source(w->part.table, &w->opts, w->segs[i].path);
		/* Lines numbered from the range's start: the lines before it are not read again
		 * to count them (messages are renumbered when replayed, see sum_parallel). */
		w->segs[i].kept_from = w->errs.nkept;
		in_reader *in = in_open_chunk(w->segs[i].path, w->segs[i].start, w->segs[i].end);
		if (load_reader(w->part.frames, in, &w->opts, &w->errs, &w->stats) != 0)
			w->status = EXIT_DATA;
		if (in_failed(in))
			w->status = EXIT_DATA;
		w->segs[i].lines = in_lineno(in);
		w->segs[i].kept_to = w->errs.nkept;
		in_close(in);
	}
	return NULL;
}

/* Plain folded stacks? A regular uncompressed file whose first lines prove folded stacks:
 * only a line-oriented format may be cut at any newline. A file whose first 64 KB hold no
 * whole line that proves it (a one-line JSON document, noise) is read on one thread. */
static int splittable(const char *path, enum load_format from, unsigned long long *size)
{
	if (strcmp(path, "-") == 0 || (from != LOAD_AUTO && from != LOAD_RAW))
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	struct stat st;
	char *head = NULL;
	int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	if (ok) {
		*size = (unsigned long long)st.st_size;
		head = xmalloc(SNIFF_BYTES);
		ssize_t n = pread(fd, head, SNIFF_BYTES, 0);
		ok = n >= 0 && in_compression(head, (size_t)n) == IN_PLAIN;
		if (ok && from == LOAD_AUTO)
			ok = sum_head_is_folded(head, (size_t)n);
	}
	free(head);
	close(fd);
	return ok;
}

static unsigned processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (unsigned)n;
}

/* Cut the files, taken as one run of bytes, into nworkers ranges of about equal size. */
static void plan(struct worker *w, unsigned nworkers, char *const *paths, size_t npaths,
		 const unsigned long long *sizes, unsigned long long total)
{
	unsigned long long offset = 0;
	for (size_t f = 0; f < npaths; f++) {
		unsigned long long lo = offset, hi = offset + sizes[f];
		for (unsigned k = 0; k < nworkers; k++) {
			unsigned long long from = total * k / nworkers, to = total * (k + 1) / nworkers;
			unsigned long long s = from > lo ? from : lo, e = to < hi ? to : hi;
			if (s >= e)
				continue;
			w[k].segs = xrealloc(w[k].segs, (w[k].nsegs + 1) * sizeof *w[k].segs);
			w[k].segs[w[k].nsegs++] = (struct segment){ paths[f], f, s - lo, e - lo, 0, 0, 0 };
		}
		offset = hi;
	}
}

static int sum_parallel(char *const *paths, size_t npaths, const struct load_opts *opts,
			const struct agg_spec *spec, unsigned nworkers, struct err_lines *errs,
			const unsigned long long *sizes, unsigned long long total, struct part *into,
			struct load_stats *stats, intern *threads, uint64_t **samples, size_t *cap)
{
	struct worker *w = xcalloc(nworkers, sizeof *w);
	plan(w, nworkers, paths, npaths, sizes, total);
	for (unsigned k = 0; k < nworkers; k++) {
		w[k].opts = *opts;
		w[k].opts.from = LOAD_RAW;
		w[k].opts.focus = opts->focus ? rx_clone(opts->focus) : NULL;
		w[k].opts.ignore = opts->ignore ? rx_clone(opts->ignore) : NULL;
		w[k].opts.thread = opts->thread ? rx_clone(opts->thread) : NULL;
		xform_opts_clone(&w[k].opts.xform, &opts->xform);
		w[k].spec = *spec;
		w[k].spec.rules = spec->rules ? rules_clone(spec->rules) : NULL;
		err_lines_init(&w[k].errs);
		w[k].errs.limit = errs->limit;
		w[k].errs.keep = 1;
		part_init(&w[k].part, &w[k].spec);
		w[k].opts.consumer = take_stack;
		w[k].opts.consumer_ctx = &w[k].part;
	}
	/* The last range is read on this thread. */
	for (unsigned k = 0; k + 1 < nworkers; k++)
		if (pthread_create(&w[k].thread, NULL, work, &w[k]) != 0)
			err_exit(EXIT_DATA, "cannot start a thread: %s", strerror(errno));
	work(&w[nworkers - 1]);
	int status = 0;
	unsigned long *lines_before = xcalloc(npaths, sizeof *lines_before);  /* by file */
	for (unsigned k = 0; k < nworkers; k++) {
		if (k + 1 < nworkers)
			pthread_join(w[k].thread, NULL);
		for (size_t i = 0; i < w[k].nsegs; i++) {
			const struct segment *sg = &w[k].segs[i];
			err_lines_shift(&w[k].errs, sg->kept_from, sg->kept_to, lines_before[sg->file]);
			lines_before[sg->file] += sg->lines;
		}
		err_lines_replay(errs, &w[k].errs);
		if (load_stats_add(stats, &w[k].stats) != 0) {
			err_warn("sample counts add up past 2^64");
			status = EXIT_DATA;
		}
		status |= w[k].status;
		agg_merge(into->table, w[k].part.table);
		hset_merge(into->stacks, w[k].part.stacks);
		add_threads(&w[k].part, threads, samples, cap);
		part_free(&w[k].part);
		rx_free(w[k].opts.focus);
		rx_free(w[k].opts.ignore);
		rx_free(w[k].opts.thread);
		xform_opts_free(&w[k].opts.xform);
		rules_free(w[k].spec.rules);
		free(w[k].segs);
	}
	free(w);
	free(lines_before);
	return status;
}

int sum_files(char *const *paths, size_t npaths, const struct load_opts *opts,
	      const struct agg_spec *spec, unsigned workers, struct err_lines *errs,
	      struct sum_result *out)
{
	return sum_files_tap(paths, npaths, opts, spec, workers, NULL, errs, out);
}

int sum_files_tap(char *const *paths, size_t npaths, const struct load_opts *opts,
		  const struct agg_spec *spec, unsigned workers, const struct sum_tap *tap,
		  struct err_lines *errs, struct sum_result *out)
{
	memset(out, 0, sizeof *out);
	struct part whole;
	part_init(&whole, spec);
	intern *threads = intern_new();
	uint64_t *samples = NULL;   /* thread id in threads -> samples */
	size_t samples_cap = 0;
	int status;

	/* Several readers only for plain files, and only when messages need no order: a
	 * --strict stop or -v's named skips happen as a single reader meets them. */
	unsigned nworkers = workers ? workers : processors();
	unsigned long long *sizes = xcalloc(npaths + 1, sizeof *sizes), total = 0;
	if (npaths == 0 || errs->strict || errs->verbose || tap || timewin_active(&opts->win))
		nworkers = 1;  /* time: inputs are documents, and folded stacks a usage error in order */
	for (size_t f = 0; f < npaths && nworkers > 1; f++) {
		if (!splittable(paths[f], opts->from, &sizes[f]))
			nworkers = 1;
		total += sizes[f];
	}
	if (nworkers > 1 && (total == 0 || (!workers && total < CHUNK_MIN_BYTES)))
		nworkers = 1;
	if (nworkers > 1 && total < nworkers)
		nworkers = (unsigned)total;

	if (nworkers > 1) {
		status = sum_parallel(paths, npaths, opts, spec, nworkers, errs, sizes, total, &whole,
				      &out->stats, threads, &samples, &samples_cap);
	} else {
		struct load_opts o = *opts;
		whole.tap = tap;
		o.consumer = take_stack;
		o.window_fn = take_window;
		o.consumer_ctx = &whole;
		if (!wants_source(spec)) {
			status = load_files(whole.frames, paths, npaths, &o, errs, &out->stats);
		} else { /* one file at a time, each under its own source key */
			status = 0;
			for (size_t f = 0; f < (npaths ? npaths : 1); f++) { /* none: stdin */
				struct load_stats one = { 0 };
				set_source(whole.table, opts, npaths ? paths[f] : "-");
				status |= load_files(whole.frames, paths + f, npaths ? 1 : 0, &o, errs, &one);
				if (load_stats_add(&out->stats, &one) != 0) {
					err_warn("sample counts add up past 2^64");
					status = EXIT_DATA;
				}
			}
		}
		add_threads(&whole, threads, &samples, &samples_cap);
	}
	free(sizes);
	agg_close(whole.table);
	out->table = whole.table;
	whole.table = NULL;
	out->stacks = hset_count(whole.stacks);
	out->threads = intern_count(threads);
	/* Dumps give each thread one sample per snapshot by nature: only profiles are judged. */
	if (!out->stats.dumps && sum_looks_idle(samples, out->threads, &out->idle_min, &out->idle_max))
		out->idle_threads = out->threads;
	free(samples);
	out->workers = nworkers;
	part_free(&whole);
	intern_free(threads);
	return status;
}

int sum_looks_idle(const uint64_t *samples, size_t n, uint64_t *min, uint64_t *max)
{
	if (n < 3)
		return 0;
	uint64_t lo = samples[0], hi = samples[0];
	for (size_t i = 1; i < n; i++) {
		lo = samples[i] < lo ? samples[i] : lo;
		hi = samples[i] > hi ? samples[i] : hi;
	}
	if (lo == 0 || (double)(hi - lo) > 0.01 * (double)hi)
		return 0;
	*min = lo;
	*max = hi;
	return 1;
}

void sum_note_idle(const char *what, size_t nthreads, uint64_t min, uint64_t max)
{
	char range[64];
	if (min == max)
		snprintf(range, sizeof range, "%llu", (unsigned long long)min);
	else
		snprintf(range, sizeof range, "%llu to %llu", (unsigned long long)min,
			 (unsigned long long)max);
	err_warn("%s: every thread (%zu) has %s samples: recorded with --idle? shares are of wall "
		 "time, not CPU (--assume-cpu: no note)", what, nthreads, range);
}

int sum_result_note_idle(const struct sum_result *r, const struct load_opts *opts, const char *what)
{
	if (!r->idle_threads || opts->assume_cpu)
		return 0;
	sum_note_idle(what, r->idle_threads, r->idle_min, r->idle_max);
	return 1;
}

int sum_files_each(char *const *paths, size_t npaths, const struct load_opts *opts,
		   const struct agg_spec *spec, struct err_lines *errs, agg **each,
		   uint64_t *each_samples, struct sum_result *pooled)
{
	memset(pooled, 0, sizeof *pooled);
	intern *no_frames = intern_new(); /* merged rows carry their keys: no frame is looked up */
	pooled->table = agg_open(no_frames, spec);
	int status = 0, all_idle = npaths > 0;
	for (size_t i = 0; i < npaths; i++) {
		struct sum_result one;
		status |= sum_files(&paths[i], 1, opts, spec, 0, errs, &one);
		each[i] = one.table;
		each_samples[i] = one.stats.samples_read;
		agg_merge(pooled->table, one.table);
		if (load_stats_add(&pooled->stats, &one.stats) != 0) {
			err_warn("sample counts add up past 2^64");
			status = EXIT_DATA;
		}
		pooled->stacks += one.stacks;
		pooled->threads += one.threads;
		pooled->workers = one.workers > pooled->workers ? one.workers : pooled->workers;
		if (!one.idle_threads) {
			all_idle = 0;
		} else {
			pooled->idle_threads += one.idle_threads;
			if (i == 0 || one.idle_min < pooled->idle_min)
				pooled->idle_min = one.idle_min;
			if (one.idle_max > pooled->idle_max)
				pooled->idle_max = one.idle_max;
		}
	}
	if (!all_idle)
		pooled->idle_threads = pooled->idle_min = pooled->idle_max = 0;
	agg_close(pooled->table);
	intern_free(no_frames);
	return status;
}

void sum_result_free(struct sum_result *out)
{
	agg_free(out->table);
	out->table = NULL;
}

/* speedscope_is_sift of a first line that may have come in part (sift writes its exporter
 * last): the rest searched as it is read, with the bytes across each seam. */
static int is_sift(in_reader *in, const struct in_line *line)
{
	enum { KEY = 32 };  /* longer than the key */
	char seam[2 * KEY];
	size_t kept = line->len < KEY ? line->len : KEY, n;
	if (speedscope_is_sift(line->text, line->len))
		return 1;
	memcpy(seam, line->text + line->len - kept, kept);
	const char *text;
	while (line->more && in_more(in, &text, &n)) {
		size_t add = n < KEY ? n : KEY;
		memcpy(seam + kept, text, add);
		if (speedscope_is_sift(seam, kept + add) || speedscope_is_sift(text, n))
			return 1;
		if (n >= KEY) {
			memcpy(seam, text + n - KEY, KEY);
			kept = KEY;
		} else {  /* seam holds the old tail and all of text: its last KEY bytes stay */
			size_t drop = kept + n > KEY ? kept + n - KEY : 0;
			memmove(seam, seam + drop, kept + n - drop);
			kept = kept + n - drop;
		}
	}
	return 0;
}

int sum_file_has_time(const char *path, enum load_format forced)
{
	if (forced == LOAD_SPEEDSCOPE || forced == LOAD_CHROME)
		return SUM_TIME;
	if (forced == LOAD_DUMP || forced == LOAD_JSON)
		return SUM_SNAPSHOTS;
	struct stat st;
	if (forced != LOAD_AUTO || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;  /* a pipe cannot be read twice; what cannot be read is reported later */
	char *paths[1] = { (char *)path };
	in_reader *in = in_open(paths, 1);
	in_set_line_cap(in, LOAD_LINE_PART);
	sniff *s = sniff_new(in, LOAD_AUTO);
	struct in_line line;
	enum load_format format = LOAD_AUTO;
	int got = sniff_next(s, &line, &format);
	/* sift-fold's speedscope output sums distinct stacks: it has no time */
	int sift = got > 0 && format == LOAD_SPEEDSCOPE && is_sift(in, &line);
	sniff_free(s);
	in_close(in);
	if (got <= 0 || sift)
		return 0;
	return format == LOAD_SPEEDSCOPE || format == LOAD_CHROME ? SUM_TIME
	       : format == LOAD_DUMP || format == LOAD_JSON	   ? SUM_SNAPSHOTS : 0;
}

/* One file read twice: first each window's samples, then each stack into its block's sum
 * (a window's block known from the first pass), so that memory holds the blocks' sums, not
 * one per window (a long recording has thousands of windows). */
struct windows {
	uint64_t *samples;        /* pass 1: samples of each window */
	size_t n, cap, at;
	double width;
	const uint32_t *block_of; /* pass 2: window -> block */
	agg **blocks;
};

static void window_at(void *ctx, double start)
{
	struct windows *w = ctx;
	double k = start / w->width + 0.5;
	w->at = k > 0 ? (size_t)k : 0;
	if (!w->block_of && w->at >= w->n) {
		size_t old = w->n;
		w->samples = xgrow(w->samples, &w->cap, w->at + 1, sizeof *w->samples);
		memset(w->samples + old, 0, (w->at + 1 - old) * sizeof *w->samples);
		w->n = w->at + 1;
	}
}

/* A dump's snapshot k is window k - 1 (width 1). */
static void snapshot_at(void *ctx, double snapshot)
{
	window_at(ctx, snapshot >= 1 ? snapshot - 1 : 0);
}

static void window_count(void *ctx, const uint32_t *ids, size_t n, uint64_t count)
{
	(void)ids;
	(void)n;
	struct windows *w = ctx;
	if (w->n == 0)
		window_at(w, 0);
	w->samples[w->at] += count;
}

static void window_stack(void *ctx, const uint32_t *ids, size_t n, uint64_t count)
{
	struct windows *w = ctx;
	size_t at = w->at < w->n ? w->at : w->n - 1;
	agg_add(w->blocks[w->block_of[at]], ids, n, count);
}

/* Read path with o's options, each stack to consumer (pass 1 or 2). */
static int windows_pass(const char *path, const struct load_opts *o, int kind, struct windows *w,
			load_stack_fn *consumer, prof *frames, struct err_lines *errs)
{
	struct load_opts p = *o;
	p.consumer = consumer;
	if (kind == SUM_SNAPSHOTS) {
		p.snapshot_fn = snapshot_at;
	} else {
		p.win.width = w->width;
		p.window_fn = window_at;
	}
	p.consumer_ctx = w;
	struct load_stats stats = { 0 };
	char *paths[1] = { (char *)path };
	return load_files(frames, paths, 1, &p, errs, &stats);
}

size_t sum_file_blocks(const char *path, int kind, const struct load_opts *opts, const struct agg_spec *spec,
		       size_t most, struct err_lines *errs, agg **blocks, uint64_t *samples, int *status)
{
	struct windows w = { NULL, 0, 0, 0, kind == SUM_SNAPSHOTS ? 1 : SUM_BLOCK_WINDOW, NULL, blocks };
	prof *frames = prof_new();
	*status = windows_pass(path, opts, kind, &w, window_count, frames, errs);
	/* Consecutive windows grouped into at most `most` blocks of near-equal length, each of
	 * SUM_BLOCK_SAMPLES samples or more on average, so that a key's share in a block is
	 * not a handful of samples. */
	uint64_t all = 0;
	for (size_t i = 0; i < w.n; i++)
		all += w.samples[i];
	size_t nb = w.n < most ? w.n : most;
	if (all / SUM_BLOCK_SAMPLES < nb)
		nb = (size_t)(all / SUM_BLOCK_SAMPLES);
	if (nb > 0 && *status == 0) {
		uint32_t *block_of = xmalloc(w.n * sizeof *block_of);
		for (size_t b = 0; b < nb; b++) {
			blocks[b] = agg_open(prof_frames_const(frames), spec);
			samples[b] = 0;
			for (size_t i = b * w.n / nb; i < (b + 1) * w.n / nb; i++) {
				block_of[i] = (uint32_t)b;
				samples[b] += w.samples[i];
			}
		}
		w.block_of = block_of;
		/* the second reading names no bad line again: the first did */
		struct err_lines quiet;
		err_lines_init(&quiet);
		quiet.limit = 0;
		*status = windows_pass(path, opts, kind, &w, window_stack, frames, &quiet);
		for (size_t b = 0; b < nb; b++)
			agg_close(blocks[b]);
		free(block_of);
	} else {
		nb = 0;
	}
	free(w.samples);
	prof_free(frames);
	return nb;
}
