/* tsv: one sift TSV table read whole (a header, then rows of cells), so that a tool can tell
 * which table it is from the header before it uses any row. */
#ifndef SIFT_TSV_H
#define SIFT_TSV_H

#include "err.h"

#include <stddef.h>

/* A header and rows of cells, every row exactly as wide as the header. */
struct tsv {
	char **head;
	size_t ncols;
	char ***rows;
	size_t nrows, cap;
	const char *file;     /* of the header, for messages; NULL when there is no header */
};

/* Read the table in paths (files or "-", through input.h). A repeated header (files
 * concatenated) and blank lines are skipped, short rows padded with empty cells, long rows
 * and lines with a NUL byte are bad lines in errs. sift-gil's summary table (name value)
 * followed by a blank line and another table is replaced by that table. Returns non-zero
 * when some input could not be read. Free with tsv_free. */
int tsv_read(char **paths, size_t npaths, struct tsv *t, struct err_lines *errs);
void tsv_free(struct tsv *t);

/* The index of the header column called name, -1 when there is none. */
int tsv_col(const struct tsv *t, const char *name);
/* Non-zero when the header's columns from `at` on are the space-separated names of names;
 * "a|b" accepts either a or b. Columns after them are not looked at. */
int tsv_has_run(const struct tsv *t, size_t at, const char *names);
/* Non-zero when the table is a summary (exactly the columns name, value). */
int tsv_is_summary(const struct tsv *t);

#endif
