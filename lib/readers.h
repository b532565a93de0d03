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
/* End of input: the last document is read. */
void readers_finish(readers *r);
const struct doc_stats *readers_stats(const readers *r);

#endif
