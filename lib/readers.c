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
	/* A speedscope document streamed from its long first line (compact JSON, as py-spy
	 * writes it), so memory holds its distinct stacks, not its text: 1 while it is taken,
	 * -1 when the scanner refused it or text followed (it is then read again whole). */
	int stream;
	speedscan *scan;
	const char *path;       /* the file, to read again */
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
	speedscan_free(r->scan);
	free(r);
}

int readers_handles(enum load_format f)
{
	return f == LOAD_SPEEDSCOPE || f == LOAD_CHROME || f == LOAD_SVG || f == LOAD_AUSTIN;
}

/* The rest of a line in_next gave in part: first the part, then in_more's. */
struct stream_src {
	in_reader *in;
	const char *text;
	size_t len;
};

static size_t stream_read(void *ctx, char *buf, size_t cap)
{
	struct stream_src *src = ctx;
	size_t given = 0;
	while (given < cap && (src->len || in_more(src->in, &src->text, &src->len))) {
		size_t n = src->len < cap - given ? src->len : cap - given;
		memcpy(buf + given, src->text, n);
		src->text += n;
		src->len -= n;
		given += n;
	}
	return given;
}

/* A speedscope document whose first line came in part (line->more): scanned as it is
 * read when its file can be read again should the scanner refuse it; else read whole. */
static int stream_doc(readers *r, struct in_line *line)
{
	r->path = in_path(line->reader);
	if (!r->path) {
		in_line_rest(line->reader, line);
		return 0;
	}
	struct stream_src src = { line->reader, line->text, line->len };
	r->scan = speedscan_stream(stream_read, &src, 0);
	while (in_more(line->reader, &src.text, &src.len))  /* what the scanner left */
		;
	if (!in_path(line->reader)) {  /* cut short (reported): in_next drops such a line */
		speedscan_free(r->scan);
		r->scan = NULL;
		return 1;
	}
	r->stream = r->scan ? 1 : -1;
	r->doc.file = line->file;
	r->doc.lineno = line->lineno;
	r->doc_format = LOAD_SPEEDSCOPE;
	r->has_doc = 1;
	return 1;
}

/* A streamed document given, or read again whole: what today's whole-document readers
 * take, named as they name it. */
static void end_stream(readers *r)
{
	speedscan *scan = r->scan;
	r->scan = NULL;
	if (r->stream > 0 && speedscope_read_scan(scan, r->doc.file, r->doc.lineno, r->rate, r->errs, r->fn,
						  r->when, r->ctx, &r->stats) == 0)
		return;
	if (r->stream < 0)
		speedscan_free(scan);
	char *paths[1] = { (char *)r->path };
	in_reader *in = in_open(paths, 1);
	struct in_line line;
	doc_reset(&r->doc);
	while (in_next(in, &line))
		doc_add_line(&r->doc, &line);
	in_close(in);
	speedscope_read(&r->doc, r->rate, r->errs, r->fn, r->when, r->ctx, &r->stats);
}

static void end_doc(readers *r)
{
	if (!r->has_doc)
		return;
	uint64_t lost = r->stats.lost;
	if (r->stream) {
		end_stream(r);
		r->stream = 0;
		doc_reset(&r->doc);
		r->has_doc = 0;
		return;
	}
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
	if (r->has_doc && (line->lineno == 1 || f != r->doc_format))
		end_doc(r);
	if (r->has_doc && r->stream) {  /* after the streamed line: only white space is JSON's */
		if (line->len != strspn(line->text, " \t\r"))
			r->stream = -1;
		return;
	}
	if (f == LOAD_SPEEDSCOPE && line->more && !r->has_doc && stream_doc(r, line))
		return;
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
