/* toptab: sift-top's table of a profile summed by key: one column per key, then self and
 * total samples with their percentages and the running sum of the sort column. */
#ifndef SIFT_TOPTAB_H
#define SIFT_TOPTAB_H

#include <stddef.h>
#include <stdint.h>

#include "agg.h"
#include "table.h"

/* The columns after the key columns (frame_key_names name those): its schema, which
 * sift-plot (chart.c) recognises the table by. */
enum toptab_col { TOPTAB_SELF, TOPTAB_SELF_PCT, TOPTAB_TOTAL, TOPTAB_TOTAL_PCT, TOPTAB_CUM_PCT,
		  TOPTAB_NCOLS };
extern const char *const toptab_columns[TOPTAB_NCOLS];

/* The rows of a (sorted) sum: the first limit (0: all) and percentages of all samples; with
 * a pair of keys of which one is the window, each window's rows are a table of their own
 * (limit and percentages per window). */
table *toptab_table(const agg *a, const struct agg_spec *keys, enum agg_order order,
		    unsigned long long limit, uint64_t all);

#endif
