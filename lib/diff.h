/* diff: what moved between two profiles per key: shares before and after, delta, ratio,
 * NEW/GONE; --fail-if-grows gates; difffolded `stack before after` lines. */
#ifndef SIFT_DIFF_H
#define SIFT_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "prof.h"
#include "table.h"

/* How two sums are compared. */
struct diff_base {
	enum frame_key keys[2];
	size_t nkeys;           /* 1 or 2, as the sums were made */
	int total;              /* compare total (inclusive) samples instead of self */
	double work[2];         /* units of work before and after; 0: shares of all samples */
	uint64_t samples[2];    /* all samples read before and after, for the shares */
};

/* One key of either profile: its samples before and after. */
struct diff_row {
	struct agg_join_row key;  /* the key's rows in the before and after sums */
	uint64_t count[2];
	double share[2];          /* percent of the profile's samples, or per 1,000 units of work */
	double delta;             /* share after - share before */
};

typedef struct diff diff;

/* Join before and after (sums by base->keys): keys with samples on either side, by the
 * size of the change, then by samples on both sides, then by key text. The sums must
 * outlive the diff. */
diff *diff_new(const agg *before, const agg *after, const struct diff_base *base);
void diff_free(diff *d);
size_t diff_row_count(const diff *d);
const struct diff_row *diff_rows(const diff *d);
/* Key k (0, or 1 for pairs) of a row. */
const char *diff_key(const diff *d, const struct diff_row *row, size_t k, size_t *len);

/* The table: key columns, before, after, the two shares (or rates per work), delta, ratio,
 * flag (NEW, GONE); limit 0 keeps every row. */
table *diff_table(const diff *d, unsigned long long limit);

/* A CI gate: fail when KEY's share grows by more than points. A pair is FIRST,SECOND. */
struct diff_gate {
	const char *key;
	size_t key_len;
	double points;
};
/* The delta of the gate's key, shown or not; 0 for a key in neither profile. */
double diff_gate_delta(const diff *d, const struct diff_gate *gate);
/* The first gate whose key is in neither profile (a gate that could never fail), or NULL. */
const struct diff_gate *diff_gate_unknown(const diff *d, const struct diff_gate *gates, size_t ngates);
/* Warn for every gate passed ("KEY grew by D points (limit P)"); 1 when any was, else 0. */
int diff_check_gates(const diff *d, const struct diff_gate *gates, size_t ngates);

/* difffolded: "stack before after" for every stack of either profile, sorted by text. */
void diff_write_folded(const prof *before, const prof *after, FILE *out);

#endif
