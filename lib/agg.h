/* agg: a profile summed by key (frame, function, file, lib, line, root, thread, process,
 * category, source) or by a pair of keys: self and total samples per key. */
#ifndef SIFT_AGG_H
#define SIFT_AGG_H

#include <stddef.h>
#include <stdint.h>

#include "frame.h"
#include "intern.h"
#include "prof.h"
#include "rules.h"

#define AGG_NONE UINT32_MAX

struct agg_row {
	uint32_t key;    /* id in agg_keys() */
	uint32_t key2;   /* second key's id in agg_keys() when summing by a pair, else AGG_NONE */
	uint64_t self;   /* samples of stacks whose leaf frame has the key */
	uint64_t total;  /* samples of stacks holding the key anywhere, once per stack */
};

typedef struct agg agg;

/* What to sum by. source: the input file (agg_set_source); window: the window of time
 * (agg_set_window). category: self is the stack's category (its leaf-most frame matching a
 * rule, "other" when none); total is the same, or with inclusive every category any frame
 * matches, once per stack. With two keys a row is a pair (the first key's self and the
 * second's for self; every combination of the two keys' totals for total). */
struct agg_spec {
	enum frame_key keys[2];
	size_t nkeys;           /* 1 or 2 */
	rules *rules;           /* needed when a key is category */
	int inclusive;
};

/* Sum p by key. Each distinct frame's key is worked out once. */
agg *agg_new(const prof *p, enum frame_key key);
agg *agg_new_spec(const prof *p, const struct agg_spec *spec);

/* The same, stack by stack as they are read, without keeping the stacks: frames is the
 * profile's frame table, which may grow between calls. Rows are final after agg_close. */
agg *agg_open(const intern *frames, const struct agg_spec *spec);
void agg_add(agg *a, const uint32_t *frames, size_t nframes, uint64_t count);
/* The source key of the stacks added from now on: the input they are read from. Before
 * any call, stacks count under "(no source)". */
void agg_set_source(agg *a, const char *name, size_t len);
/* The window key of the stacks added from now on: the start of their window of time, in
 * seconds (its text: "0", "0.5", "12"). agg_sort puts windows in time order. */
void agg_set_window(agg *a, double start);
/* Sorted by a pair with window: the end of the run of rows from row i that share its window,
 * with their self samples (the window's samples, every stack having a self row but for
 * lib's Python leaves) in *self. Without a window key: n, and every row's self. */
size_t agg_window_run(const agg *a, size_t i, uint64_t *self);
/* Is one of spec's keys key? */
int agg_spec_has(const struct agg_spec *spec, enum frame_key key);
void agg_close(agg *a);
/* Add src's rows into dst (both open, same spec): sums read on other threads become one. */
void agg_merge(agg *dst, const agg *src);

/* Two sums of the same keys (before/after, total/GIL) side by side. */
struct agg_join_row {
	const struct agg_row *side[2];  /* the row in a and in b; NULL where the key is absent */
};
/* Join a and b by key values (both keys for pairs): a's rows in a's order, then the rows
 * only b has, in b's order. Returns the number of rows; *rows is the caller's to free. */
size_t agg_join(const agg *a, const agg *b, struct agg_join_row **rows);
/* Key k (0, or 1 for pairs) of a joined row, from whichever side has it. */
const char *agg_join_key(const agg *a, const agg *b, const struct agg_join_row *row, size_t k,
			 size_t *len);

/* Parse --by's value, KEY or KEY,KEY, into spec->keys/nkeys. Returns 0, or -1 with the
 * reason in err. */
int agg_parse_keys(const char *value, struct agg_spec *spec, char *err, size_t errlen);
/* Why --inclusive does nothing with spec's keys ("--inclusive counts categories: ..."), or
 * NULL when it does something. */
const char *agg_inclusive_unused(const struct agg_spec *spec);
/* Non-zero when a key of spec is category (rules must be loaded). */
int agg_spec_needs_rules(const struct agg_spec *spec);
void agg_free(agg *a);

size_t agg_row_count(const agg *a);
const struct agg_row *agg_rows(const agg *a);
const intern *agg_keys(const agg *a);
/* Samples in stacks that had no value for the key (a Python leaf for lib). */
uint64_t agg_unkeyed(const agg *a);
/* Samples counted under key k's "(no thread)"-style row: stacks without that key. Self
 * sums to the samples added for every key but lib, whose Python leaves have none. */
uint64_t agg_missing(const agg *a, size_t k);
/* On stderr, for thread and process keys with such samples: how to record those frames. */
void agg_note_missing(const agg *a, const struct agg_spec *spec);

enum agg_order { AGG_BY_SELF, AGG_BY_TOTAL };
/* Descending by the chosen figure, then by the other, then by key text (first, second). */
void agg_sort(agg *a, enum agg_order order);

/* Number of distinct thread pseudo-frames in the profile's stacks. */
size_t agg_thread_count(const prof *p);

#endif
