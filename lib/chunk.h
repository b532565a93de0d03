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
