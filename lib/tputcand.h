/* tputcand: the series stage's last word on a log: its figures as candidate series, one per
 * template, unit and reason to leave out; which are the training series; why the others
 * are not (a summary printed once after the last step, an evaluation, a copy). */
#ifndef SIFT_TPUTCAND_H
#define SIFT_TPUTCAND_H

#include <stddef.h>
#include <stdint.h>

#include "tputunit.h"

/* The reason a progress bar's closing frame (N/N) is left out: its figure is the bar's
 * average over the run. tputcand_decide takes such frames when they are all a unit has. */
extern const char tputcand_closing[];
/* The reason a loose time (a "time" beside a step and a loss, its share of the step not said)
 * is held: tputcand_decide takes such a column when its unit has no other series and its
 * readings do not rise like a clock's. */
extern const char tputcand_loose[];

struct tputcand {
	uint64_t tmpl;
	enum tput_unit unit;
	const char *left;          /* the reader's reason to leave its figures out; NULL: none */
	unsigned long first_line, last_line;
	size_t n, lines;           /* figures, and the distinct lines they came from */
	size_t nranks;             /* distinct ranks (unknown counts as one) */
	long long last_step;       /* the step of the last figure (-1: none) */
	size_t rises;              /* figures whose step is past the one before */
	double last_value;
	double min, max;           /* the least and the greatest figure */
	size_t changes;            /* figures other than the one before */
	size_t value_rises;        /* figures above the one before (a clock's readings rise) */
	size_t losses;             /* figures with a loss beside them */
	double last_loss;
	size_t loss_changes;       /* figures whose loss is another than the one before's */
	size_t bars;               /* figures that are a progress bar's rate */
	double total;              /* their bar's total (a candidate a total); 0: none said */
	unsigned long sure_line;   /* the line that made it longer than a summary may be */
	uint64_t rank_bits[4];     /* which ranks: (rank + 1) mod 256 */
	double *values;            /* the figures, when kept (--explain's median) */
	size_t cap;
	int number;                /* 1.. in order of first line: --explain's and --take's */
	int taken;
	int sure;                  /* tputcand_sure: 1 taken whatever comes, -1 out, 0 open */
	size_t beside;             /* printed beside this candidate (index + 1), settled once both
				    * are long (tputcand_sure); 0: not, or not settled */
	int apart;                 /* settled: printed beside no other */
	char why[128];             /* why it is not taken; why it is when --take took it */
};

/* A log's candidates; sized from what it holds. */
struct tputcand_set {
	struct tputcand *c;
	size_t n, cap;
	struct intern *keys;       /* template, unit and reason interned: an id is an index of c */
	int keep_values;
	size_t hint[TPUT_NUNITS];  /* the candidate added to last in each unit, + 1 */
};
void tputcand_set_free(struct tputcand_set *set);
/* pt's candidate (left: the reader's reason, NULL when it read pt as training), pt counted
 * in it: its index. */
size_t tputcand_add(struct tputcand_set *set, const struct tput_point *pt, const char *left, unsigned long lineno);
/* Which candidates are the training series: numbered in order of first line; of two series
 * of a unit printed side by side (as many lines over the same stretch), the first; one the
 * reader left out stays out, but for bars' closing frames on two lines or more when nothing
 * else of their unit is taken (bars drawn only when done: a round's figure each; when some
 * of those bars show a loss, theirs only: the others are evaluation's); one printed once (once per rank, or in one burst) after the
 * last line of a series that repeats is a summary, out. The rest are taken. */
void tputcand_decide(struct tputcand_set *set);
/* What is already sure of each candidate, whatever lines come after (its sure): one the
 * reader left out stays out, closing frames too once their unit has a series for sure; one
 * read as training, with no series of its unit begun before it in another template, is
 * taken for sure once it has more lines than a summary may (512: twice the ranks counted),
 * or once such a series has a line at or after its first. What tputcand_decide says later
 * agrees. */
void tputcand_sure(struct tputcand_set *set);
/* Take candidate i all the same (--take): its why says so. */
void tputcand_take(struct tputcand_set *set, size_t i);
/* The median of candidate i's kept values; NaN when none are kept. */
double tputcand_median(const struct tputcand *c);

#endif
