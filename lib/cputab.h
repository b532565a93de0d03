/* cputab: per-thread CPU from `top -H -b`, `ps -eLo`/`ps -L` (with or without header) or `pidstat -t`. */
#ifndef SIFT_CPUTAB_H
#define SIFT_CPUTAB_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "input.h"

/* One OS thread over every row the input had for it. */
struct cpu_thread {
	uint64_t tid;
	uint64_t pid;           /* 0 when the table does not say (top -H) */
	char *name;             /* OS thread name as written (may be truncated, "pt_nccl+") */
	unsigned long samples;  /* rows seen: top iterations, pidstat intervals */
	double sum, max;        /* %CPU: mean is sum / samples */
};

enum cpu_source { CPU_UNKNOWN, CPU_TOP, CPU_PS, CPU_PIDSTAT };
extern const char *const cpu_source_names[];  /* "unknown", "top", "ps", "pidstat" */

typedef struct cpu_table cpu_table;

cpu_table *cpu_new(struct err_lines *errs);
void cpu_free(cpu_table *t);
/* Feed one line; the kind of table is recognised from its header (or, for ps without a
 * header, from "PID TID %CPU COMMAND" rows). Summary and noise lines are skipped. */
void cpu_line(cpu_table *t, const struct in_line *line);

/* Does a line alone look like a row of ps without a header (ps -eLo pid,tid,pcpu,comm,
 * ps -L, ps -eLf)? For saying what an input that is no profile looks like. */
int cpu_headerless(const char *text, size_t len);

enum cpu_source cpu_source(const cpu_table *t);
size_t cpu_count(const cpu_table *t);
/* Threads in the order first seen. */
const struct cpu_thread *cpu_at(const cpu_table *t, size_t i);
const struct cpu_thread *cpu_find(const cpu_table *t, uint64_t tid);

#endif
