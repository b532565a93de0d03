/* load: read profiles into a prof: input formats, filters and frame rewriting in one place. */
#ifndef SIFT_LOAD_H
#define SIFT_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "err.h"
#include "input.h"
#include "prof.h"
#include "rx.h"
#include "sniff.h"
#include "timewin.h"
#include "transform.h"

/* --from: the names of sniff.h's enum load_format. */
extern const char *const load_format_names[];  /* "auto", "raw", "dump", "json", "speedscope", ... */

/* A tool that only sums stacks can take each kept stack as it is read instead of the
 * profile keeping them: memory then grows with distinct frames only. */
typedef void load_stack_fn(void *ctx, const uint32_t *frames, size_t nframes, uint64_t count);
/* With a series of windows (win.width > 0): the window (its start, in seconds) of the stacks
 * the consumer is given next. */
typedef void load_window_fn(void *ctx, double start);

struct load_opts {
	enum load_format from;
	load_stack_fn *consumer;  /* NULL: stacks go into the profile */
	void *consumer_ctx;
	rx *focus;          /* keep stacks with a frame matching */
	rx *ignore;         /* drop stacks with a frame matching */
	rx *thread;         /* keep stacks whose thread pseudo-frame matches */
	int no_lines;       /* NAME (FILE:LINE) -> NAME (FILE) */
	int no_threads;     /* drop thread pseudo-frames */
	int no_process;     /* drop process pseudo-frames */
	int collapse_addrs; /* 0x... (LIB) -> [LIB], runs merged */
	int lib_basename;   /* nvidia/x/libcudart.so.12 -> libcudart.so */
	int idle;           /* dumps: keep idle threads */
	int status;         /* dumps: [active+gil], [active] or [idle] after the thread frame */
	int assume_cpu;     /* reports: no note when every thread has the same samples (--idle) */
	struct xform_opts xform;  /* transforms of kept stacks (transform.h) */
	int no_tids;        /* thread (TID): NAME -> thread (0): NAME (the id no thread has) */
	int no_pids;        /* process PID:"CMD" -> process 0:"CMD" */
	char **labels;      /* NAME=FILE: the source key of FILE (as given) is NAME */
	size_t nlabels;
	double rate;        /* samples per second (0: READERS_RATE): sample times, durations */
	struct timewin win; /* --from SEC, --to SEC, --by window: inputs must have time */
	load_window_fn *window_fn;  /* told each stack's window before the consumer sees it */
	/* told each dump thread's snapshot (1, 2, ...) before its stack: snapshots in order are
	 * a dump's time */
	load_window_fn *snapshot_fn;
};
/* The rate opts give (READERS_RATE when not set). */
double load_rate(const struct load_opts *opts);

struct load_stats {
	uint64_t samples_read;  /* in good lines, before filters */
	uint64_t samples_kept;  /* after filters */
	unsigned long stacks_read;
	unsigned long lines_bad;      /* lines that parsed as nothing */
	/* Folded lines: those that parsed as a stack, those that did not (bad lines), and of
	 * those the training log's lines (one "frame" of log fields ending in a number). */
	unsigned long lines_stack, lines_not_stack, lines_foreign;
	uint64_t idle_left_out;       /* dump threads left out as idle (no --idle) */
	int dumps;                    /* some input was dumps: one sample per thread per snapshot */
	const char *looks_like;       /* what the first lines look like (sniff_guess), or NULL */
	uint64_t samples_unshown;     /* in stacks --show-from dropped (no frame matched) */
	unsigned long stacks_unshown;
	double rate;                  /* samples per second the inputs record (speedscope weights,
				       * austin's interval): 0 none said, -1 they differ */
};
/* The rate of samples per second for figures of time (pprof's CPU, seconds): the one the
 * inputs record, else opts->rate, else READERS_RATE. */
double load_rate_recorded(const struct load_stats *stats, const struct load_opts *opts);

/* After reading: when the input held lines but gave no sample (nothing parsed, or every dump
 * thread idle), or when most of its folded lines are not stacks (a training log, a table:
 * no answer from a minority of lines), say why and what to do on stderr, naming the input
 * as `what` ("the input", "the before profile"), and return 1; else 0. Empty input is an
 * empty answer, not an error. */
int load_report_empty(const struct load_stats *stats, const char *what);
/* The NAME of path's --label NAME=PATH (the first given), with its length in *len; NULL
 * when path has none. */
const char *load_label(char *const *labels, size_t nlabels, const char *path, size_t *len);
/* A file's name without its directories; "stdin" for "-". */
const char *load_base_name(const char *path);

/* After reading with a time window (--from SEC, --to SEC): when samples were read but none
 * fell in the window, say so on stderr and return 1; else 0. */
int load_report_window(const struct load_stats *stats, const struct load_opts *opts, const char *what);
/* On stderr, when --show-from dropped stacks of `what`: how many, and their samples. */
void load_report_unshown(const struct load_stats *stats, const char *what);
/* Add from's figures to to's (inputs read apart). Returns 0, or -1 when samples overflow. */
int load_stats_add(struct load_stats *to, const struct load_stats *from);

/* A sink takes stacks frame by frame (root first), as any parser finds them, and adds
 * what the filters keep to the profile. */
typedef struct load_sink load_sink;

load_sink *load_sink_new(prof *p, const struct load_opts *opts, struct err_lines *errs);
void load_sink_free(load_sink *sink);
/* Begin a stack read at file:line (for messages). */
void load_stack_begin(load_sink *sink, const char *file, unsigned long lineno);
void load_stack_frame(load_sink *sink, const char *frame, size_t len);
/* The same with the frame's intern_hash already known. */
void load_stack_frame_hashed(load_sink *sink, const char *frame, size_t len, uint64_t hash);
/* The stack being built was held from at for len seconds (0: a sample at an instant) into
 * its thread: opts->win then keeps its part in the window (load_stack_end). */
void load_stack_time(load_sink *sink, double at, double len);
/* Add the stack with count samples; 0, or -1 when the totals would pass 2^64 (reported). */
int load_stack_end(load_sink *sink, uint64_t count);
const struct load_stats *load_sink_stats(const load_sink *sink);

/* Push a dump thread into sink as one sample: process and thread pseudo-frames, the status
 * with with_status, then its frames root first. Idle threads are left out unless with_idle.
 * Returns load_stack_end's result (0 when left out). */
int load_dump_thread(load_sink *sink, const struct dump_thread *thread, int with_idle,
		     int with_status);

/* Lines this long are handed over in part first (in_set_line_cap): a compact speedscope
 * document is streamed, not held (lib/readers.c). */
enum { LOAD_LINE_PART = 1 << 20 };

/* Read every line of in (folded stacks, dumps or JSON by content unless opts->from says)
 * into p, adding to *stats. Returns 0, or 1 when a count overflowed (reported). */
int load_reader(prof *p, in_reader *in, const struct load_opts *opts, struct err_lines *errs,
		struct load_stats *stats);

/* Read every file (none: stdin) as folded stacks into p. Returns 0, or 1 when some
 * input could not be read or a count overflowed (already reported). */
int load_files(prof *p, char *const *paths, size_t npaths, const struct load_opts *opts,
	       struct err_lines *errs, struct load_stats *stats);

#endif
