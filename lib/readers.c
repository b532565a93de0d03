/* readers: one document buffer; a line from another file or format ends the document. */
#include "readers.h"
#include "austin.h"
#include "chrome.h"
#include "flamesvg.h"
#include "speedscan.h"
#include "speedscope.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct readers {
	struct err_lines *errs;
	double rate;
	doc_stack_fn *fn;
	doc_time_fn *when;      /* NULL: stacks are not timed */
	void *ctx;
	struct doc_buf doc;
	enum load_format doc_format;
	int has_doc;
	struct doc_stack st;
	struct doc_stats stats;
	struct austin_meta austin;  /* of the austin file being read */
};

readers *readers_new(struct err_lines *errs, double rate, doc_stack_fn *fn, void *ctx)
{
	readers *r = xcalloc(1, sizeof *r);
	r->errs = errs;
	r->rate = rate;
	r->fn = fn;
	r->ctx = ctx;
	return r;
}

void readers_set_time(readers *r, doc_time_fn *fn) { r->when = fn; }

void readers_free(readers *r)
{
	if (!r)
		return;
	doc_free(&r->doc);
	doc_stack_free(&r->st);
	free(r);
}

int readers_handles(enum load_format f)
{
	return f == LOAD_SPEEDSCOPE || f == LOAD_CHROME || f == LOAD_SVG || f == LOAD_AUSTIN;
}

/* A streamed document's text: its first line (the rest through in_more when it came in
 * part), then each line pulled, each followed by "\n". Where the file cannot be read
 * again (standard input, a pipe), a copy of up to READERS_COPY_MAX bytes is kept, so that
 * a document the scanner refuses can still be read whole. */
struct stream_src {
	in_reader *in;
	const char *text;
	size_t len;
	int more;               /* the first line's rest is still to come through in_more */
	int nl;                 /* a "\n" is owed before the next line */
	int done;               /* pull said the document's lines are over */
	int cut;                /* the first line's file failed before its end (reported) */
	const char *path;       /* the file, to read again; NULL: keep a copy */
	readers_pull_fn *pull;
	void *pctx;
	struct in_line line;    /* the line being given */
	char *copy;
	size_t copy_len, copy_cap;
	int dropped;            /* the copy passed READERS_COPY_MAX and was let go */
};

static void keep(struct stream_src *src, const char *text, size_t n)
{
	if (src->path || src->dropped)
		return;
	if (src->copy_len + n > READERS_COPY_MAX) {
		free(src->copy);
		src->copy = NULL;
		src->copy_len = src->copy_cap = 0;
		src->dropped = 1;
		return;
	}
	src->copy = xgrow(src->copy, &src->copy_cap, src->copy_len + n + 1, 1);
	memcpy(src->copy + src->copy_len, text, n);
	src->copy_len += n;
	src->copy[src->copy_len] = '\0';
}

static size_t stream_read(void *ctx, char *buf, size_t cap)
{
	struct stream_src *src = ctx;
	size_t given = 0;
	while (given < cap) {
		if (src->len) {
			size_t n = src->len < cap - given ? src->len : cap - given;
			memcpy(buf + given, src->text, n);
			keep(src, src->text, n);
			src->text += n;
			src->len -= n;
			given += n;
		} else if (src->more) {
			if (in_more(src->in, &src->text, &src->len))
				continue;
			src->more = 0;
			/* a file whose reading failed is closed: in_next drops such a cut line */
			src->cut = src->path && !in_path(src->in);
		} else if (src->nl) {
			buf[given++] = '\n';
			keep(src, "\n", 1);
			src->nl = 0;
		} else if (src->done || src->cut || !src->pull(src->pctx, &src->line)) {
			src->done = 1;
			break;
		} else {
			src->text = src->line.text;
			src->len = src->line.len;
			src->nl = 1;
		}
	}
	return given;
}

/* A streamed document refused by the scanner (an evented profile, text after it...), read
 * again whole so that the JSON reader takes it or names its fault: from its file, or from
 * the copy. */
static void read_again(readers *r, struct stream_src *src)
{
	doc_reset(&r->doc);
	if (src->path) {
		char *paths[1] = { (char *)src->path };
		in_reader *in = in_open(paths, 1);
		struct in_line line;
		while (in_next(in, &line))
			doc_add_line(&r->doc, &line);
		in_close(in);
	} else if (src->dropped) {
		r->stats.bad++;
		err_bad_line(r->errs, r->doc.file, r->doc.lineno,
			     "speedscope JSON the streaming reader does not take (an evented profile, a key "
			     "given twice...), over %u MB from a pipe, cannot be read again: give it as a file",
			     (unsigned)(READERS_COPY_MAX >> 20));
		return;
	} else {
		free(r->doc.text);  /* the copy is the document, as doc_add_line would join it */
		r->doc.text = src->copy;
		r->doc.len = src->copy_len;
		r->doc.cap = src->copy_cap;
		src->copy = NULL;
	}
	speedscope_read(&r->doc, r->rate, r->errs, r->fn, r->when, r->ctx, &r->stats);
}

/* chrome_read_fn: the stream, and whether its file failed before its end (reported). */
static size_t chrome_src_read(void *ctx, char *buf, size_t cap)
{
	struct stream_src *src = ctx;
	size_t n = stream_read(src, buf, cap);
	return n == 0 && src->cut ? CHROME_READ_FAILED : n;
}

int readers_stream(readers *r, enum load_format f, struct in_line *line, in_reader *in,
		   readers_pull_fn *pull, void *ctx)
{
	if (r->has_doc && line->lineno != 1 && r->doc_format == f)
		return 0;  /* a document read whole goes on */
	readers_finish(r);
	struct stream_src src = { in, line->text, line->len, line->more, 1, 0, 0, in_path(in), pull, ctx,
				  { 0 }, NULL, 0, 0, 0 };
	if (f == LOAD_CHROME) {  /* never read again: no copy kept */
		src.dropped = 1;
		chrome_stream(chrome_src_read, &src, line->file, line->lineno, r->rate, r->errs, r->fn, r->when,
			      r->ctx, &r->stats);
		return 1;
	}
	speedscan *scan = speedscan_stream(stream_read, &src, 0);
	char rest[1 << 16];
	while (stream_read(&src, rest, sizeof rest))  /* what the scanner left */
		;
	r->doc.file = line->file;
	r->doc.lineno = line->lineno;
	if (src.cut)  /* cut short (reported): in_next drops such a line */
		speedscan_free(scan);
	else if (!scan || speedscope_read_scan(scan, r->doc.file, r->doc.lineno, r->rate, r->errs, r->fn,
					       r->when, r->ctx, &r->stats) != 0)  /* which frees scan */
		read_again(r, &src);
	free(src.copy);
	doc_reset(&r->doc);
	return 1;
}

static void end_doc(readers *r)
{
	if (!r->has_doc)
		return;
	uint64_t lost = r->stats.lost;
	switch (r->doc_format) {
	case LOAD_SPEEDSCOPE:
		speedscope_read(&r->doc, r->rate, r->errs, r->fn, r->when, r->ctx, &r->stats);
		break;
	case LOAD_CHROME:
		chrome_read(&r->doc, r->rate, r->errs, r->fn, r->when, r->ctx, &r->stats);
		break;
	default:
		flamesvg_read(&r->doc, r->errs, r->fn, r->ctx, &r->stats);
		break;
	}
	if (r->stats.lost > lost)
		err_warn("%s: %" PRIu64 " samples are in frames too narrow for the flame graph to draw: "
			 "left out", r->doc.file, r->stats.lost - lost);
	doc_reset(&r->doc);
	r->has_doc = 0;
}

void readers_line(readers *r, enum load_format f, struct in_line *line)
{
	in_line_rest(line->reader, line);  /* a line in part, not streamed, is read whole */
	if (r->has_doc && (line->lineno == 1 || f != r->doc_format))
		end_doc(r);
	if (f != LOAD_AUSTIN) {
		doc_add_line(&r->doc, line);
		r->doc_format = f;
		r->has_doc = 1;
		return;
	}
	uint64_t count = 0;
	const char *reason = NULL;
	if (line->lineno == 1)
		austin_meta_reset(&r->austin);
	switch (austin_line(line->text, line->len, &r->st, &count, &reason)) {
	case AUSTIN_SKIP:
		austin_meta_line(&r->austin, line->text, line->len);
		err_skip_line(r->errs, line->file, line->lineno, "austin metadata or blank line");
		return;
	case AUSTIN_BAD:
		r->stats.bad++;
		err_bad_line(r->errs, line->file, line->lineno, "%s%s", reason,
			     line->unterminated ? " (last line cut off?)" : "");
		return;
	case AUSTIN_OK:
		break;
	}
	/* wall and cpu time are microseconds: samples at austin's interval */
	doc_note_rate(&r->stats, austin_rate(&r->austin));
	if ((count = austin_samples(&r->austin, count, r->rate)) == 0)
		return;
	r->stats.stacks++;
	r->fn(r->ctx, line->file, line->lineno, doc_stack_frames(&r->st), r->st.n, count);
}

void readers_finish(readers *r) { end_doc(r); }

const struct doc_stats *readers_stats(const readers *r) { return &r->stats; }
