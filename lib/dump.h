/* dump: `py-spy dump` text snapshots, read line by line into threads (one per thread per snapshot). */
#ifndef SIFT_DUMP_H
#define SIFT_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "input.h"

enum dump_status { DUMP_IDLE, DUMP_ACTIVE, DUMP_ACTIVE_GIL };
extern const char *const dump_status_names[];  /* "idle", "active", "active+gil" */

/* Text by length: not NUL-terminated. */
struct dump_text { const char *s; size_t len; };

/* A process level: `process PID:"CMDLINE"` as folded stacks write it. */
struct dump_proc { struct dump_text pid, cmd, frame; };

enum { DUMP_MAX_PROCS = 8 };  /* text headers name a process and its parent; JSON may nest deeper */

/* One thread of one snapshot. Every pointer is valid only during the callback. */
struct dump_thread {
	struct dump_text tid;       /* decimal OS id, or 0x-prefixed lowercase hex */
	struct dump_text name;      /* Python thread name; len 0 and has_name 0 when none */
	int has_name;
	struct dump_text thread_frame;  /* `thread (TID): NAME` or `thread (TID)` */
	enum dump_status status;
	struct dump_proc procs[DUMP_MAX_PROCS];  /* outermost first */
	size_t nprocs;
	const struct dump_text *frames;  /* innermost first, as py-spy prints them */
	size_t nframes;
	uint64_t snapshot;          /* 1-based snapshot the thread belongs to */
	int cut_off;                /* the input ended (or broke off) inside this thread */
	const char *file;           /* where the thread line was */
	unsigned long lineno;
	int header_only;            /* a process header with no thread after it (its dump was cut
				     * or failed): only procs, snapshot, file and lineno are set */
	struct dump_text label;     /* the rank label of a prefixed paste (`3: `, `[rank3]:`,
				     * docker-compose `name  | `), set by sniff_read_dumps; len 0 when none */
};

typedef void dump_fn(void *ctx, const struct dump_thread *thread);

struct dump_stats {
	uint64_t snapshots;
	uint64_t threads;
	unsigned long cut_off;      /* threads cut off mid-stack */
};

typedef struct dump_parser dump_parser;

/* Threads go to fn as soon as they are complete; skipped and bad lines go to errs. */
dump_parser *dump_new(struct err_lines *errs, dump_fn *fn, void *ctx);
void dump_free(dump_parser *d);
/* Feed one line; its text may be rewritten in place (colours removed). A line from a new
 * file (line number 1) first ends the previous file. */
void dump_line(dump_parser *d, struct in_line *line);
/* End of input: the last thread is given out, reported when it looks cut off. */
void dump_finish(dump_parser *d);
const struct dump_stats *dump_get_stats(const dump_parser *d);

/* Remove ANSI escape sequences (colours) in place; returns the new length. */
size_t dump_strip_ansi(char *text, size_t len);

#endif
