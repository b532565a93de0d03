/* ranks: many processes' py-spy dumps grouped by what their main thread (or another) is
 * doing: each process named by its rank, one row per group, the frame where a group parts
 * from the largest, a verdict naming the odd one out, a prefix tree and folded stacks. */
#ifndef SIFT_RANKS_H
#define SIFT_RANKS_H

#include <stddef.h>
#include <stdio.h>

#include "dump.h"
#include "err.h"
#include "rx.h"
#include "table.h"

struct ranks_opts {
	rx *thread;          /* group by the first thread whose `thread (TID): NAME` matches */
	int all_threads;     /* group by the whole set of a process's thread stacks */
	int no_lines;        /* NAME (FILE:LINE) -> NAME (FILE) before comparing */
	rx *rank_from;       /* a process's rank: group 1 (or the match) in its command line,
				label or file name, the first that matches */
};

typedef struct ranks ranks;

/* opts and errs must outlive the ranks. */
ranks *ranks_new(const struct ranks_opts *opts, struct err_lines *errs);
void ranks_free(ranks *r);
/* A dump_fn: ctx is the ranks. Threads of one process (its label, PID and the rank its
 * file name gives) and one snapshot are one observation of it. */
void ranks_thread(void *ctx, const struct dump_thread *thread);

/* After every dump: names, kinds and groups (by each process's last snapshot). */
void ranks_finish(ranks *r);
size_t ranks_processes(const ranks *r);
size_t ranks_groups(const ranks *r);
/* Some process was seen in more than one snapshot. */
int ranks_over_time(const ranks *r);

/* One row per group, the main kind's first, largest first: group, processes, pids, ranks,
 * files, state, leaf, diverges_at; with ranks_over_time also snapshots and moved. */
table *ranks_table(const ranks *r);
/* The verdict in words, a line each: who differs (or that all agree, or how they split),
 * the processes of other kinds, fragments, and over time who moved. */
int ranks_write_verdict(const ranks *r, FILE *out);
/* The merged prefix tree, each frame once with the ranks that reached it. */
int ranks_write_tree(const ranks *r, FILE *out);
/* Folded stacks under a root frame naming each group's ranks, counted once per process. */
int ranks_write_folded(const ranks *r, FILE *out);

#endif
