/* tputkv: the templates-and-columns stage: a line's numbers read as columns named by the
 * text beside them (KEY: V, KEY=V, KEY V, V UNIT, UNIT: V), each column's reading worked out
 * once per line shape (its text with every digit a '0') and only the values parsed after. */
#ifndef SIFT_TPUTKV_H
#define SIFT_TPUTKV_H

#include <stddef.h>
#include <stdint.h>

#include "tputctx.h"
#include "tputkey.h"
#include "tputunit.h"

/* The generic key/value reader on one line: every throughput figure it can name, in any of
 * the layouts "KEY: V", "KEY=V", "KEY V", "V UNIT" and "UNIT: V" (keys normalized for case and
 * "_ - . space", looked up in one table; per-device keys give the /gpu units; cumulative
 * counters, averages over the whole run, eval and inference keys are left out), and the
 * line's step and loss. Returns the number of figures written to out (at most max). */
struct tputkv_figure {
	enum tput_unit unit;
	double value;          /* in the canonical unit */
	int average;           /* a running average: a plain figure of the unit is preferred */
	int loose;             /* a time from a loose key beside a step, nothing else saying it is
				* the step's: the series stage takes it or not (tputcand_loose) */
	uint32_t at;           /* where its text starts in the line */
};
struct tputkv_line {
	long long step;        /* -1 when none */
	int step_rank;         /* how sure: global_step 4, num_updates 3, step/iter/batch 2, a
				* count alone in brackets before the line's fields ("[400] k=v") 1 */
	double loss;           /* NaN when none */
	int header;            /* a record header ("[step=N/M", "[batch=N/M]") */
	int inference;         /* 1: a figure was left out as inference; 2: the line is
				* inference's (a latency per token: "0.59 ms per token"), no figure given */
};
/* What the reader learnt of the keys and line shapes seen: with it, a line of a shape seen
 * before costs only the parse of its figures, and gives what it gives without it. */
typedef struct tputkv_cache tputkv_cache;
tputkv_cache *tputkv_cache_new(void);
void tputkv_cache_free(tputkv_cache *cache);
size_t tputkv_read(const char *text, size_t len, struct tputkv_figure *out, size_t max,
		    struct tputkv_line *info, tputkv_cache *cache);


/* The key/value reader looks at lines holding one of these (case matters to the search);
 * NULL-ended. */
extern const char *const tputkv_literals[];

/* What the reader makes of a figure from the line's shape alone (its bytes, every digit as
 * '0'): where it is and what it may be. Only its value is left to look at: a step must be a
 * whole number, a rate to invert not zero, and the text must parse. */
/* KV_WHAT_PER_TOKEN: a latency per token, which makes the whole line generation's. */
enum kv_what { KV_WHAT_NONE, KV_WHAT_FIGURE, KV_WHAT_INFER, KV_WHAT_PER_TOKEN };
/* KV_SECOND_FRAC: no second figure; an MFU written without '%': a fraction when at most 1 */
/* KV_SECOND_STEPS: the figure is the time of N steps, N at [at2, end2): divided by it */
enum kv_second { KV_SECOND_NONE, KV_SECOND_PAIR, KV_SECOND_PAREN, KV_SECOND_FRAC, KV_SECOND_STEPS };
struct tputkv_cand {
	uint32_t at, end;              /* the figure s[at, end) */
	uint32_t at2, end2;            /* a second one: "N/M tok/s"'s M, "V(W/gpu)"'s W */
	unsigned char srank;           /* a step when whole, its key's rank; 0: no step */
	unsigned char loss;            /* a loss */
	unsigned char what, second;    /* enum kv_what, enum kv_second */
	unsigned char unit, unit2;     /* enum tput_unit of each */
	unsigned char invert, average;
	unsigned char said;            /* a time read only beside other figures: enum kv_said */
	double scale;
	unsigned char part;            /* enum kv_part */
};

/* A frame's shape and its figures, kept: a log's lines come in a few shapes, each seen over
 * and over with other digits. */
enum { KV_SHAPES = 128, KV_SHAPE_MAX = 320, KV_SHAPE_CANDS = 16 };
struct tputkv_shape {
	uint64_t serial;               /* which reading this is: a slot is read anew for others */
	uint32_t len;                  /* 0: empty */
	unsigned char ncand;
	unsigned char header;
	signed char context;           /* enum tput_context, -1 until asked */
	uint64_t tmpl;                 /* the frame's template (tputtmpl_hash), 0 until asked */
	char text[KV_SHAPE_MAX];
	struct tputkv_cand cand[KV_SHAPE_CANDS];
};


/* The reader with its cache: the line's figures in out[0, max), its step, loss and more in
 * info; known, when not NULL, is the line's shape as read before; *shape the shape kept
 * (NULL when the line is too long or has too many figures to keep). */
size_t tputkv_read_shape(tputkv_cache *cache, const char *text, size_t len, struct tputkv_figure *out, size_t max,
			 struct tputkv_line *info, struct tputkv_shape *known, struct tputkv_shape **shape);
/* The training context of a frame, once per shape (NULL: worked out each time): its words
 * hold no digit. */
enum tput_context tputkv_context(const struct tputctx_words *words, struct tputkv_shape *shape, const char *text,
				 size_t len);

#endif
