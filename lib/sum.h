/* sum: profiles summed by key as they are read, stacks never kept; large plain files read
 * on several threads. */
#ifndef SIFT_SUM_H
#define SIFT_SUM_H

#include <stddef.h>

#include "agg.h"
#include "err.h"
#include "load.h"

struct sum_result {
	agg *table;               /* closed: rows final, sort as wanted */
	size_t stacks;            /* distinct stacks (after rewriting), by 64-bit hash */
	size_t threads;           /* distinct thread pseudo-frames in kept stacks */
	struct load_stats stats;
	unsigned workers;         /* threads that read the input (1: read in order) */
};

/* Read paths (none: stdin) as load_files would and sum them by spec. The work is split
 * over up to `workers` threads when the input is plain folded-stack files large enough to
 * pay for it (0: one per processor); bad lines are then reported exactly as a single
 * reader would. Returns 0, or 1 when some input could not be read or a count overflowed. */
int sum_files(char *const *paths, size_t npaths, const struct load_opts *opts,
	      const struct agg_spec *spec, unsigned workers, struct err_lines *errs,
	      struct sum_result *out);
/* A look at every kept stack as it is summed: its frame ids in frames (which grows). */
typedef void sum_stack_fn(void *ctx, const intern *frames, const uint32_t *ids, size_t nids,
			  uint64_t count);
struct sum_tap {
	sum_stack_fn *fn;
	void *ctx;
};
/* sum_files, also giving tap every kept stack in input order (on one thread). */
int sum_files_tap(char *const *paths, size_t npaths, const struct load_opts *opts,
		  const struct agg_spec *spec, unsigned workers, const struct sum_tap *tap,
		  struct err_lines *errs, struct sum_result *out);
void sum_result_free(struct sum_result *out);

#endif
