/* readers: the formats read whole or by their own rules (speedscope, chrometrace, flame graph
 * SVG, austin), each file's lines given to the reader sniff chose for it. */
#ifndef SIFT_READERS_H
#define SIFT_READERS_H

#include "docread.h"
#include "err.h"
#include "input.h"
#include "sniff.h"

/* Samples per second that turn durations (chrometrace, evented or time-weighted speedscope)
 * into samples: py-spy record's default rate. */
#define READERS_RATE 100.0

typedef struct readers readers;

readers *readers_new(struct err_lines *errs, double rate, doc_stack_fn *fn, void *ctx);
/* Time each stack of the formats with time (speedscope, chrometrace) through fn first. */
void readers_set_time(readers *r, doc_time_fn *fn);
void readers_free(readers *r);
/* Does one of these readers take lines of format? */
int readers_handles(enum load_format format);
/* Give a line of a format readers_handles; a document ends at its file's end. */
void readers_line(readers *r, enum load_format format, struct in_line *line);
/* The next line of the document being streamed: 1 with a line of the same file, 0 at
 * its end (a line of the next file is kept by the caller for readers_line). */
typedef int readers_pull_fn(void *ctx, struct in_line *line);
/* A speedscope or chrometrace document (format f) that starts at line (read by in, its
 * reader) streamed: its text scanned as it comes, its other lines taken through pull, so
 * memory holds its distinct frames and stacks, not its text. A speedscope document the
 * scanner refuses (an evented profile, text after the document) is read again whole: from
 * its file, or from standard input or a pipe when it is READERS_COPY_MAX bytes or less (a
 * copy is kept while it is), else it is a bad document; a chrometrace document is read
 * by its own streaming reader only (chrome_stream), which gives nothing from one that
 * breaks partway. 1 when the document was taken; 0 when line belongs to a document
 * already being read whole (give it to readers_line). */
enum { READERS_COPY_MAX = 16u << 20 };
int readers_stream(readers *r, enum load_format f, struct in_line *line, in_reader *in,
		   readers_pull_fn *pull, void *ctx);
/* End of input: the last document is read. */
void readers_finish(readers *r);
const struct doc_stats *readers_stats(const readers *r);

#endif
