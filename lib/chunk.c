/* chunk: ordered parallel reading of one plain file; workers run ahead of the emitter by at
 * most a few chunks, so a slow consumer holds a bounded amount of results. */
#include "chunk.h"
#include "err.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void *chunk_buf_add(struct chunk_buf *buf, size_t n)
{
	if (n > buf->cap - buf->len) {
		size_t cap = buf->cap ? buf->cap : 1 << 16;
		while (cap - buf->len < n) {
			if (cap > ((size_t)-1) / 2)
				err_exit(EXIT_DATA, "out of memory");
			cap *= 2;
		}
		buf->data = xrealloc(buf->data, cap);
		buf->cap = cap;
	}
	void *at = buf->data + buf->len;
	buf->len += n;
	return at;
}

int chunk_splittable(const char *path, unsigned long long min_bytes)
{
	if (strcmp(path, "-") == 0)
		return 0;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	struct stat st;
	unsigned char magic[4];
	int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size >= min_bytes &&
		 pread(fd, magic, 4, 0) == 4 && in_compression(magic, 4) == IN_PLAIN;
	close(fd);
	return ok;
}

unsigned chunk_processors(unsigned max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : (unsigned long)n > max ? max : (unsigned)n;
}

struct slot {
	struct chunk_buf out;
	unsigned long lines;
	int done, failed;
};

struct run {
	const char *path;
	unsigned long long size, chunk_bytes, lead_bytes;
	size_t nchunks, next, emitted, nslots;
	struct slot *slots;
	chunk_work_fn *work;
	chunk_tail_fn *tail;
	pthread_mutex_t lock;
	pthread_cond_t slot_free, slot_done;
};

struct thread {
	struct run *run;
	void *worker;
	pthread_t id;
};

/* The lines after a chunk ending at from, while the worker asks for them. */
static void read_tail(struct run *run, void *worker, unsigned long long from, struct chunk_buf *out)
{
	int more = 1;
	if (from < run->size) {
		in_reader *in = in_open_chunk(run->path, from, run->size);
		struct in_block block;
		while (more && in_next_block(in, &block))
			more = run->tail(worker, CHUNK_TAIL_BLOCK, &block, out);
		in_close(in);  /* a read error shows again in the chunk after */
	}
	if (more)
		run->tail(worker, CHUNK_TAIL_EOF, NULL, out);
}

static void *work_loop(void *arg)
{
	struct thread *t = arg;
	struct run *run = t->run;
	for (;;) {
		pthread_mutex_lock(&run->lock);
		while (run->next < run->nchunks && run->next >= run->emitted + run->nslots)
			pthread_cond_wait(&run->slot_free, &run->lock);
		size_t k = run->next < run->nchunks ? run->next++ : run->nchunks;
		pthread_mutex_unlock(&run->lock);
		if (k == run->nchunks)
			return NULL;
		struct slot *slot = &run->slots[k % run->nslots];
		slot->out.len = 0;
		unsigned long long start = k * run->chunk_bytes, end = start + run->chunk_bytes;
		struct in_block block;
		if (k > 0 && run->lead_bytes > 0) {
			run->work(t->worker, NULL, NULL);
			in_reader *lead = in_open_chunk(run->path, start > run->lead_bytes ? start - run->lead_bytes : 0, start);
			while (in_next_block(lead, &block))
				in_block_lines(lead, run->work(t->worker, &block, NULL));
			in_close(lead);  /* a read error shows again in the chunk before */
		}
		in_reader *in = in_open_chunk(run->path, start, end < run->size ? end : run->size);
		while (in_next_block(in, &block))
			in_block_lines(in, run->work(t->worker, &block, &slot->out));
		slot->lines = in_lineno(in);
		slot->failed = in_failed(in);
		in_close(in);
		if (run->tail && run->tail(t->worker, CHUNK_TAIL_START, NULL, &slot->out))
			read_tail(run, t->worker, end < run->size ? end : run->size, &slot->out);
		pthread_mutex_lock(&run->lock);
		slot->done = 1;
		pthread_cond_broadcast(&run->slot_done);
		pthread_mutex_unlock(&run->lock);
	}
}

int chunk_run(const char *path, unsigned long long chunk_bytes, unsigned long long lead_bytes, unsigned nworkers,
	      void *const *workers, chunk_work_fn *work, chunk_emit_fn *emit, void *ctx)
{
	struct chunk_job job = { path, chunk_bytes, lead_bytes, work, NULL, emit, ctx };
	return chunk_run_job(&job, nworkers, workers);
}

int chunk_run_job(const struct chunk_job *job, unsigned nworkers, void *const *workers)
{
	const char *path = job->path;
	unsigned long long chunk_bytes = job->chunk_bytes;
	struct stat st;
	if (stat(path, &st) != 0) {
		err_warn("%s: %s", path, strerror(errno));
		return 1;
	}
	struct run run = { .path = path, .size = (unsigned long long)st.st_size, .chunk_bytes = chunk_bytes,
			   .lead_bytes = job->lead_bytes, .work = job->work, .tail = job->tail };
	run.nchunks = (size_t)((run.size + chunk_bytes - 1) / chunk_bytes);
	run.nslots = 2 * (size_t)nworkers;
	run.slots = xcalloc(run.nslots, sizeof *run.slots);
	pthread_mutex_init(&run.lock, NULL);
	pthread_cond_init(&run.slot_free, NULL);
	pthread_cond_init(&run.slot_done, NULL);
	struct thread *threads = xcalloc(nworkers, sizeof *threads);
	for (unsigned k = 0; k < nworkers; k++) {
		threads[k] = (struct thread){ &run, workers[k], 0 };
		if (pthread_create(&threads[k].id, NULL, work_loop, &threads[k]) != 0)
			err_exit(EXIT_DATA, "cannot start a thread: %s", strerror(errno));
	}
	unsigned long lines = 0;
	int failed = 0;
	for (size_t k = 0; k < run.nchunks; k++) {
		struct slot *slot = &run.slots[k % run.nslots];
		pthread_mutex_lock(&run.lock);
		while (!slot->done)
			pthread_cond_wait(&run.slot_done, &run.lock);
		pthread_mutex_unlock(&run.lock);
		job->emit(job->ctx, &slot->out, lines);
		lines += slot->lines;
		failed |= slot->failed;
		pthread_mutex_lock(&run.lock);
		slot->done = 0;
		run.emitted = k + 1;
		pthread_cond_broadcast(&run.slot_free);
		pthread_mutex_unlock(&run.lock);
	}
	for (unsigned k = 0; k < nworkers; k++)
		pthread_join(threads[k].id, NULL);
	for (size_t k = 0; k < run.nslots; k++)
		free(run.slots[k].out.data);
	free(run.slots);
	free(threads);
	pthread_cond_destroy(&run.slot_free);
	pthread_cond_destroy(&run.slot_done);
	pthread_mutex_destroy(&run.lock);
	return failed;
}
