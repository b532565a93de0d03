/* chrome: Chrome trace-event JSON (py-spy's --format chrometrace) read whole into folded
 * stacks: B/E events per thread, the time a stack is open turned into samples. */
#ifndef SIFT_CHROME_H
#define SIFT_CHROME_H

#include "docread.h"
#include "err.h"

/* An array of events or {"traceEvents": [...]}. B opens a frame (name, args.filename,
 * args.line), E closes one; ts is in microseconds. The stack open between
 * two events of a thread counts their distance times rate (samples per second). Stacks get
 * a `thread (0xTID)` pseudo-frame (py-spy's chrometrace tid is the pthread id) unless their
 * root frame is one. Each stack is timed through when first, unless when is NULL: held from
 * its event on, from its thread's first B or E event. */
void chrome_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		 doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats);

#endif
