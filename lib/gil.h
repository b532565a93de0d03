/* gil: how much of the CPU burn holds the GIL (utilization, mean active threads, GIL share),
 * from an all-threads and a py-spy --gil profile summed by key, or from dump thread statuses. */
#ifndef SIFT_GIL_H
#define SIFT_GIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "dump.h"
#include "err.h"
#include "load.h"
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

/* The keys table's columns after its key columns (and "process" before them with several
 * processes): its schema, which sift-plot (chart.c) recognises it by. */
enum gil_key_col { GIL_COL_TOTAL, GIL_COL_GIL, GIL_COL_TOTAL_PER_S, GIL_COL_GIL_PER_S,
		   GIL_COL_SHARE_PCT, GIL_COL_FLAG, GIL_KEY_NCOLS };
extern const char *const gil_key_columns[GIL_KEY_NCOLS];
/* --dumps' keys table: the columns after its thread column. */
enum gil_dumps_col { GIL_DUMPS_SEEN, GIL_DUMPS_ACTIVE, GIL_DUMPS_GIL, GIL_DUMPS_ACTIVE_PCT,
		     GIL_DUMPS_GIL_PCT, GIL_DUMPS_NCOLS };
extern const char *const gil_dumps_columns[GIL_DUMPS_NCOLS];

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

/* The GIL is per interpreter, that is per process: py-spy record --subprocesses writes
 * `process PID:"CMDLINE"` pseudo-frames, parents first, so a stack belongs to its innermost
 * one (stacks without one to "(no process)"). A recording is split by process as it is read. */
struct gil_proc {
	char *name;               /* "PID: CMDLINE", or "(no process)" */
	char *key;                /* as --by process writes it: the pseudo-frame, or "(no process)" */
	unsigned long long pid;   /* ULLONG_MAX without one: sorts last */
	agg *sum;                 /* by the table's keys, closed after reading */
	uint64_t samples;
	size_t idle_threads;      /* threads when they look recorded with --idle (sum_looks_idle) */
	uint64_t idle_min, idle_max;
};
typedef struct gil_split gil_split;
gil_split *gil_split_new(const struct agg_spec *keys);
void gil_split_free(gil_split *s);
/* Read files (none: stdin) as load_files would. Returns its status. */
int gil_split_read(gil_split *s, char *const *files, size_t nfiles, const struct load_opts *opts,
		   struct err_lines *errs);
const struct load_stats *gil_split_stats(const gil_split *s);
/* Give both recordings the same processes in order of PID (empty sums where one has none;
 * one "(no process)" when neither has any), only process pid when not NULL. Returns how
 * many, 0 when pid is in neither. */
size_t gil_split_align(gil_split *total, gil_split *gil, const char *pid);
const struct gil_proc *gil_split_proc(const gil_split *s, size_t i);
/* Process i's sides: its sums and samples, seconds and rate from the given sides. */
void gil_split_sides(const gil_split *total, const gil_split *gil, size_t i,
		     const struct gil_side *ts, const struct gil_side *gs,
		     struct gil_side *pt, struct gil_side *pg);
/* Timed: -1, with why in msg, when a process's GIL samples pass what seconds x rate allow
 * (one thread holds a GIL at a time), naming the process when there are several; else 0. */
int gil_split_check_rate(const gil_split *gil, const struct gil_side *gs, char *msg, size_t cap);
/* On stderr, once: a process of the all-threads recording whose threads all have the same
 * samples was recorded with --idle (sum_looks_idle). Profiles only. */
void gil_split_note_idle(const gil_split *total, const char *what);
/* Several processes: one summary row per process (process, total_samples, gil_samples, then
 * mean_active_threads, gil_utilization_pct and gil_share_of_active_pct when timed, else
 * gil_to_total_ratio_pct), and the keys table with a process column first (none when a key
 * is process; a process key keeps only each process's own row). */
table *gil_procs_summary(const gil_split *total, const gil_split *gil, const struct gil_side *ts,
			 const struct gil_side *gs);
table *gil_procs_keys(const gil_split *total, const gil_split *gil, const struct gil_side *ts,
		      const struct gil_side *gs, const struct agg_spec *keys, unsigned long long limit);
/* The text of a process pseudo-frame for a process column: "PID: CMDLINE", or "PID". */
char *gil_proc_name(const char *frame, size_t len);

/* py-spy dumps: every thread of every snapshot, tallied per thread ("PID TID") and per
 * process: a thread's shares are of its own process's snapshots. */
typedef struct gil_dumps gil_dumps;
gil_dumps *gil_dumps_new(void);
void gil_dumps_free(gil_dumps *d);
/* A dump_fn: ctx is the gil_dumps. */
void gil_dumps_thread(void *ctx, const struct dump_thread *t);
/* Keep only the threads of process pid (decimal text); NULL keeps all. Before any thread. */
void gil_dumps_keep_pid(gil_dumps *d, const char *pid);
/* Processes seen (threads without a process header are one), and snapshots of process i. */
size_t gil_dumps_processes(const gil_dumps *d);
uint64_t gil_dumps_process_snapshots(const gil_dumps *d, size_t i);
size_t gil_dumps_summary(const gil_dumps *d, uint64_t snapshots, struct gil_figure *out);
/* Several processes: process, snapshots, snapshots_with_gil, mean_active_threads,
 * gil_utilization_pct, gil_share_of_active_pct, one row per process by PID. */
table *gil_dumps_procs_summary(const gil_dumps *d);
/* thread, seen, active, gil, active_pct, gil_pct: most GIL first, then most active. With
 * several processes a process column comes first and the shares are of each thread's own
 * process's snapshots; else of snapshots. */
table *gil_dumps_table(gil_dumps *d, uint64_t snapshots, unsigned long long limit);

/* Which parts a report has: JSON nests both in one object, the line formats separate them
 * by a blank line. */
enum gil_part { GIL_BOTH, GIL_SUMMARY, GIL_KEYS };
extern const char *const gil_part_names[];  /* "both", "summary", "keys" */
/* Write the report: figures unless keys only, keys (with flags) unless summary only. */
void gil_write(FILE *out, enum table_format format, enum gil_part part,
	       const struct gil_figure *figures, size_t nfigures, const table *keys, unsigned flags);
/* The same with a summary table (one row per process, its first column last in text). */
void gil_write_table(FILE *out, enum table_format format, enum gil_part part,
		     const table *summary, const table *keys, unsigned flags);

#endif
