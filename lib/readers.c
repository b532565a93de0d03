/* readers: one document buffer; a line from another file or format ends the document. */
#include "readers.h"
#include "austin.h"
#include "chrome.h"
#include "flamesvg.h"
#include "speedscope.h"
#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>

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
