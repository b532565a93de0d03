/* tputout: what sift-tput writes: a series row per point (formatted on reader threads,
 * so mostly without printf), the stats and comparison tables, the preset list. Kept out
 * of the tool so the exact spelling of every figure is tested in one place. */
#ifndef SIFT_TPUTOUT_H
#define SIFT_TPUTOUT_H

#include <stddef.h>
#include <stdio.h>

#include "series.h"
#include "table.h"
#include "tput.h"
#include "tputcand.h"
#include "tputtmpl.h"

/* The tables' schemas, which sift-plot (chart.c) recognises them by: the series (its header
 * TPUTOUT_HEADER), --stats, --compare's comparison. */
enum tputout_series_col { TPUTOUT_SOURCE, TPUTOUT_LINE, TPUTOUT_RANK, TPUTOUT_STEP, TPUTOUT_TIME, TPUTOUT_VALUE,
			  TPUTOUT_UNIT, TPUTOUT_LOSS, TPUTOUT_SERIES_NCOLS };
extern const char *const tputout_series_columns[TPUTOUT_SERIES_NCOLS];
#define TPUTOUT_HEADER "source\tline\trank\tstep\ttime\tvalue\tunit\tloss\n"
enum tputout_stats_col { TPUTOUT_ST_SOURCE, TPUTOUT_ST_UNIT, TPUTOUT_ST_N, TPUTOUT_ST_WARMUP, TPUTOUT_ST_DUP,
			 TPUTOUT_ST_NAN, TPUTOUT_ST_MEAN, TPUTOUT_ST_MEDIAN, TPUTOUT_ST_P5, TPUTOUT_ST_P95,
			 TPUTOUT_ST_STDDEV, TPUTOUT_ST_CV_PCT, TPUTOUT_ST_MIN, TPUTOUT_ST_MAX, TPUTOUT_STATS_NCOLS };
extern const char *const tputout_stats_columns[TPUTOUT_STATS_NCOLS];
enum tputout_cmp_col { TPUTOUT_CMP_UNIT, TPUTOUT_CMP_BEFORE_N, TPUTOUT_CMP_AFTER_N, TPUTOUT_CMP_BEFORE_MEDIAN,
		       TPUTOUT_CMP_AFTER_MEDIAN, TPUTOUT_CMP_BEFORE_CV_PCT, TPUTOUT_CMP_AFTER_CV_PCT,
		       TPUTOUT_CMP_BEFORE_BATCHES, TPUTOUT_CMP_AFTER_BATCHES, TPUTOUT_CMP_SPEEDUP, TPUTOUT_CMP_CI_LOW,
		       TPUTOUT_CMP_CI_HIGH, TPUTOUT_CMP_P_VALUE, TPUTOUT_CMP_VERDICT, TPUTOUT_CMP_NCOLS };
extern const char *const tputout_compare_columns[TPUTOUT_CMP_NCOLS];
/* The longest row is under 400 bytes (%.6f of the largest double). */
enum { TPUTOUT_ROW_MAX = 512 };

/* A row but for its source and line, "\trank\tstep\ttime\tvalue\tunit\tloss\n", into buf
 * (TPUTOUT_ROW_MAX bytes); returns its length. Unknown fields stay empty; values are
 * spelled as %.10g, times as %.6f without trailing zeros. */
size_t tputout_row(char *buf, const struct tput_point *pt);

/* The same row, its rank, step and time (and loss) copied from the row before when they are
 * the same: the rows of one line share them. The cache starts zeroed. */
struct tputout_cache {
	int have;
	long rank;
	long long step;
	double time, loss;
	unsigned char head_len, loss_len;  /* loss_len 0: loss not kept */
	char head[96], loss_text[40];
};
size_t tputout_row_cached(struct tputout_cache *c, char *buf, const struct tput_point *pt);

/* A candidate series of one input, as --explain shows it. */
struct tputout_cand {
	char *source;
	struct tputcand c;         /* its figures not kept */
	double median;             /* NaN unless --explain */
	char key[TPUTTMPL_KEY_MAX];
	char example[TPUTTMPL_EXAMPLE_MAX + 4];  /* empty when the reader ran on several threads */
};
/* --explain: one row per candidate (source, template, lines, first_line, key, unit, n,
 * median, taken, reason, example); text adds a line per source and the examples below. */
void tputout_explain(FILE *out, const struct tputout_cand *c, size_t n, enum table_format format);
/* The message when nothing was taken: up to three candidates, most figures first, with
 * what was left out of them, into buf. */
void tputout_best_cands(char *buf, size_t cap, const struct tputout_cand *c, size_t n);

/* The presets, with an example line each. */
void tputout_presets(FILE *out, enum table_format format);
/* One row per series; text adds the warm-up and the bad line count above the table. */
void tputout_stats(FILE *out, const struct series_set *set, const struct series_keep *how,
		   enum table_format format, unsigned long bad);
/* The compared units (SERIES_BOTH) of c[0..n): text writes both sides' stats, the
 * comparison table and a verdict line per unit; other formats the comparison table only. */
void tputout_compare(FILE *out, const struct series_unit_cmp *c, size_t n, const struct series_keep *how,
		     enum table_format format, unsigned long bad);

#endif
