/* timewin: the part of a stack held in time that falls in a window of seconds (--from SEC,
 * --to SEC), cut into the windows of a time series (--by window). */
#ifndef SIFT_TIMEWIN_H
#define SIFT_TIMEWIN_H

#include <stdint.h>

/* All zero: no window, no series. Times are seconds from the thread's first sample. */
struct timewin {
	double from, to;        /* keep [from, to) */
	int has_from, has_to;
	double width;           /* > 0: a series of windows this wide, the first from 0 */
};

/* Is any of it set (the input must then have time)? */
int timewin_active(const struct timewin *w);
/* 0 with the value in *seconds when text is a finite decimal number of seconds, 0 or more
 * ("1", "2.5", ".5", "1e3"); else -1 (a format name, a sign, junk after the number). */
int timewin_parse_seconds(const char *text, double *seconds);
/* The start of the window holding t (seconds; width > 0). A time a rounding error short of
 * a window's start (i/rate against a typed decimal) counts as in that window. */
double timewin_start(double width, double t);

/* A piece of a stack: count samples in the window starting at start (0 without a series). */
typedef void timewin_piece_fn(void *ctx, double start, uint64_t count);

/* Give fn the part of count samples, held from at for len seconds, that falls in w: a
 * sample at an instant (len 0) is kept whole when from <= at < to; a span's count is
 * shared by the time each piece covers, rounded with the fraction left carried on in
 * *carry (so pieces add up); a span wholly kept in one window gives count unchanged. */
void timewin_split(const struct timewin *w, double at, double len, uint64_t count,
		   double *carry, timewin_piece_fn *fn, void *ctx);

#endif
