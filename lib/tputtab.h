/* tputtab: a table's header row names the columns of the rows of bare figures printed under
 * it (DomainBed's "env0_in_acc ... epoch  loss  step  step_time", then a row per checkpoint):
 * each row is read as its "name: figure" pairs, so the key reader names its columns. */
#ifndef SIFT_TPUTTAB_H
#define SIFT_TPUTTAB_H

#include <stddef.h>

enum { TPUTTAB_COLS_MIN = 3, TPUTTAB_COLS_MAX = 64, TPUTTAB_NAME_MAX = 48 };

/* The table open (cols > 0) and the last row written out. Zeroed is no table. */
struct tputtab {
	char *names;   /* the header's names, each ended by '\0' */
	size_t names_cap;
	size_t cols;   /* 0: no table open */
	char *row;     /* the last row as "name: figure" pairs, NUL-ended */
	size_t row_cap;
};

/* Is s[0, len) a table's header: TPUTTAB_COLS_MIN or more names (a letter or '_' first, no
 * blank inside) apart by blanks or '|', one of them a step's count (step, iter, epoch...)?
 * Then it opens the table. A step's column is what tells a training loop's table from a
 * benchmark's. */
int tputtab_header(struct tputtab *t, const char *s, size_t len);

/* Is s[keep, len) a row of the open table: as many bare figures as it has names? Then t->row
 * holds s[0, keep) (the line's prefix) and the row as "name: figure" pairs: its length;
 * else 0. */
size_t tputtab_row(struct tputtab *t, const char *s, size_t len, size_t keep);

/* No table open: the next row must follow a header again. */
static inline void tputtab_close(struct tputtab *t) { t->cols = 0; }

void tputtab_free(struct tputtab *t);

#endif
