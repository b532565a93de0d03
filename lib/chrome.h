/* chrome: Chrome trace-event JSON (py-spy's --format chrometrace) read as a stream into folded
 * stacks: B/E events per thread, the time a stack is open turned into samples. */
#ifndef SIFT_CHROME_H
#define SIFT_CHROME_H

#include <stddef.h>

#include "docread.h"
#include "err.h"

/* An array of events or {"traceEvents": [...]}. B opens a frame (name, args.filename,
 * args.line), E closes one; ts is in microseconds. The stack open between
 * two events of a thread counts their distance times rate (samples per second). Stacks get
 * a `thread (0xTID)` pseudo-frame (py-spy's chrometrace tid is the pthread id) unless their
 * root frame is one. Each stack is timed through when first, unless when is NULL: held from
 * its event on, from its thread's first B or E event.
 *
 * The document is read as a stream, token by token, without a JSON tree: memory holds its
 * distinct frames and stacks (and, with when, 32 bytes a held stack), not its text. It is
 * checked as jansson checks JSON (UTF-8, escapes, numbers, nesting up to 2048, nothing
 * after it), and nothing is given until its end: a document that breaks partway gives no
 * stack, its fault named as a bad line. Untimed, a stack is given as many times as it was
 * held, its samples summed, so per-stack figures are as if each hold were given. */

/* Up to cap bytes of the document into buf; 0 at its end, CHROME_READ_FAILED when its
 * input failed before the end (said elsewhere: then nothing is given or said). */
typedef size_t chrome_read_fn(void *ctx, char *buf, size_t cap);
#define CHROME_READ_FAILED ((size_t)-1)

/* The document read from read; file:lineno is its first line, where its stacks are said
 * to be from and its bad lines are counted from. */
void chrome_stream(chrome_read_fn *read, void *read_ctx, const char *file, unsigned long lineno,
		   double rate, struct err_lines *errs, doc_stack_fn *fn, doc_time_fn *when, void *ctx,
		   struct doc_stats *stats);
/* The same, of a document gathered whole (over DOC_MAX_BYTES: a bad line). */
void chrome_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		 doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats);

#endif
