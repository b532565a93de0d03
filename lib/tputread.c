/* tputread: logs read through a tput extractor, on several threads for large plain files;
 * what each thread finds travels back to the calling thread as records, in file order. */
#include "tputread.h"

#include "chunk.h"
#include "input.h"
#include "sniff.h"
#include "tputkey.h"
#include "tputout.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a reader (this thread or a worker) finds, as records in a chunk_buf: a tag, the
 * line number, the payload's length, then the payload. */
enum record { REC_POINT, REC_NAN, REC_BAD, REC_ERROR, REC_SKIP };
enum { RECORD_HEAD = 1 + sizeof(unsigned long) + sizeof(unsigned short) };

/* A figure as its record holds it: read as training (left NULL) or left out, and why (the
 * reader's reasons are static strings). */
struct point_rec {
	struct tput_point pt;
	const char *left;
};

/* A figure held until its input ends, and its candidate. */
struct pending {
	unsigned long lineno;
	size_t cand;
	struct tput_point pt;
};

/* A pending nan, of no candidate: counted. */
#define NAN_FIGURE ((size_t)-1)

/* The input being read: its candidates and the figures they hold, those not given yet. */
struct tputread_file {
	struct tputcand_set cands;
	struct pending *p;         /* those of [head, n) not given yet */
	size_t head, n, cap;
	struct tputout_cache rows;  /* what the row before spelled */
	struct outbuf *ob;          /* rows given, not yet written */
};

struct reader {
	const struct tputread_opts *o;
	tput_ex *ex;
	struct chunk_buf *out;     /* NULL while a chunk's lead-in is read: nothing recorded */
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
	} else {
		struct point_rec rec = { *pt, res == TPUT_LEFT ? reason : NULL };
		put_record(rd->out, REC_POINT, lineno, &rec, sizeof rec);
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

static void give(struct tputread *r, const char *file, int final);
static void give_one(struct tputread *r, const char *file, const struct pending *p);
static void give_flush(struct tputread *r);

/* chunk_emit_fn: a reader's records, in order, into the output, the errors and the series. */
static void emit(void *ctx, const struct chunk_buf *in, unsigned long lines_before)
{
	struct emitter *e = ctx;
	struct tputread *r = e->r;
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
		case REC_POINT: {
			struct point_rec rec;
			memcpy(&rec, data, sizeof rec);
			struct tputread_file *f = r->file;
			struct pending p = { lineno, tputcand_add(&f->cands, &rec.pt, rec.left, lineno), rec.pt };
			/* nothing held before it, its candidate's fate sure (sure is for good): given now */
			int sure = f->head == f->n && !r->o->explain && !r->o->ntake ? f->cands.c[p.cand].sure : 0;
			if (sure > 0)
				give_one(r, e->file, &p);
			if (sure)
				break;
			f->p = xgrow(f->p, &f->cap, f->n + 1, sizeof *f->p);
			f->p[f->n++] = p;
			break;
		}
		case REC_NAN: {  /* held with the figures: a series is made in line order */
			struct tputread_file *f = r->file;
			struct tput_point pt = { -1, -1, NAN, NAN, (enum tput_unit)(unsigned char)data[0], NAN, 0, 0, 0, 0 };
			f->p = xgrow(f->p, &f->cap, f->n + 1, sizeof *f->p);
			f->p[f->n++] = (struct pending){ lineno, NAN_FIGURE, pt };
			break;
		}
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
	give(r, e->file, 0);
	give_flush(r);
}

/* Does --take's request (a candidate's number or its key, as written or normalized) name c? */
static int take_names(const char *want, const struct tputcand *c, const char *key)
{
	char *end;
	long number = strtol(want, &end, 10);
	if (end != want && *end == '\0')
		return number == c->number;
	char a[TPUTTMPL_KEY_MAX], b[TPUTTMPL_KEY_MAX];
	tputkey_norm(want, strlen(want), a, sizeof a);
	tputkey_norm(key, strlen(key), b, sizeof b);
	return *key && (strcmp(want, key) == 0 || strcmp(a, b) == 0);
}

/* The candidates of the input that ended, kept for --explain and the message when none is
 * taken; --take applied first. */
static void keep_cands(struct tputread *r, const char *file)
{
	struct tputcand_set *cs = &r->file->cands;
	/* a key takes its first candidate of each unit: the later ones are mostly its copies */
	for (size_t t = 0; t < r->o->ntake; t++) {
		size_t first[TPUT_NUNITS];
		for (size_t u = 0; u < TPUT_NUNITS; u++)
			first[u] = cs->n;
		for (size_t i = 0; i < cs->n; i++) {
			const struct tputtmpl_seen *seen = tput_ex_template(r->ex, cs->c[i].tmpl, (int)cs->c[i].unit);
			size_t *f = &first[cs->c[i].unit];
			if (take_names(r->o->take[t], &cs->c[i], seen ? seen->key : "") &&
			    (*f == cs->n || cs->c[i].number < cs->c[*f].number))
				*f = i;
		}
		for (size_t u = 0; u < TPUT_NUNITS; u++)
			if (first[u] < cs->n) {
				tputcand_take(cs, first[u]);
				r->takes_used |= t < 64 ? 1ULL << t : 0;
			}
	}
	size_t *order = xcalloc(cs->n ? cs->n : 1, sizeof *order);  /* by number: first line */
	for (size_t i = 0; i < cs->n; i++)
		order[cs->c[i].number - 1] = i;
	for (size_t o = 0; o < cs->n; o++) {
		size_t i = order[o];
		const struct tputtmpl_seen *seen = tput_ex_template(r->ex, cs->c[i].tmpl, (int)cs->c[i].unit);
		const char *key = seen ? seen->key : "";
		r->cands = xgrow(r->cands, &r->cands_cap, r->ncands + 1, sizeof *r->cands);
		struct tputout_cand *k = &r->cands[r->ncands++];
		k->source = xstrndup(file, strlen(file));
		k->c = cs->c[i];
		k->median = tputcand_median(&cs->c[i]);
		k->c.values = NULL;
		k->c.cap = 0;
		snprintf(k->key, sizeof k->key, "%s", key);
		snprintf(k->example, sizeof k->example, "%s", seen ? seen->example : "");
	}
	free(order);
}

/* One figure given: a nan counted, a point to the set or a row to the output. */
static void give_one(struct tputread *r, const char *file, const struct pending *p)
{
	struct tputread_file *f = r->file;
	if (p->cand == NAN_FIGURE) {
		r->nans++;
		if (r->set)
			series_get(r->set, file, p->pt.unit)->nan++;
		return;
	}
	if (r->set) {
		r->points++;
		series_add(series_get(r->set, file, p->pt.unit),
			   (struct series_point){ p->pt.value, p->pt.step, p->pt.rank, p->pt.time });
		return;
	}
	if (!f->ob) {
		f->ob = xmalloc(sizeof *f->ob);
		f->ob->len = 0;
	}
	if (r->points++ == 0)  /* no header when nothing matched: the error says why */
		out_put(f->ob, r->out, TPUTOUT_HEADER, sizeof TPUTOUT_HEADER - 1);
	char num[24], row[TPUTOUT_ROW_MAX], *at = num + sizeof num;
	unsigned long v = p->lineno;
	do
		*--at = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	*--at = '\t';
	out_put(f->ob, r->out, file, strlen(file));
	out_put(f->ob, r->out, at, (size_t)(num + sizeof num - at));
	out_put(f->ob, r->out, row, tputout_row_cached(&f->rows, row, &p->pt));
}

/* The rows given so far written out. */
static void give_flush(struct tputread *r)
{
	struct tputread_file *f = r->file;
	if (f && f->ob && f->ob->len) {
		fwrite(f->ob->buf, 1, f->ob->len, r->out);
		f->ob->len = 0;
	}
}

/* The held figures given in line order, as rows to out or points to the set, while what
 * becomes of each is known: all of them once the input ended (final: its candidates
 * decided), else up to the first whose candidate may still go either way (tputcand_sure),
 * so that a long log streams. --explain and --take hold them all. */
static void give(struct tputread *r, const char *file, int final)
{
	struct tputread_file *f = r->file;
	size_t upto = f->n;
	if (!final) {
		if (r->o->explain || r->o->ntake)
			return;
		tputcand_sure(&f->cands);
		for (upto = f->head; upto < f->n; upto++)
			if (f->p[upto].cand != NAN_FIGURE && f->cands.c[f->p[upto].cand].sure == 0)
				break;
		if (upto == f->head)
			return;
	}
	for (size_t i = f->head; i < upto; i++) {
		const struct pending *p = &f->p[i];
		if (p->cand == NAN_FIGURE || (final ? f->cands.c[p->cand].taken : f->cands.c[p->cand].sure > 0))
			give_one(r, file, p);
	}
	/* given ones are dropped from the front once they are most of the array */
	f->head = upto;
	if (f->head == f->n) {
		f->head = f->n = 0;
	} else if (f->head * 2 > f->n) {
		memmove(f->p, f->p + f->head, (f->n - f->head) * sizeof *f->p);
		f->n -= f->head;
		f->head = 0;
	}
}

/* The input ended: which candidates are taken, and the figures still held given. */
static void file_done(struct tputread *r, const char *file)
{
	struct tputread_file *f = r->file;
	tputcand_decide(&f->cands);
	keep_cands(r, file);  /* --take applied there */
	give(r, file, 1);
	give_flush(r);
	tputcand_set_free(&f->cands);
	f->head = f->n = 0;
}

/* The state of an input being read, made on first use. */
static void file_start(struct tputread *r)
{
	if (!r->file) {
		r->file = xcalloc(1, sizeof *r->file);
		r->file->cands.keep_values = r->o->explain;
	}
	tputcand_set_free(&r->file->cands);
	r->file->head = r->file->n = 0;
	memset(&r->file->rows, 0, sizeof r->file->rows);
}

void tputread_free(struct tputread *r)
{
	for (size_t i = 0; i < r->ncands; i++)
		free(r->cands[i].source);
	free(r->cands);
	r->cands = NULL;
	r->ncands = r->cands_cap = 0;
	if (r->file) {
		tputcand_set_free(&r->file->cands);
		free(r->file->p);
		free(r->file->ob);
		free(r->file);
		r->file = NULL;
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
enum { CHUNK_BYTES = 4 << 20, LEAD_BYTES = 64 << 10 };

/* One large plain file on several threads, each with its own copy of the rules. */
static int read_parallel(struct tputread *r, const char *path, unsigned jobs)
{
	struct reader *readers = xcalloc(jobs, sizeof *readers);
	void **workers = xcalloc(jobs, sizeof *workers);
	for (unsigned k = 0; k < jobs; k++) {
		readers[k] = (struct reader){ .o = r->o, .ex = tput_ex_clone(r->ex), .limit = (unsigned long)-1 };
		workers[k] = &readers[k];
	}
	struct emitter e = { r, path };
	struct chunk_job job = { path, CHUNK_BYTES, LEAD_BYTES, work, tail, emit, &e };
	file_start(r);
	int failed = chunk_run_job(&job, jobs, workers);
	file_done(r, path);
	for (unsigned k = 0; k < jobs; k++) {
		r->inference_lines += tput_ex_inference_lines(readers[k].ex) - readers[k].side_inference;
		tput_ex_free(readers[k].ex);
	}
	free(readers);
	free(workers);
	return failed;
}

/* What an input's first lines (text[0, len)) look like when of the first 16 that are not
 * blank, more prove a profile's or a dump's format (sniff_line: a dump's header, a folded
 * stack) than read as a log's (sniff_log_line): sniff's word for the first, else NULL. */
static const char *first_lines_look(const char *text, size_t len)
{
	size_t seen = 0, other = 0, logs = 0;
	enum load_format f;  /* a folded stack proves itself by its frames' ';' (not "## size: 96") */
	const char *guess = NULL;
	for (const char *s = text, *end = text + len; s < end && seen < 16;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		if (n && s[n - 1] == '\r')
			n--;
		size_t b = 0;
		while (b < n && (s[b] == ' ' || s[b] == '\t'))
			b++;
		if (b < n) {
			seen++;
			if (sniff_log_line(s, n)) {
				logs++;
			} else if ((f = sniff_line(s, n)) != LOAD_AUTO && (f != LOAD_RAW || memchr(s, ';', n))) {
				other++;
				if (!guess)
					guess = sniff_guess(s, n);
			}
		}
		s = nl ? nl + 1 : end;
	}
	return other > logs ? guess : NULL;
}

/* The first input no log's lines start, named (tputread.looks_like). */
static void note_looks(struct tputread *r, const char *path, const char *text, size_t len)
{
	if (r->looks_like)
		return;
	r->looks_like = first_lines_look(text, len);
	r->looks_path = r->looks_like ? path : NULL;
}

/* The same from a file's first block, read again (a large file read on threads that gave
 * nothing). */
static void note_file_looks(struct tputread *r, char *path)
{
	if (r->looks_like)
		return;
	in_reader *in = in_open(&path, 1);
	struct in_block b;
	if (in_next_block(in, &b))
		note_looks(r, path, b.text, b.len);
	in_close(in);
}

int tputread_logs(struct tputread *r, char **paths, size_t npaths)
{
	/* Threads pay off on large plain files. */
	unsigned jobs = r->o->jobs ? r->o->jobs : chunk_processors(8);
	int failed = 0;
	struct chunk_buf out = { NULL, 0, 0 };
	struct reader rd = { .o = r->o, .ex = r->ex, .out = &out, .limit = (unsigned long)-1 };
	char *stdin_path[] = { "-" };
	if (npaths == 0) {
		paths = stdin_path;
		npaths = 1;
	}
	for (size_t f = 0; f < npaths; f++) {
		if (jobs > 1 && !r->o->in_order && chunk_splittable(paths[f], CHUNK_MIN_BYTES)) {
			unsigned long had = r->points + r->nans;
			failed |= read_parallel(r, paths[f], jobs);
			if (r->points + r->nans == had)  /* nothing found: the file read again for what it is */
				note_file_looks(r, paths[f]);
			continue;
		}
		in_reader *in = in_open(paths + f, 1);
		struct in_block b;
		const char *file = NULL;
		file_start(r);
		while (in_next_block(in, &b)) {
			struct emitter e = { r, b.file };
			if (b.lineno <= 1)
				note_looks(r, paths[f], b.text, b.len);
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
			file_done(r, file);
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
