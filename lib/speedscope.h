/* speedscope: speedscope JSON (py-spy's --format speedscope, other exporters' sampled and
 * evented profiles) read whole into folded stacks with py-spy's pseudo-frames. */
#ifndef SIFT_SPEEDSCOPE_H
#define SIFT_SPEEDSCOPE_H

#include "docread.h"
#include "err.h"

/* The profile sift-fold --to speedscope adds for all threads together: read back, it is
 * left out, as its samples are the per-thread profiles' again. */
#define SPEEDSCOPE_ALL_THREADS "all threads"

/* Is this document (its text, or its first line) sift-fold's own output, which holds
 * distinct stacks without time? */
int speedscope_is_sift(const char *text, size_t len);

/* Each sampled profile is a thread: a name `Thread TID "NAME"` or `Process PID Thread TID
 * "NAME"` (py-spy's) gives the stacks `process PID:""` and `thread (TID): NAME` pseudo-frames
 * at the root unless its frames already begin with them. A sample counts 1 in py-spy's files;
 * elsewhere its weight counts, times rate (samples per second) when the unit is time.
 * Evented profiles: the time a stack is open, times rate. Each stack is timed through when
 * first, unless when is NULL: a sample i without a time weight is at i/rate seconds, an
 * instant; weighted samples in a unit of time follow one another from 0; an evented stack is
 * held from its event on, from the profile's first event. */
void speedscope_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		     doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats);

struct speedscan;
/* As speedscope_read, for a document speedscan_stream read (a file's whole first line,
 * compact JSON, without holding it) that begins at file:lineno: 0 with its stacks given,
 * or -1 with nothing given when it is not plain sampled speedscope (the caller then reads
 * the document whole with speedscope_read, which names the fault). scan is freed. */
int speedscope_read_scan(struct speedscan *scan, const char *file, unsigned long lineno, double rate,
			 struct err_lines *errs, doc_stack_fn *fn, doc_time_fn *when, void *ctx,
			 struct doc_stats *stats);

#endif
