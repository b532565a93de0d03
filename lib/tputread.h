/* tputread: training logs through a throughput extractor, large plain files on several
 * threads, with rows, points and bad lines coming out in file order as one thread gives
 * them. Apart from the tool because the records that carry a chunk's findings back from a
 * worker are a format of their own. */
#ifndef SIFT_TPUTREAD_H
#define SIFT_TPUTREAD_H

#include <stddef.h>
#include <stdio.h>

#include "err.h"
#include "series.h"
#include "tput.h"
#include "tputout.h"

struct tputread_opts {
	int unit;          /* keep one unit; -1: every unit */
	long rank;         /* keep one rank; -1: every rank */
	unsigned jobs;     /* threads; 0: one per processor (up to 8) for large plain files */
	int in_order;      /* one thread always: messages and exits in line order (--strict, -v,
			    * --explain, --take) */
	int explain;       /* keep each candidate's figures: its median */
	char **take;       /* --take: candidates to take, by number or key */
	size_t ntake;
};

struct tputread_file;

struct tputread {
	const struct tputread_opts *o;
	tput_ex *ex;               /* cloned for each worker thread */
	struct err_lines *errs;    /* bad lines; skipped ones (no rule matched) too */
	struct series_set *set;    /* points go here; NULL: rows (tputout_row) to out */
	FILE *out;
	unsigned long points, nans; /* kept so far (the header comes with the first row) */
	size_t inference_lines;     /* lines of worker threads' copies whose throughput was inference */
	struct tputout_cand *cands; /* every input's candidates, in input order, then by number */
	size_t ncands, cands_cap;
	size_t takes_used;          /* --take's requests that took something: a bit each (first 64) */
	struct tputread_file *file; /* the input being read: its candidates and figures */
	const char *looks_like;     /* the first input whose first lines are no log's: what they
				     * look like ("folded stacks (a py-spy raw profile): ..."), else NULL */
	const char *looks_path;     /* that input's name */
};

/* The candidates and their sources freed. */
void tputread_free(struct tputread *r);

/* Lines read so far whose throughput was inference, not training (all threads). */
size_t tputread_inference_lines(const struct tputread *r);

/* Read paths (none: standard input) into r's set or out: each input's figures held until it
 * ends, then those of the candidates taken given (tputcand_decide, --take), in line order. Returns non-zero when a file
 * could not be read (already reported). */
int tputread_logs(struct tputread *r, char **paths, size_t npaths);

#endif
