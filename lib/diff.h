/* diff: what moved between two profiles per key: shares before and after, delta with its
 * interval, p and q values, ratio, NEW/GONE; --fail-if-grows gates on the interval;
 * difffolded `stack before after` lines. */
#ifndef SIFT_DIFF_H
#define SIFT_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "load.h"
#include "prof.h"
#include "table.h"

/* How two sums are compared. */
struct diff_base {
	enum frame_key keys[2];
	size_t nkeys;           /* 1 or 2, as the sums were made */
	int total;              /* compare total (inclusive) samples instead of self */
	double work[2];         /* units of work before and after; 0: shares of all samples */
	uint64_t samples[2];    /* all samples read before and after, for the shares */
	/* Replicates: each side's inputs (ranks, repeats) summed apart by the same keys, and
	 * the samples read from each. With at least 2 on both sides each input's share is a
	 * replicate (a t test gives p and interval); else the counts are compared. */
	const agg *const *inputs[2];
	size_t ninputs[2];
	const uint64_t *input_samples[2];
	/* Paired inputs (equal counts): before input i goes with after input pair[i]; NULL
	 * compares the sides as independent samples. */
	const size_t *pair;
	double min_share;       /* rows tested: share of samples (%) at least this on either side */
	int time_blocks;        /* the inputs are blocks of time of one input a side */
	int sort_delta;         /* sort by the size of the change only, significant or not */
};

/* One key of either profile: its samples before and after. */
struct diff_row {
	struct agg_join_row key;  /* the key's rows in the before and after sums */
	uint64_t count[2];
	double share[2];          /* percent of the profile's samples, or per 1,000 units of work */
	double delta;             /* share after - share before */
	double ci_low, ci_high;   /* 95% interval of the delta, in the same units */
	double p, q;              /* p-value (interval and p from one statistic); Benjamini-Hochberg
				   * q-value across the tested rows, NaN for the others */
	int tested;               /* share >= min_share on either side: takes part in q */
	int significant;          /* tested and q < DIFF_ALPHA */
	/* With at least 2 inputs on both sides: the least, median and most share of the key
	 * in one input of each side, in percent (so the input that moved stands out). */
	double spread[2][3];
};

#define DIFF_ALPHA 0.05
#define DIFF_MIN_SHARE 0.5  /* percent: --min-share's default */

typedef struct diff diff;

/* Join before and after (sums by base->keys): keys with samples on either side, the
 * significant ones first (unless base->sort_delta), then by the size of the change, then by
 * samples on both sides, then by key text. The sums must outlive the diff. */
diff *diff_new(const agg *before, const agg *after, const struct diff_base *base);
void diff_free(diff *d);
size_t diff_row_count(const diff *d);
/* Rows with q < DIFF_ALPHA. */
size_t diff_significant_count(const diff *d);
/* Rows tested (share >= min_share on either side), the count q is corrected for. */
size_t diff_tested_count(const diff *d);
/* Non-zero when inputs were compared pair by pair. */
int diff_paired(const diff *d);
/* The test in a word for scripts: "paired-t", "welch-t", "welch-t-time-blocks" or
 * "counts-sampling-noise-only". */
const char *diff_test_name(const diff *d);
/* Non-zero when rows have a spread over inputs (at least 2 per side). */
int diff_has_spread(const diff *d);
/* How p-values were found, in words: "paired t test over inputs", "Welch t test over
 * inputs", or "two-proportion test of counts: sampling noise only" (two-rate per work). */
const char *diff_method(const diff *d);
const struct diff_row *diff_rows(const diff *d);
/* Key k (0, or 1 for pairs) of a row. */
const char *diff_key(const diff *d, const struct diff_row *row, size_t k, size_t *len);

/* diff_table's columns after the key columns, in order: its schema, which sift-plot
 * (chart.c) recognises the table by. DIFF_COL_TEST is there with DIFF_TABLE_TEST only, the
 * spread (DIFF_COL_BEFORE_MIN on) only with many inputs a side. */
enum diff_col {
	DIFF_COL_BEFORE, DIFF_COL_AFTER, DIFF_COL_BEFORE_SHARE, DIFF_COL_AFTER_SHARE, DIFF_COL_DELTA,
	DIFF_COL_RATIO, DIFF_COL_FLAG, DIFF_COL_CI_LOW, DIFF_COL_CI_HIGH, DIFF_COL_P, DIFF_COL_Q,
	DIFF_COL_SIG, DIFF_COL_TEST, DIFF_COL_BEFORE_MIN, DIFF_COL_BEFORE_MEDIAN, DIFF_COL_BEFORE_MAX,
	DIFF_COL_AFTER_MIN, DIFF_COL_AFTER_MEDIAN, DIFF_COL_AFTER_MAX, DIFF_NCOLS
};
extern const char *const diff_columns[DIFF_NCOLS];
/* The names with --total (the counts) or --per-work (shares and delta); NULL: as above. */
extern const char *const diff_columns_alt[DIFF_NCOLS];

/* The table: key columns, before, after, the two shares (or rates per work), delta, ratio,
 * flag (NEW, GONE), delta_ci_low, delta_ci_high, p_value, q_value, sig ("*" when
 * significant), test (with DIFF_TABLE_TEST: paired-t, welch-t or counts-sampling-noise-only),
 * and with at least 2 inputs per side before_min, before_median, before_max,
 * after_min, after_median, after_max (shares of one input, percent); limit 0 keeps every row. */
enum { DIFF_TABLE_TEST = 1 };
table *diff_table(const diff *d, unsigned long long limit, unsigned flags);

/* A CI gate: fail when the low end of KEY's delta interval is above points (the growth is
 * beyond noise). A pair is FIRST,SECOND. */
struct diff_gate {
	const char *key;
	size_t key_len;
	double points;
};
/* The row of the gate's key, shown or not; NULL for a key in neither profile. */
const struct diff_row *diff_gate_row(const diff *d, const struct diff_gate *gate);
/* The delta of the gate's key, shown or not; 0 for a key in neither profile. */
double diff_gate_delta(const diff *d, const struct diff_gate *gate);
/* The first gate whose key is in neither profile (a gate that could never fail), or NULL. */
const struct diff_gate *diff_gate_unknown(const diff *d, const struct diff_gate *gates, size_t ngates);
/* Warn for every gate passed ("KEY grew by D points (95% interval L to H; limit P)"); 1
 * when any was, else 0. */
int diff_check_gates(const diff *d, const struct diff_gate *gates, size_t ngates);
/* The same for every significant row (q < DIFF_ALPHA: the gate looks at every key, so it
 * takes the correction for many keys) whose interval's low end is above points (NAN: no
 * gate), in table order; 1 when any was, else 0. */
int diff_check_any(const diff *d, double points);

/* difffolded: "stack before after" for every stack of either profile, sorted by text. */
void diff_write_folded(const prof *before, const prof *after, FILE *out);

/* Is each input a replicate? With two or more inputs per side, and no key source (by which
 * each input is a key of its own), each input's share is a sample of the side's. */
int diff_replicates_apply(const size_t nfiles[2], const struct agg_spec *keys);
/* How two sides' inputs pair: by --label names when every input has one and the names
 * match one to one, else by file names once each side's common prefix and suffix are
 * cut (before/rank3.txt with after/rank3.txt, a-tp3.txt with b-tp3.txt). Fills pair
 * (room for n) and returns "label" or "file name"; NULL when the sides do not pair
 * (different counts, names that do not match, fewer than 2). labels: NAME=FILE. */
const char *diff_pair_inputs(char **const files[2], const size_t nfiles[2], char *const *labels,
			     size_t nlabels, size_t *pair);
/* Point base at each side's per-input sums, inputs[s][i] with samples[s][i]. */
void diff_base_replicates(struct diff_base *base, agg **const inputs[2], uint64_t *const samples[2],
			  const size_t nfiles[2]);

#endif
