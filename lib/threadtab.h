/* threadtab: one row per thread of py-spy dump snapshots (seen, active, idle, GIL, most
 * frequent leaf, hand-off and category), joined by thread id with per-thread CPU. */
#ifndef SIFT_THREADTAB_H
#define SIFT_THREADTAB_H

#include <stddef.h>

#include "cputab.h"
#include "dump.h"
#include "rules.h"
#include "table.h"

typedef struct threadtab threadtab;

/* Categories come from r (not owned; must outlive the threadtab). */
threadtab *threadtab_new(rules *r);
void threadtab_free(threadtab *t);
/* A dump_fn: ctx is the threadtab. Threads are one per thread id across snapshots. */
void threadtab_thread(void *ctx, const struct dump_thread *thread);
/* Threads so far: dumped, and after threadtab_join_cpu those only the CPU table has. */
size_t threadtab_count(const threadtab *t);

/* Join by thread id; then add the threads with CPU that no dump saw, when they belong to
 * a dumped process (or the table names no process, or nothing was dumped). Call once,
 * after every dump; cpu must outlive the threadtab. Returns the number of threads dumped. */
size_t threadtab_join_cpu(threadtab *t, const cpu_table *cpu);

/* threadtab_table's columns: its schema, which sift-plot (chart.c) recognises it by. */
enum threadtab_col { THREADTAB_PID, THREADTAB_TID, THREADTAB_THREAD, THREADTAB_OS_THREAD,
		     THREADTAB_SEEN, THREADTAB_ACTIVE, THREADTAB_IDLE, THREADTAB_GIL, THREADTAB_CPU_MEAN,
		     THREADTAB_CPU_MAX, THREADTAB_LEAF, THREADTAB_HANDOFF, THREADTAB_CATEGORY,
		     THREADTAB_NCOLS };
extern const char *const threadtab_columns[THREADTAB_NCOLS];

/* The table, one row per thread, by mean CPU, then active and seen snapshots, then thread
 * id: pid, tid, thread, os_thread, seen, active, idle, gil, cpu_mean, cpu_max, leaf,
 * handoff, category. Leaf, hand-off and category are the most frequent over the thread's
 * active snapshots when it had any (ties: the first seen). The rows stay in that order:
 * call it after every dump and the CPU join. text 0: every column, every text whole (TSV,
 * JSON...); THREADTAB_TEXT_WIDE: the same, for --format text --wide; else the table for
 * people, to fit a terminal: no os_thread, idle or cpu_max column, a thread without a Python
 * name named by its OS thread's, the name shortened to THREADTAB_TEXT_NAME characters,
 * leaf and hand-off to THREADTAB_TEXT_FRAME (frame_shorten: the file without its
 * directories, the function kept), of the hand-off only its Python frame, and a hand-off
 * that is the leaf shown as "=". */
table *threadtab_table(threadtab *t, int text);
enum { THREADTAB_TEXT_FRAME = 25, THREADTAB_TEXT_NAME = 20, THREADTAB_TEXT_WIDE = 2 };

#endif
