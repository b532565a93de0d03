/* flamesvg: flame graph SVGs (inferno's, py-spy's default output, with fg:x/fg:w sample
 * counts; FlameGraph's flamegraph.pl, with counts in the titles) read back into folded stacks. */
#ifndef SIFT_FLAMESVG_H
#define SIFT_FLAMESVG_H

#include "docread.h"
#include "err.h"

/* Each frame is a <title>NAME (N samples, P%)</title> and a <rect>: its depth comes from
 * y (ranked away from the "all" frame's), its order from fg:x or x, its samples from fg:w
 * or the title. A frame's samples not covered by its children are its own stack's, but
 * for gaps between or after its drawn children: frames too narrow to draw, counted in
 * stats->lost with what the root's children leave (exact from fg:x/fg:w, from pixels for
 * flamegraph.pl). */
void flamesvg_read(const struct doc_buf *doc, struct err_lines *errs, doc_stack_fn *fn,
		   void *ctx, struct doc_stats *stats);

#endif
