/* tputread: logs read through a tput extractor, on several threads for large plain files;
 * what each thread finds travels back to the calling thread as records, in file order. */
#include "tputread.h"

#include "chunk.h"
#include "input.h"
#include "tputout.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* What a reader (this thread or a worker) finds, as records in a chunk_buf: a tag, the
 * line number, the payload's length, then the payload. Rows are formatted by the reader,
 * all but their source and line, which the emitter writes once the chunk's place in the
 * file is known. */
enum record { REC_ROW, REC_POINT, REC_NAN, REC_BAD, REC_ERROR, REC_SKIP };
enum { RECORD_HEAD = 1 + sizeof(unsigned long) + sizeof(unsigned short) };

/* A point for stats, as its record holds it. */
struct point_rec {
	struct series_point p;
	unsigned char unit;
};

struct reader {
	const struct tputread_opts *o;
	tput_ex *ex;
	int collect;               /* points for stats rather than rows */
	struct chunk_buf *out;     /* NULL while a chunk's lead-in is read: nothing recorded */
	struct tputout_cache rows;  /* what the row before spelled */
	/* A chunk's lead-in (the lines before it, read again) is numbered 1..lead and the
	 * chunk's own lines after it, so the extractor reads on across the seam as one
	 * thread does: a copy of the line before, a record's header, a bar's frames. */
	unsigned long lead;
	/* The chunk's last line, as numbered here: lines past it are read only to settle what
	 * the extractor holds (a bar's frame), their own records left to the chunk after. */
	unsigned long own_last, limit;
	size_t side_inference;     /* inference lines of lead-ins and tails: other chunks count them */
};

/* The calling thread's side: where records end up. */
struct emitter {
	struct tputread *r;
	const char *file;          /* being read */
};

/* Room for a record of up to max bytes; returns where its data goes. */
static char *open_record(struct chunk_buf *out, enum record tag, unsigned long lineno, size_t max)
{
	char *at = chunk_buf_add(out, RECORD_HEAD + max);
	*at = (char)tag;
	memcpy(at + 1, &lineno, sizeof lineno);
	return at + RECORD_HEAD;
}

/* The record opened last holds n of its max bytes. */
static void close_record(struct chunk_buf *out, size_t n, size_t max)
{
	unsigned short len = (unsigned short)n;
	memcpy(out->data + out->len - max - sizeof len, &len, sizeof len);
	out->len -= max - n;
}

static void put_record(struct chunk_buf *out, enum record tag, unsigned long lineno, const void *data,
		       size_t len)
{
	size_t n = len > 0xffff ? 0xffff : len;
	memcpy(open_record(out, tag, lineno, n), data, n);
	close_record(out, n, n);
}

/* tput_sink for a reader: filters, then records. */
static void sink(void *ctx, unsigned long lineno, enum tput_result res, const struct tput_point *pt,
		 const char *reason)
{
	struct reader *rd = ctx;
	const struct tputread_opts *o = rd->o;
	if (!rd->out || lineno <= rd->lead || lineno > rd->limit)  /* another chunk's line */
		return;
	lineno -= rd->lead;
	if (res == TPUT_BAD || res == TPUT_ERROR || res == TPUT_NOMATCH) {
		enum record tag = res == TPUT_BAD ? REC_BAD : res == TPUT_ERROR ? REC_ERROR : REC_SKIP;
		put_record(rd->out, tag, lineno, reason, strlen(reason));
		return;
	}
	if ((o->unit >= 0 && (int)pt->unit != o->unit) || (o->rank >= 0 && pt->rank != o->rank))
		return;
	if (res == TPUT_NAN) {
		unsigned char unit = (unsigned char)pt->unit;
		put_record(rd->out, REC_NAN, lineno, &unit, 1);
	} else if (rd->collect) {
		struct point_rec rec = { { pt->value, pt->step, pt->rank, pt->time }, (unsigned char)pt->unit };
		put_record(rd->out, REC_POINT, lineno, &rec, sizeof rec);
	} else {
		/* Straight into the record: one copy less per row. */
		char *at = open_record(rd->out, REC_ROW, lineno, TPUTOUT_ROW_MAX);
		close_record(rd->out, tputout_row_cached(&rd->rows, at, pt), TPUTOUT_ROW_MAX);
	}
}

/* Output rows are gathered here and written in large pieces. */
struct outbuf {
	char buf[1 << 16];
	size_t len;
};

static void out_put(struct outbuf *ob, FILE *out, const char *s, size_t n)
{
	if (n > sizeof ob->buf - ob->len) {
		fwrite(ob->buf, 1, ob->len, out);
		ob->len = 0;
		if (n > sizeof ob->buf) {
			fwrite(s, 1, n, out);
			return;
		}
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

/* chunk_emit_fn: a reader's records, in order, into the output, the errors and the series. */
static void emit(void *ctx, const struct chunk_buf *in, unsigned long lines_before)
{
	struct emitter *e = ctx;
	struct tputread *r = e->r;
	struct outbuf *ob = NULL;
	size_t file_len = strlen(e->file);
	for (size_t at = 0; at < in->len;) {
		enum record tag = (enum record)in->data[at];
		unsigned long lineno;
		unsigned short n;
		memcpy(&lineno, in->data + at + 1, sizeof lineno);
		memcpy(&n, in->data + at + 1 + sizeof lineno, sizeof n);
		const char *data = in->data + at + RECORD_HEAD;
		at += RECORD_HEAD + n;
		lineno += lines_before;
		switch (tag) {
		case REC_ROW: {
			if (!ob) {
				ob = xmalloc(sizeof *ob);
				ob->len = 0;
			}
			if (r->points++ == 0)  /* no header when nothing matched: the error says why */
				out_put(ob, r->out, TPUTOUT_HEADER, sizeof TPUTOUT_HEADER - 1);
			char num[24], *p = num + sizeof num;
			unsigned long v = lineno;
			do
				*--p = (char)('0' + v % 10);
			while ((v /= 10) != 0);
			*--p = '\t';
			out_put(ob, r->out, e->file, file_len);
			out_put(ob, r->out, p, (size_t)(num + sizeof num - p));
			out_put(ob, r->out, data, n);
			break;
		}
		case REC_POINT: {
			struct point_rec rec;
			memcpy(&rec, data, sizeof rec);
			r->points++;
			series_add(series_get(r->set, e->file, (enum tput_unit)rec.unit), rec.p);
			break;
		}
		case REC_NAN:
			r->nans++;
			if (r->set)
				series_get(r->set, e->file, (enum tput_unit)(unsigned char)data[0])->nan++;
			break;
		case REC_ERROR: /* a pattern that cannot finish is always named */
			if (!r->errs->verbose)
				err_warn("%s:%lu: %.*s", e->file, lineno, (int)n, data);
			/* fall through */
		case REC_BAD:
			err_bad_line(r->errs, e->file, lineno, "%.*s", (int)n, data);
			break;
		case REC_SKIP:
			err_skip_line(r->errs, e->file, lineno, "%.*s", (int)n, data);
			break;
		}
	}
	if (ob) {
		fwrite(ob->buf, 1, ob->len, r->out);
		free(ob);
	}
}

/* chunk_work_fn: one block through a worker's own extractor. */
static size_t work(void *worker, struct in_block *block, struct chunk_buf *out)
{
	struct reader *rd = worker;
	rd->out = out;
	if (!out) {  /* a lead-in: read for what it leaves, its lines numbered from 1 */
		if (!block) {
			rd->lead = 0;
			rd->limit = (unsigned long)-1;
			return 0;
		}
		size_t inference = tput_ex_inference_lines(rd->ex);
		size_t lines = tput_ex_block(rd->ex, block->text, block->len, block->lineno, sink, rd);
		rd->lead = block->lineno - 1 + lines;
		rd->side_inference += tput_ex_inference_lines(rd->ex) - inference;
		return lines;
	}
	size_t lines = tput_ex_block(rd->ex, block->text, block->len, block->lineno + rd->lead, sink, rd);
	rd->own_last = block->lineno + rd->lead + lines + (block->unterminated != 0) - 1;
	return lines;
}

/* chunk_tail_fn: a bar frame the chunk ends on waits for the lines after it (its bar's next
 * frame, or another bar's), read as one thread reads them; what they give is left to the
 * chunk after, whose lead-in then holds the frame again and drops what it settles. */
static int tail(void *worker, enum chunk_tail what, struct in_block *block, struct chunk_buf *out)
{
	struct reader *rd = worker;
	rd->out = out;
	if (what == CHUNK_TAIL_START) {
		rd->limit = rd->own_last;
		return tput_ex_holding(rd->ex);
	}
	size_t inference = tput_ex_inference_lines(rd->ex);
	if (what == CHUNK_TAIL_BLOCK)
		tput_ex_block(rd->ex, block->text, block->len, rd->own_last + block->lineno, sink, rd);
	else  /* the file ended: as one thread settles at its end */
		tput_ex_finish(rd->ex, sink, rd);
	rd->side_inference += tput_ex_inference_lines(rd->ex) - inference;
	return what == CHUNK_TAIL_BLOCK && tput_ex_holding(rd->ex);
}

/* A lead-in of 64 KB holds a few hundred lines: more than any rule looks back (a record's
 * header, 256 lines), on most logs. */
enum { CHUNK_MIN_FILE = 16 << 20, CHUNK_BYTES = 4 << 20, LEAD_BYTES = 64 << 10 };

/* One large plain file on several threads, each with its own copy of the rules. */
static int read_parallel(struct tputread *r, const char *path, unsigned jobs)
{
	struct reader *readers = xcalloc(jobs, sizeof *readers);
	void **workers = xcalloc(jobs, sizeof *workers);
	for (unsigned k = 0; k < jobs; k++) {
		readers[k] = (struct reader){ .o = r->o, .ex = tput_ex_clone(r->ex), .collect = r->set != NULL,
					      .limit = (unsigned long)-1 };
		workers[k] = &readers[k];
	}
	struct emitter e = { r, path };
	struct chunk_job job = { path, CHUNK_BYTES, LEAD_BYTES, work, tail, emit, &e };
	int failed = chunk_run_job(&job, jobs, workers);
	for (unsigned k = 0; k < jobs; k++) {
		r->inference_lines += tput_ex_inference_lines(readers[k].ex) - readers[k].side_inference;
		tput_ex_free(readers[k].ex);
	}
	free(readers);
	free(workers);
	return failed;
}

int tputread_logs(struct tputread *r, char **paths, size_t npaths)
{
	/* Threads pay off on large plain files. */
	unsigned jobs = r->o->jobs ? r->o->jobs : chunk_processors(8);
	int failed = 0;
	struct chunk_buf out = { NULL, 0, 0 };
	struct reader rd = { .o = r->o, .ex = r->ex, .collect = r->set != NULL, .out = &out, .limit = (unsigned long)-1 };
	char *stdin_path[] = { "-" };
	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	for (size_t f = 0; f < npaths; f++) {
		if (jobs > 1 && !r->o->in_order && chunk_splittable(paths[f], CHUNK_MIN_FILE)) {
			failed |= read_parallel(r, paths[f], jobs);
			continue;
		}
		in_reader *in = in_open(paths + f, 1);
		struct in_block b;
		const char *file = NULL;
		while (in_next_block(in, &b)) {
			struct emitter e = { r, b.file };
			file = b.file;
			out.len = 0;
			in_block_lines(in, tput_ex_block(r->ex, b.text, b.len, b.lineno, sink, &rd));
			emit(&e, &out, 0);
		}
		if (file) {  /* a figure held back to the input's end */
			struct emitter e = { r, file };
			out.len = 0;
			tput_ex_finish(r->ex, sink, &rd);
			emit(&e, &out, 0);
		}
		failed |= in_failed(in);
		in_close(in);
	}
	free(out.data);
	return failed;
}

size_t tputread_inference_lines(const struct tputread *r)
{
	return r->inference_lines + tput_ex_inference_lines(r->ex);
}
