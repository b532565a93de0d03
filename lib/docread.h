/* docread: the stack callback every whole-document reader (speedscope, chrometrace, SVG) gives
 * its stacks to, and the bounded buffer that gathers a document from its lines. */
#ifndef SIFT_DOCREAD_H
#define SIFT_DOCREAD_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "input.h"

/* A document is read whole: its text may not pass this many bytes (jansson's tree of a
 * JSON document takes several times its text), so memory stays bounded. */
enum { DOC_MAX_BYTES = 256u << 20 };

struct doc_frame { const char *s; size_t len; };

/* One stack, root first, with count samples; file:lineno name where it was found. Frames
 * are valid only during the call. */
typedef void doc_stack_fn(void *ctx, const char *file, unsigned long lineno,
			  const struct doc_frame *frames, size_t nframes, uint64_t count);

/* When a stack was held, for readers of formats with time (speedscope, chrometrace): at
 * seconds from its thread's first sample, for len seconds (0: a sample at an instant). */
struct doc_time { double at, len; };
/* Called just before the doc_stack_fn of the stack it times, with the same ctx. */
typedef void doc_time_fn(void *ctx, const struct doc_time *when);

struct err_lines;
/* A whole-document reader's context: the document, where its bad input is named, the
 * callbacks it gives stacks and times to with their ctx, and its figures. */
struct doc_reader {
	const struct doc_buf *doc;
	struct err_lines *errs;
	doc_stack_fn *fn;
	doc_time_fn *when;      /* NULL: not timed */
	void *ctx;
	struct doc_stats *stats;
};

/* What a reader found, for its caller's figures. */
struct doc_stats {
	uint64_t stacks;        /* stacks given to the callback */
	unsigned long bad;      /* errors reported (bad document, bad element) */
	uint64_t lost;          /* SVG: samples in frames too narrow to draw */
	double rate;            /* samples per second the documents record: 0 none said, -1
				 * two said different rates (doc_note_rate) */
};

/* A document says it was sampled at rate per second (> 0): noted in stats->rate. */
void doc_note_rate(struct doc_stats *stats, double rate);
/* Two notes of a rate (as doc_stats.rate) made one: equal ones (to 1e-9), else -1. */
double doc_rate_join(double a, double b);

/* The lines of one document, joined by "\n", with where they began. */
struct doc_buf {
	char *text;
	size_t len, cap;
	const char *file;
	unsigned long lineno;   /* of the first line */
	int over;               /* passed DOC_MAX_BYTES: the rest was dropped */
};

/* Add a line (a line from a new file must first be ended with doc_reset). A first line of
 * 1 MB or more is taken from its reader (in_take_line) rather than copied: it is then no
 * longer in line->text. */
void doc_add_line(struct doc_buf *doc, const struct in_line *line);
/* The file line that holds byte pos of the document (the last line for pos at its end). */
unsigned long doc_line_of(const struct doc_buf *doc, size_t pos);
struct json_t;
/* Parse a JSON document (jansson: no external references; nesting bounded by its parser).
 * NULL when it is too large or not JSON, reported as a bad line naming `what` and counted
 * in stats->bad. The caller json_decref()s the result. */
struct json_t *doc_load_json(const struct doc_buf *doc, const char *what, struct err_lines *errs,
			     struct doc_stats *stats);
/* Forget the text, keeping the buffer; the next line starts a new document. */
void doc_reset(struct doc_buf *doc);
void doc_free(struct doc_buf *doc);

/* Frames of a stack being built, each text copied into one growing buffer. */
struct doc_stack {
	char *buf;
	size_t used, cap;
	size_t *offs;           /* offset, length pairs */
	size_t n, offs_cap;
	struct doc_frame *frames;
	size_t frames_cap;
};

void doc_stack_clear(struct doc_stack *st);
/* Push a frame printed from fmt. */
void doc_stack_push(struct doc_stack *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Push a code frame as py-spy's raw format writes it: NAME (FILE:LINE), NAME (FILE) when
 * there is no line or it is 0, NAME when the file is NULL or "" (pseudo-frames). */
void doc_stack_code(struct doc_stack *st, const char *name, const char *file, long line);
/* The frames pushed, root first as pushed, for a doc_stack_fn. */
const struct doc_frame *doc_stack_frames(struct doc_stack *st);
void doc_stack_free(struct doc_stack *st);

#endif
