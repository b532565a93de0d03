/* load: every distinct frame as written is looked at once; its filters and rewrite are cached. */
#include "load.h"
#include "dump.h"
#include "dumpjson.h"
#include "folded.h"
#include "frame.h"
#include "input.h"
#include "readers.h"
#include "sniff.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

const char *const load_format_names[] = { "auto", "raw", "dump", "json", "speedscope",
	"chrometrace", "svg", "austin", NULL };

enum {
	SEEN = 1,        /* the entry below is filled */
	FOCUS = 2,
	IGNORE = 4,
	THREAD = 8,      /* a thread pseudo-frame */
	THREAD_OK = 16,  /* ... that --thread matches */
	DROP = 32,       /* left out of the output stack */
	COLLAPSED = 64,  /* an address folded into [LIB] or [unknown] (LIB) */
};

struct raw_frame {
	uint32_t out;    /* id in the profile */
	uint8_t flags;
};

struct load_sink {
	prof *p;
	const struct load_opts *opts;
	struct err_lines *errs;
	intern *raw;                /* frames as written */
	struct raw_frame *cache;    /* by raw id */
	size_t cache_cap;
	uint32_t *stack;            /* output ids of the stack being built */
	size_t depth, stack_cap;
	unsigned seen_flags;        /* OR of the stack's frame flags */
	int bad;                    /* the stack was rejected while being built */
	const char *file;
	unsigned long lineno;       /* from the reader: in a chunk (sum's ranges), from its start */
	in_reader *in;              /* the reader, for a chunk's lines before it (at_line) */
	char *scratch;
	size_t scratch_cap;
	char *clean;                /* a frame with its unsafe bytes replaced */
	size_t clean_cap;
	struct load_stats stats;
	xform *xf;                  /* NULL without transforms */
	int timed;                  /* load_stack_time gave the stack being built a time */
	double at, len;
	double carry;               /* fractions of samples the window's cuts left */
};

load_sink *load_sink_new(prof *p, const struct load_opts *opts, struct err_lines *errs)
{
	load_sink *s = xcalloc(1, sizeof *s);
	s->p = p;
	s->opts = opts;
	s->errs = errs;
	s->raw = intern_new();
	if (xform_opts_active(&opts->xform))
		s->xf = xform_new(&opts->xform, prof_frames(p));
	return s;
}

void load_sink_free(load_sink *s)
{
	if (!s)
		return;
	intern_free(s->raw);
	xform_free(s->xf);
	free(s->cache);
	free(s->stack);
	free(s->scratch);
	free(s->clean);
	free(s);
}

const struct load_stats *load_sink_stats(const load_sink *s) { return &s->stats; }

void load_stack_begin(load_sink *s, const char *file, unsigned long lineno)
{
	s->depth = 0;
	s->seen_flags = 0;
	s->bad = 0;
	s->file = file;
	s->lineno = lineno;
}

/* The stack's line in its file, for a message printed now (a chunk's held messages are
 * renumbered by sum when they are replayed). */
static unsigned long at_line(load_sink *s)
{
	return s->lineno + (s->in ? in_lines_before(s->in) : 0);
}

static void scratch_put(load_sink *s, size_t *used, const char *text, size_t len)
{
	s->scratch = xgrow(s->scratch, &s->scratch_cap, *used + len + 1, 1);
	memcpy(s->scratch + *used, text, len);
	*used += len;
}

static int matches(load_sink *s, rx *re, const char *frame, size_t len)
{
	char msg[512];
	int rc = rx_match(re, frame, len, msg, sizeof msg);
	if (rc < 0) /* a pattern that cannot finish is not a verdict: stop, naming where */
		err_exit(EXIT_DATA, "%s:%lu: %s", s->file, at_line(s), msg);
	return rc;
}

/* Decide once what a distinct frame becomes. */
/* Frames from dumps (JSON strings above all) may hold what a folded line cannot: line
 * breaks and other control bytes would forge new lines, a ';' would split the frame, and
 * `";` would end a process command line early. They are written as a space, ',' and `",`.
 * Returns frame itself when nothing needs replacing. */
static const char *safe_frame(load_sink *s, const char *frame, size_t len)
{
	int process = len > 9 && memcmp(frame, "process ", 8) == 0 && frame[8] >= '0' && frame[8] <= '9';
	size_t i = 0;
	for (; i < len; i++) {
		unsigned char c = (unsigned char)frame[i];
		if (c < 0x20 || c == 0x7f || (c == ';' && (!process || (i > 0 && frame[i - 1] == '"'))))
			break;
	}
	if (i == len)
		return frame;
	s->clean = xgrow(s->clean, &s->clean_cap, len + 1, 1);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)frame[i];
		if (c < 0x20 || c == 0x7f)
			c = ' ';
		else if (c == ';' && (!process || (i > 0 && frame[i - 1] == '"')))
			c = ',';
		s->clean[i] = (char)c;
	}
	s->clean[len] = '\0';
	return s->clean;
}

/* An unresolved address's frame once collapsed: [LIB] when that reads back as a library
 * frame, else "[unknown] (LIB)" (perf's spelling), since a bracketed name that is no library
 * ([vdso], [heap], ?, an executable) would read as a [tag] and lose its samples. */
static size_t collapsed_text(load_sink *s, const char *lib, size_t len)
{
	size_t used = 0;
	struct frame_parts back;
	scratch_put(s, &used, "[", 1);
	scratch_put(s, &used, lib, len);
	scratch_put(s, &used, "]", 1);
	frame_split(s->scratch, used, &back);
	if (back.kind == FRAME_CODE && back.native && back.file_len == len)
		return used;
	used = 0;
	scratch_put(s, &used, "[unknown] (", 11);
	scratch_put(s, &used, lib, len);
	scratch_put(s, &used, ")", 1);
	return used;
}

/* --no-tids, --no-pids: a restart gives threads and processes new ids, so the id is written
 * as 0 (no thread or process has it) and the frame still reads as a thread or process
 * frame everywhere. A thread without a name becomes "thread (0)": all such threads are one.
 * Returns the rewritten frame's length in scratch, or 0 when the frame stays. */
static size_t identity_text(load_sink *s, const struct load_opts *o, const struct frame_parts *parts)
{
	size_t used = 0;
	if (parts->kind == FRAME_THREAD && o->no_tids) {
		scratch_put(s, &used, "thread (0)", 10);
		if (parts->name_len) {
			scratch_put(s, &used, ": ", 2);
			scratch_put(s, &used, parts->name, parts->name_len);
		}
	} else if (parts->kind == FRAME_PROCESS && o->no_pids) {
		scratch_put(s, &used, "process 0:\"", 11);
		scratch_put(s, &used, parts->name, parts->name_len);
		scratch_put(s, &used, "\"", 1);
	}
	return used;
}

static struct raw_frame classify(load_sink *s, const char *frame, size_t len)
{
	const struct load_opts *o = s->opts;
	struct raw_frame r = { 0, SEEN };
	struct frame_parts parts;
	frame = safe_frame(s, frame, len);
	frame_split(frame, len, &parts);
	if (o->focus && matches(s, o->focus, frame, len))
		r.flags |= FOCUS;
	if (o->ignore && matches(s, o->ignore, frame, len))
		r.flags |= IGNORE;
	if (parts.kind == FRAME_THREAD) {
		r.flags |= THREAD;
		if (o->thread && matches(s, o->thread, frame, len))
			r.flags |= THREAD_OK;
		if (o->no_threads)
			r.flags |= DROP;
	}
	if (parts.kind == FRAME_PROCESS && o->no_process)
		r.flags |= DROP;
	if (r.flags & DROP)
		return r;
	size_t used = identity_text(s, o, &parts);
	if (used) {
		r.out = intern_add(prof_frames(s->p), s->scratch, used);
		return r;
	}

	/* Rewrite code frames: library basename, addresses collapsed, lines dropped. */
	const char *file = parts.file;
	size_t file_len = parts.file_len;
	int rewrite = 0;
	if (parts.kind == FRAME_CODE && parts.native && file_len && o->lib_basename) {
		frame_lib_basename(parts.file, parts.file_len, &file, &file_len);
		rewrite = file_len != parts.file_len;
	}
	if (parts.kind == FRAME_CODE && parts.address && file_len && o->collapse_addrs) {
		used = collapsed_text(s, file, file_len);
		r.flags |= COLLAPSED;
	} else if (parts.kind == FRAME_CODE && file_len && parts.name_len < len &&
		   (rewrite || (o->no_lines && parts.line_len))) {
		scratch_put(s, &used, parts.name, parts.name_len);
		scratch_put(s, &used, " (", 2);
		scratch_put(s, &used, file, file_len);
		if (parts.line_len && !o->no_lines) {
			scratch_put(s, &used, ":", 1);
			scratch_put(s, &used, parts.line, parts.line_len);
		}
		scratch_put(s, &used, ")", 1);
	} else {
		scratch_put(s, &used, frame, len);
	}
	r.out = intern_add(prof_frames(s->p), s->scratch, used);
	return r;
}

void load_stack_frame(load_sink *s, const char *frame, size_t len)
{
	load_stack_frame_hashed(s, frame, len, intern_hash(frame, len));
}

void load_stack_frame_hashed(load_sink *s, const char *frame, size_t len, uint64_t hash)
{
	if (s->bad)
		return;
	if (len == 0) {
		err_bad_line(s->errs, s->file, s->lineno, "empty frame");
		s->bad = 1;
		return;
	}
	uint32_t id = intern_add_hashed(s->raw, frame, len, hash);
	if (id >= s->cache_cap) {
		size_t old = s->cache_cap;
		s->cache = xgrow(s->cache, &s->cache_cap, (size_t)id + 1, sizeof *s->cache);
		memset(s->cache + old, 0, (s->cache_cap - old) * sizeof *s->cache);
	}
	struct raw_frame *r = &s->cache[id];
	if (!(r->flags & SEEN))
		*r = classify(s, frame, len);
	s->seen_flags |= r->flags;
	if (r->flags & DROP)
		return;
	if ((r->flags & COLLAPSED) && s->depth > 0 && s->stack[s->depth - 1] == r->out)
		return; /* a run of addresses in one library is one frame */
	if (s->depth == s->stack_cap)  /* no call on the per-frame path */
		s->stack = xgrow(s->stack, &s->stack_cap, s->depth + 1, sizeof *s->stack);
	s->stack[s->depth++] = r->out;
}

/* Transforms after the filters, on the stack as it will be kept: XFORM_KEPT, or
 * XFORM_DROPPED (counted). A pattern that cannot finish stops the run, naming where. */
static int transform(load_sink *s, uint64_t count)
{
	char msg[512];
	int rc = xform_apply(s->xf, s->stack, &s->depth, msg, sizeof msg);
	if (rc == XFORM_ERROR)
		err_exit(EXIT_DATA, "%s:%lu: %s", s->file, at_line(s), msg);
	if (rc == XFORM_DROPPED) {
		s->stats.samples_unshown += count;
		s->stats.stacks_unshown++;
	}
	return rc;
}

void load_stack_time(load_sink *s, double at, double len)
{
	s->timed = 1;
	s->at = at;
	s->len = len;
}

double load_rate(const struct load_opts *opts)
{
	return opts->rate > 0 ? opts->rate : READERS_RATE;
}

double load_rate_recorded(const struct load_stats *stats, const struct load_opts *opts)
{
	return stats->rate > 0 ? stats->rate : load_rate(opts);
}

/* A kept stack, or its part in one window, into the consumer or the profile. */
static int keep(load_sink *s, uint64_t count)
{
	const struct load_opts *o = s->opts;
	if (o->consumer) {
		o->consumer(o->consumer_ctx, s->stack, s->depth, count);
	} else if (prof_add(s->p, s->stack, s->depth, count) != 0) {
		err_warn("%s:%lu: sample counts add up past 2^64", s->file, at_line(s));
		return -1;
	}
	s->stats.samples_kept += count;
	return 0;
}

struct piece_ctx { load_sink *s; int status; };

static void keep_piece(void *ctx, double start, uint64_t count)
{
	struct piece_ctx *pc = ctx;
	const struct load_opts *o = pc->s->opts;
	if (o->window_fn && o->win.width > 0)
		o->window_fn(o->consumer_ctx, start);
	if (pc->status == 0 && keep(pc->s, count) != 0)
		pc->status = -1;
}

int load_stack_end(load_sink *s, uint64_t count)
{
	int timed = s->timed;
	s->timed = 0;
	const struct load_opts *o = s->opts;
	if (s->bad)
		return 0;
	if (s->stats.samples_read > UINT64_MAX - count) {
		err_warn("%s:%lu: sample counts add up past 2^64", s->file, at_line(s));
		return -1;
	}
	s->stats.samples_read += count;
	s->stats.stacks_read++;
	unsigned f = s->seen_flags;
	if ((o->focus && !(f & FOCUS)) || (o->ignore && (f & IGNORE)) || (o->thread && !(f & THREAD_OK)))
		return 0;
	if (s->xf && transform(s, count) != XFORM_KEPT)
		return 0;
	if (!timed || !timewin_active(&o->win))
		return keep(s, count);
	struct piece_ctx pc = { s, 0 };
	timewin_split(&o->win, s->at, s->len, count, &s->carry, keep_piece, &pc);
	return pc.status;
}

int load_dump_thread(load_sink *sink, const struct dump_thread *t, int with_idle, int with_status)
{
	if (t->status == DUMP_IDLE && !with_idle)
		return 0;
	load_stack_begin(sink, t->file, t->lineno);
	for (size_t i = 0; i < t->nprocs; i++)
		load_stack_frame(sink, t->procs[i].frame.s, t->procs[i].frame.len);
	load_stack_frame(sink, t->thread_frame.s, t->thread_frame.len);
	if (with_status) {
		static const struct dump_text tags[] = {
			{ "[idle]", 6 }, { "[active]", 8 }, { "[active+gil]", 12 },
		};
		load_stack_frame(sink, tags[t->status].s, tags[t->status].len);
	}
	for (size_t i = t->nframes; i-- > 0;)
		load_stack_frame(sink, t->frames[i].s, t->frames[i].len);
	return load_stack_end(sink, 1);
}

/* Dump threads become samples as they complete. */
struct dump_ctx { load_sink *sink; const struct load_opts *opts; int status; uint64_t idle; };

static void dump_thread_to_sink(void *ctx, const struct dump_thread *t)
{
	if (t->header_only)
		return;
	struct dump_ctx *c = ctx;
	if (t->status == DUMP_IDLE && !c->opts->idle)
		c->idle++;
	if (c->opts->snapshot_fn)
		c->opts->snapshot_fn(c->opts->consumer_ctx, (double)t->snapshot);
	if (load_dump_thread(c->sink, t, c->opts->idle, c->opts->status) != 0)
		c->status = EXIT_DATA;
}

static void doc_time_to_sink(void *ctx, const struct doc_time *when)
{
	struct dump_ctx *c = ctx;
	load_stack_time(c->sink, when->at, when->len);
}

/* What a format without time is, for the message that --from/--to or --by window need one. */
static void check_time(const struct load_opts *o, enum load_format f, const char *file)
{
	static const char *const what[] = {
		[LOAD_RAW] = "folded stacks, which have", [LOAD_DUMP] = "py-spy dump output, which has",
		[LOAD_JSON] = "py-spy dump JSON, which has", [LOAD_SVG] = "a flame graph SVG, which has",
		[LOAD_AUSTIN] = "austin samples, which have",
	};
	if (!timewin_active(&o->win) || f == LOAD_SPEEDSCOPE || f == LOAD_CHROME || f == LOAD_AUTO)
		return;
	err_exit(EXIT_USAGE, "%s samples in time order (speedscope or chrometrace); %s is %s none",
		 o->win.width > 0 ? "--by window needs" : "--from/--to need", file, what[f]);
}

/* Stacks of the other readers (speedscope, chrometrace, SVG, austin), root first. */
static void doc_stack_to_sink(void *ctx, const char *file, unsigned long lineno,
			      const struct doc_frame *frames, size_t n, uint64_t count)
{
	struct dump_ctx *c = ctx;
	load_stack_begin(c->sink, file, lineno);
	for (size_t i = 0; i < n; i++)
		load_stack_frame(c->sink, frames[i].s, frames[i].len);
	if (load_stack_end(c->sink, count) != 0)
		c->status = EXIT_DATA;
}

int load_files(prof *p, char *const *paths, size_t npaths, const struct load_opts *opts,
	       struct err_lines *errs, struct load_stats *stats)
{
	in_reader *in = in_open(paths, npaths);
	struct load_stats st = { 0 };
	int status = load_reader(p, in, opts, errs, &st);
	if (in_failed(in))
		status = EXIT_DATA;
	if (stats)
		*stats = st;
	in_close(in);
	return status;
}

/* Lines as sniff gives them, with one line kept back: the first of the next file, which
 * ended a streamed document (readers_stream). */
struct lines {
	sniff *sn;
	struct in_line line;   /* kept: valid, as sniff_next was not called since */
	enum load_format fmt;
	int kept;
	const char *file;      /* the streamed document's */
	unsigned long lineno;
};

static int next_line(struct lines *l, struct in_line *line, enum load_format *fmt)
{
	if (l->kept) {
		l->kept = 0;
		*line = l->line;
		*fmt = l->fmt;
		return 1;
	}
	return sniff_next(l->sn, line, fmt);
}

/* readers_pull_fn: the streamed document's file's next line, or 0 with a line of the
 * next file kept. */
static int pull_line(void *ctx, struct in_line *line)
{
	struct lines *l = ctx;
	if (!sniff_next(l->sn, &l->line, &l->fmt))
		return 0;
	if (l->line.file != l->file || l->line.lineno <= l->lineno) {
		l->kept = 1;
		return 0;
	}
	l->lineno = l->line.lineno;
	*line = l->line;
	return 1;
}

int load_reader(prof *p, in_reader *in, const struct load_opts *opts, struct err_lines *errs,
		struct load_stats *stats)
{
	load_sink *sink = load_sink_new(p, opts, errs);
	sink->in = in;
	struct dump_ctx dc = { sink, opts, 0, 0 };
	/* a long line may be compact speedscope JSON: streamed, not held (lib/readers.c) */
	in_set_line_cap(in, LOAD_LINE_PART);
	sniff *sn = sniff_new(in, opts->from);
	dump_parser *dp = NULL;    /* made when a file holds dumps */
	dumpjson *dj = NULL;
	readers *rd = NULL;
	enum load_format fmt;
	struct in_line line;
	int status = 0;
	const char *checked = NULL;   /* the file whose format check_time saw */
	struct lines lines = { .sn = sn };
	while (next_line(&lines, &line, &fmt)) {
		if (line.file != checked) {
			check_time(opts, fmt, line.file);
			checked = line.file;
		}
		if (fmt == LOAD_DUMP) {
			if (!dp)
				dp = dump_new(errs, dump_thread_to_sink, &dc);
			dump_line(dp, &line);
			continue;
		}
		if (fmt == LOAD_JSON) {
			if (!dj)
				dj = dumpjson_new(errs, dump_thread_to_sink, &dc);
			dumpjson_line(dj, &line);
			continue;
		}
		if (readers_handles(fmt)) {
			if (!rd) {
				rd = readers_new(errs, load_rate(opts), doc_stack_to_sink, &dc);
				if (timewin_active(&opts->win)) /* else the untimed (faster) readers */
					readers_set_time(rd, doc_time_to_sink);
			}
			lines.file = line.file;
			lines.lineno = line.lineno;
			if ((fmt != LOAD_SPEEDSCOPE && fmt != LOAD_CHROME) ||
			    !readers_stream(rd, fmt, &line, in, pull_line, &lines))
				readers_line(rd, fmt, &line);
			continue;
		}
		struct folded_line fl;
		const char *reason = NULL;
		switch (folded_parse(line.text, line.len, &fl, &reason)) {
		case FOLDED_BLANK:
			err_skip_line(errs, line.file, line.lineno, "blank line");
			continue;
		case FOLDED_BAD:
			stats->lines_bad++;
			stats->lines_not_stack++;
			err_bad_line(errs, line.file, line.lineno, "%s%s", reason,
				     line.unterminated ? " (last line cut off?)" : "");
			continue;
		case FOLDED_OK:
			break;
		}
		if (fl.len && !memchr(fl.stack, ';', fl.len) && sniff_log_line(line.text, line.len)) {
			/* one "frame" of log fields that ends in a number: a log line, not a stack */
			stats->lines_bad++;
			stats->lines_not_stack++;
			stats->lines_foreign++;
			err_bad_line(errs, line.file, line.lineno, "a training log's line, not a stack");
			continue;
		}
		stats->lines_stack++;
		load_stack_begin(sink, line.file, line.lineno);
		size_t pos = 0, flen;
		const char *frame;
		uint64_t hash;
		while (folded_next_frame_hashed(fl.stack, fl.len, &pos, &frame, &flen, &hash))
			load_stack_frame_hashed(sink, frame, flen, hash);
		if (load_stack_end(sink, fl.count) != 0) {
			status = EXIT_DATA;
			break;
		}
	}
	if (dp)
		dump_finish(dp);
	if (dj)
		dumpjson_finish(dj);
	if (rd) {
		readers_finish(rd);
		stats->lines_bad += readers_stats(rd)->bad;
		stats->rate = doc_rate_join(stats->rate, readers_stats(rd)->rate);
	}
	if (dc.status)
		status = EXIT_DATA;
	const struct load_stats *st = load_sink_stats(sink);
	stats->samples_read += st->samples_read;
	stats->samples_kept += st->samples_kept;
	stats->stacks_read += st->stacks_read;
	stats->idle_left_out += dc.idle;
	stats->dumps |= dp || dj;
	stats->samples_unshown += st->samples_unshown;
	stats->stacks_unshown += st->stacks_unshown;
	if (!stats->looks_like)
		stats->looks_like = sniff_looks_like(sn);
	dump_free(dp);
	dumpjson_free(dj);
	readers_free(rd);
	sniff_free(sn);
	load_sink_free(sink);
	return status;
}

int load_stats_add(struct load_stats *to, const struct load_stats *from)
{
	if (to->samples_read > UINT64_MAX - from->samples_read)
		return -1;
	to->samples_read += from->samples_read;
	to->samples_kept += from->samples_kept;
	to->stacks_read += from->stacks_read;
	to->lines_stack += from->lines_stack;
	to->lines_not_stack += from->lines_not_stack;
	to->lines_foreign += from->lines_foreign;
	to->lines_bad += from->lines_bad;
	to->idle_left_out += from->idle_left_out;
	to->dumps |= from->dumps;
	to->samples_unshown += from->samples_unshown;
	to->stacks_unshown += from->stacks_unshown;
	to->rate = doc_rate_join(to->rate, from->rate);
	if (!to->looks_like)
		to->looks_like = from->looks_like;
	return 0;
}

void load_report_unshown(const struct load_stats *st, const char *what)
{
	if (st->stacks_unshown)
		err_warn("--show-from dropped %lu stacks of %s (%llu samples): no frame matched",
			 st->stacks_unshown, what, (unsigned long long)st->samples_unshown);
}

const char *load_label(char *const *labels, size_t nlabels, const char *path, size_t *len)
{
	for (size_t i = 0; i < nlabels; i++) {
		const char *eq = strchr(labels[i], '=');
		if (eq && strcmp(eq + 1, path) == 0) {
			*len = (size_t)(eq - labels[i]);
			return labels[i];
		}
	}
	return NULL;
}

const char *load_base_name(const char *path)
{
	if (strcmp(path, "-") == 0)
		return "stdin";
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int load_report_window(const struct load_stats *st, const struct load_opts *opts, const char *what)
{
	const struct timewin *w = &opts->win;
	if (!(w->has_from || w->has_to) || st->samples_kept || !st->samples_read)
		return 0;
	char from[64] = "", to[64] = "";
	if (w->has_from)
		snprintf(from, sizeof from, " --from %g", w->from);
	if (w->has_to)
		snprintf(to, sizeof to, " --to %g", w->to);
	err_warn("no sample of %s falls in the window%s%s (of %llu read; time is each thread's own, "
		 "from its first sample): is the recording shorter?", what, from, to,
		 (unsigned long long)st->samples_read);
	return 1;
}

int load_report_empty(const struct load_stats *st, const char *what)
{
	load_report_unshown(st, what);
	unsigned long others = st->lines_not_stack;
	if (st->lines_stack && others > st->lines_stack) {
		/* "it looks like folded stacks" would only confuse: say what it looks like when
		 * that is something else */
		const char *like = st->looks_like && strncmp(st->looks_like, "folded", 6) != 0 ? st->looks_like : NULL;
		if (2 * st->lines_foreign > st->lines_not_stack)
			like = "a training log: try sift-tput";
		err_warn("%lu of the %lu lines of %s are not folded stacks: no answer from a minority of "
			 "lines (--verbose names them)%s%s", others, st->lines_stack + st->lines_not_stack, what,
			 like ? "; it looks like " : "", like ? like : "");
		return 1;
	}
	if (st->samples_read || st->stacks_read)
		return 0;
	if (st->idle_left_out) {
		err_warn("all %llu threads in %s were idle and left out, as py-spy record leaves idle "
			 "threads out (a hang dump?): --idle keeps them",
			 (unsigned long long)st->idle_left_out, what);
		return 1;
	}
	if (!st->lines_bad)
		return 0;
	const char *like = 2 * st->lines_foreign > st->lines_not_stack ? "a training log: try sift-tput"
									: st->looks_like;
	err_warn("no line of %s parsed as a profile (expected folded stacks from py-spy record "
		 "--format raw, or py-spy dump output)%s%s", what, like ? "; it looks like " : "", like ? like : "");
	return 1;
}
