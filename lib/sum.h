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
	size_t idle_threads;      /* profiles only: threads when they look recorded with --idle, else 0 */
	uint64_t idle_min, idle_max;  /* their fewest and most samples */
};

/* Read paths (none: stdin) as load_files would and sum them by spec. The work is split
 * over up to `workers` threads when the input is plain folded-stack files large enough to
 * pay for it (0: one per processor); bad lines are then reported exactly as a single
 * reader would. Returns 0, or 1 when some input could not be read or a count overflowed. */
int sum_files(char *const *paths, size_t npaths, const struct load_opts *opts,
	      const struct agg_spec *spec, unsigned workers, struct err_lines *errs,
	      struct sum_result *out);
/* Do a file's first bytes prove folded stacks (the first line sniff decides on is one, and
 * is whole)? Only then is a file cut at newlines and read on several threads. */
int sum_head_is_folded(const char *head, size_t len);
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

/* Sum each of paths (two or more) on its own into each[i], with its samples read in
 * each_samples[i], and all of them into pooled, reading every file once. pooled's idle
 * note holds when every input looks recorded with --idle; its stacks and threads are
 * summed over the inputs. Returns 0, or 1 when some input failed (already reported). */
int sum_files_each(char *const *paths, size_t npaths, const struct load_opts *opts,
		   const struct agg_spec *spec, struct err_lines *errs, agg **each,
		   uint64_t *each_samples, struct sum_result *pooled);

/* Does path hold time, by content unless forced: SUM_TIME (a speedscope or chrometrace
 * profile), SUM_SNAPSHOTS (py-spy dumps: snapshots in order), or 0 (standard input, a
 * pipe, folded stacks, anything else)? */
enum { SUM_TIME = 1, SUM_SNAPSHOTS = 2 };
int sum_file_has_time(const char *path, enum load_format forced);
/* One input as replicates: path's stacks summed by windows of time (SUM_BLOCK_WINDOW
 * seconds of each thread's own time; with kind SUM_SNAPSHOTS, a dump's snapshots),
 * consecutive windows grouped into at most `most` blocks of near-equal length and
 * SUM_BLOCK_SAMPLES samples or more on average, into blocks[b] with their samples in
 * samples[b] (room for most). Returns the number of blocks; *status 1 when the file could
 * not be read. */
#define SUM_BLOCK_WINDOW 0.1
#define SUM_BLOCK_SAMPLES 250u
size_t sum_file_blocks(const char *path, int kind, const struct load_opts *opts, const struct agg_spec *spec,
		       size_t most, struct err_lines *errs, agg **blocks, uint64_t *samples, int *status);

/* Samples per thread that look recorded with py-spy record --idle (every thread sampled at
 * every tick, so shares are of wall time): three or more threads, all with the same samples
 * to within 1%. Returns 1 with the fewest and most in *min and *max, else 0. */
int sum_looks_idle(const uint64_t *samples, size_t n, uint64_t *min, uint64_t *max);
/* Say so on stderr: "WHAT: every thread (N) has M samples: recorded with --idle? ...". */
void sum_note_idle(const char *what, size_t nthreads, uint64_t min, uint64_t max);
/* sum_note_idle for a result that looks so, unless opts->assume_cpu. Returns 1 when said. */
int sum_result_note_idle(const struct sum_result *r, const struct load_opts *opts, const char *what);

#endif
