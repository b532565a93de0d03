/* chunk: one plain file read on several threads, a chunk of lines each, with the results
 * handed back in file order; memory is bounded by the threads, not by the file. */
#ifndef SIFT_CHUNK_H
#define SIFT_CHUNK_H

#include <stddef.h>

#include "input.h"

/* What a worker found in one chunk, as bytes the emitter reads back. */
struct chunk_buf {
	char *data;
	size_t len, cap;
};
/* Room for n more bytes at the end; the caller fills them. */
void *chunk_buf_add(struct chunk_buf *buf, size_t n);

/* On a worker thread: one block of a chunk, its line numbers counting from 1 at the
 * chunk's first line. worker is that thread's own state. Returns the block's "\n" count
 * (the reader takes it rather than counting again). out is NULL for the blocks of a
 * chunk's lead-in: the whole lines before the chunk, numbered from 1 too, that a reader
 * may read to know what went before (nothing of them is to be handed back); block is NULL
 * too once as a lead-in begins, before its blocks (there may be none). */
typedef size_t chunk_work_fn(void *worker, struct in_block *block, struct chunk_buf *out);
/* On the calling thread, one call per chunk in file order: lines_before is the number of
 * lines of the file before the chunk (add it to the chunk's line numbers). */
typedef void chunk_emit_fn(void *ctx, const struct chunk_buf *out, unsigned long lines_before);

/* Below this many bytes a second thread costs more than it saves (sift-top's sums, sift-tput's
 * chunks): one place for the threshold. */
enum { CHUNK_MIN_BYTES = 16 << 20 };
/* On a worker thread, the lines after its chunk, for a worker that holds something only
 * they settle (a progress bar's frame whose bar is known only from its next frame), so that
 * what it hands back is what one thread reading the whole file gives. what is
 * CHUNK_TAIL_START once the chunk's own lines are done (block NULL): return 1 to read on;
 * CHUNK_TAIL_BLOCK for each block after the chunk (numbered from 1 at the first line after
 * it) while the worker returns 1; CHUNK_TAIL_EOF (block NULL) when the file ended while it
 * still asked for more. out is the chunk's own. */
enum chunk_tail { CHUNK_TAIL_START, CHUNK_TAIL_BLOCK, CHUNK_TAIL_EOF };
typedef int chunk_tail_fn(void *worker, enum chunk_tail what, struct in_block *block, struct chunk_buf *out);

/* A file to read in chunks: chunk_bytes each, each but the first after a lead-in of the lines
 * that start in the lead_bytes before it (0: none), each followed by its tail while the
 * worker asks for it (tail NULL: never). */
struct chunk_job {
	const char *path;
	unsigned long long chunk_bytes, lead_bytes;
	chunk_work_fn *work;
	chunk_tail_fn *tail;
	chunk_emit_fn *emit;
	void *ctx;
};
/* As chunk_run, for a job with a tail. */
int chunk_run_job(const struct chunk_job *job, unsigned nworkers, void *const *workers);

/* A regular file of at least min_bytes that is not compressed: worth reading in chunks. */
int chunk_splittable(const char *path, unsigned long long min_bytes);
/* Read path in chunks of chunk_bytes on nworkers threads, workers[k] being thread k's state;
 * each chunk but the first after a lead-in of the lines that start in the lead_bytes before
 * it (0: none). Returns non-zero when the file could not be read completely (already
 * reported). */
int chunk_run(const char *path, unsigned long long chunk_bytes, unsigned long long lead_bytes, unsigned nworkers,
	      void *const *workers, chunk_work_fn *work, chunk_emit_fn *emit, void *ctx);
/* Processors online, at least 1 and at most max. */
unsigned chunk_processors(unsigned max);

#endif
