/* gil: how much of the CPU burn holds the GIL (utilization, mean active threads, GIL share),
 * from an all-threads and a py-spy --gil profile summed by key, or from dump thread statuses. */
#ifndef SIFT_GIL_H
#define SIFT_GIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "dump.h"
#include "table.h"

/* One recording: its sum by key, samples kept, and length and rate when known. */
struct gil_side {
	const agg *sum;
	uint64_t samples;
	double seconds;     /* 0: not given (both sides are timed, or neither) */
	double rate;        /* Hz */
};

/* Samples per second of wall time (the mean number of threads sampled), NaN when untimed. */
double gil_per_wall_second(uint64_t samples, const struct gil_side *side);

/* A named summary figure. A count prints exactly (a double rounds past 2^53); text is a
 * note; a NaN value is left out. */
struct gil_figure {
	const char *name;
	double value;
	int decimals;
	const char *text;
	int is_count;
	uint64_t count;
};
enum { GIL_FIGURES_MAX = 11 };

/* The summary of two profiles; rate_assumed: the 100 Hz default was put in. Returns the
 * number of figures written to out. */
size_t gil_summary(const struct gil_side *total, const struct gil_side *gil, int rate_assumed,
		   struct gil_figure *out);

/* One key of either profile: inclusive samples on each side; share in percent of the
 * total side (per second of wall time when timed), infinite when only GIL has the key. */
struct gil_row {
	struct agg_join_row join;
	uint64_t total, gil;
	double share;
};
/* The keys of both sums joined, most GIL first, then most total. *rows is the caller's. */
size_t gil_rows(const struct gil_side *total, const struct gil_side *gil, struct gil_row **rows);
/* The keys table: key columns, total, gil, total_per_s, gil_per_s, gil_share_pct, flag
 * (GIL-ONLY, OVER-100); limit 0 keeps every row. */
table *gil_keys_table(const struct gil_side *total, const struct gil_side *gil,
		      const struct agg_spec *keys, unsigned long long limit);

/* py-spy dumps: every thread of every snapshot, tallied per thread ("PID TID"). */
typedef struct gil_dumps gil_dumps;
gil_dumps *gil_dumps_new(void);
void gil_dumps_free(gil_dumps *d);
/* A dump_fn: ctx is the gil_dumps. */
void gil_dumps_thread(void *ctx, const struct dump_thread *t);
size_t gil_dumps_summary(const gil_dumps *d, uint64_t snapshots, struct gil_figure *out);
/* thread, seen, active, gil, active_pct, gil_pct: most GIL first, then most active. */
table *gil_dumps_table(gil_dumps *d, uint64_t snapshots, unsigned long long limit);

/* Which parts a report has: JSON nests both in one object, the line formats separate them
 * by a blank line. */
enum gil_part { GIL_BOTH, GIL_SUMMARY, GIL_KEYS };
extern const char *const gil_part_names[];  /* "both", "summary", "keys" */
/* Write the report: figures unless keys only, keys (with flags) unless summary only. */
void gil_write(FILE *out, enum table_format format, enum gil_part part,
	       const struct gil_figure *figures, size_t nfigures, const table *keys, unsigned flags);

#endif
