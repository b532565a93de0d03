/* tputbar: the series stage's copies and bars: an unprefixed rank's copy of the figures just
 * before, a redraw, another logger's copy; a progress bar's frame held until its bar shows
 * another (a bar seen once is no training series), the points after it waiting so rows keep
 * line order. */
#ifndef SIFT_TPUTBAR_H
#define SIFT_TPUTBAR_H

#include <stddef.h>
#include <stdint.h>

#include "tputunit.h"

enum { TPUTBAR_FRAME_MAX = 16, TPUTBAR_SEEN = 64, TPUTBAR_TOTALS = 4 };

/* A point given after a held bar frame: it waits, so that points go out in line order. */
struct tputbar_queued {
	unsigned long lineno;
	struct tput_point pt;
};

/* A progress bar's frame held back until its bar shows another: a bar seen once (a data
 * preparation bar caught mid-way) is no training series. np 0: none held. */
struct tputbar_held {
	struct tput_point pts[TPUTBAR_FRAME_MAX];
	size_t np;
	unsigned long lineno;
	double total;
	long long step;
	int round;                 /* a bar's closing frame, its round seen in it alone */
};

/* What an input's lines leave for the next: the last figure of each unit (to tell an
 * unprefixed rank's copy), the bars' frames seen lately, the totals of bars that showed two
 * frames, the frame held and the points queued behind it. */
struct tputbar {
	long long last_step[TPUT_NUNITS];
	unsigned long last_line[TPUT_NUNITS];
	uint64_t last_tmpl[TPUT_NUNITS];  /* the template of that step's figure */
	unsigned long emit_line, emit_prev; /* the last line that gave figures, and the one before */
	uint64_t seen[TPUTBAR_SEEN]; /* hashes of bar frames up to their rate, the last TPUTBAR_SEEN */
	size_t seen_at;
	double total[TPUTBAR_TOTALS]; /* totals of bars shown in two frames (0: none) */
	size_t total_at;
	double round_total;        /* the last round's closing frame given: its total and line */
	unsigned long round_line;
	double last_total;         /* the last bar frame's total and count (0 0: none) */
	long long last_bar_step;
	struct tputbar_held held;
	struct tputbar_queued *queue; /* points after a held bar frame, given once it is settled */
	size_t nqueue, queue_cap;
	size_t copies;             /* figures dropped as copies, over every input */
};

/* Another input: nothing of the last one carries over, nor waits (copies are kept). */
void tputbar_reset(struct tputbar *bar);
void tputbar_free(struct tputbar *bar);
/* A line's points, step and all worked out, to the sink (to the queue while a bar frame
 * before them is held); an unprefixed rank's copy of the figures just before is counted,
 * not given. */
void tputbar_emit(struct tputbar *bar, const struct tput_point *pts, size_t np, unsigned long lineno, tput_sink *sink,
		  void *ctx);
/* A bar frame of this total and count closing its bar: was the bar's round shown in frames
 * before it? Remembered for the next. */
int tputbar_closing_shown(struct tputbar *bar, double total, long long step);
/* Was this bar frame (its text up to its rate) seen lately? Remembered when not. */
int tputbar_seen(struct tputbar *bar, const char *s, size_t len);
/* A bar frame's points (of a bar of this total, at this count): given when its bar showed two
 * frames, else held (the one held before settled: given when this is its bar's next frame,
 * dropped when not). round: a closing frame that is its round's figure (2: a Keras round,
 * which the next line may draw again with the round's time: a copy). */
void tputbar_frame(struct tputbar *bar, const struct tput_point *pts, size_t np, unsigned long lineno, double total,
		   long long step, int round, tput_sink *sink, void *ctx);
/* Is a bar frame held? */
int tputbar_holding(const struct tputbar *bar);
/* The input ended: a frame still held goes to sink when no bar of the input showed two
 * frames (it is then all there is), else it is dropped; what waited behind it follows. */
void tputbar_finish(struct tputbar *bar, tput_sink *sink, void *ctx);

/* Does s[0, n), before a bar's count, hold a round's count: "N/M" standing alone, 0 < N <= M? */
int tputbar_round(const char *s, size_t n);
/* A Keras progress bar's frame, "N/M ━━━..." or "N/M [===...": its count and total. */
int tputbar_keras(const char *s, size_t len, long long *n, long long *m);
/* Is a[0, alen) b[0, blen)'s message under another logger's head (the figures being the
 * same): a common tail of 12 bytes or more that starts a word and holds a letter and a
 * digit, after heads that differ other than in their figures and blanks? */
int tputbar_other_logger(const char *a, size_t alen, const char *b, size_t blen);
/* Do a line's figures a[0, na) repeat b[0, nb): each unit's value, step and loss? */
int tputbar_same_figures(const struct tput_point *a, size_t na, const struct tput_point *b, size_t nb);

/* Why tputbar_emit leaves a figure out (the series stage looks at them again). */
extern const char tputbar_rank_copy[];   /* an unprefixed rank's copy of the step before */
extern const char tputbar_repeat[];      /* another record repeating the step just read */
extern const char tputbar_round_again[]; /* a round's closing frame drawn again on the next line */

#endif
