/* tsv: one sift TSV table read whole, for tools that recognise a table by its header. */
#include "tsv.h"

#include "input.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

int tsv_col(const struct tsv *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->head[i], name) == 0)
			return (int)i;
	return -1;
}

/* Non-zero when word is one of the '|'-separated names in alts. */
static int one_of(const char *word, const char *alts, size_t alts_len)
{
	size_t n = strlen(word);
	for (const char *p = alts, *end = alts + alts_len; p <= end;) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		size_t len = bar ? (size_t)(bar - p) : (size_t)(end - p);
		if (len == n && memcmp(p, word, n) == 0)
			return 1;
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

int tsv_has_run(const struct tsv *t, size_t at, const char *names)
{
	for (const char *p = names; *p; at++) {
		size_t len = strcspn(p, " ");
		if (at >= t->ncols || !one_of(t->head[at], p, len))
			return 0;
		p += len;
		p += *p == ' ';
	}
	return 1;
}

int tsv_is_summary(const struct tsv *t)
{
	return t->ncols == 2 && tsv_has_run(t, 0, "name value");
}

static void split_tabs(const char *text, char ***cells, size_t *n)
{
	size_t cap = 0;
	*n = 0;
	*cells = NULL;
	for (const char *p = text;;) {
		const char *tab = strchr(p, '\t');
		*cells = xgrow(*cells, &cap, *n + 1, sizeof **cells);
		(*cells)[(*n)++] = xstrndup(p, tab ? (size_t)(tab - p) : strlen(p));
		if (!tab)
			break;
		p = tab + 1;
	}
}

static void free_cells(char **cells, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(cells[i]);
	free(cells);
}

/* Header and rows go; the row array is kept for the next table. */
static void drop_table(struct tsv *t)
{
	free_cells(t->head, t->ncols);
	for (size_t r = 0; r < t->nrows; r++)
		free_cells(t->rows[r], t->ncols);
	t->head = NULL;
	t->ncols = 0;
	t->nrows = 0;
}

void tsv_free(struct tsv *t)
{
	drop_table(t);
	free(t->rows);
	t->rows = NULL;
	t->cap = 0;
}

int tsv_read(char **paths, size_t npaths, struct tsv *t, struct err_lines *errs)
{
	in_reader *in = in_open(paths, npaths);
	struct in_line line;
	int blank = 0;
	memset(t, 0, sizeof *t);
	while (in_next(in, &line)) {
		if (memchr(line.text, '\0', line.len)) {
			err_bad_line(errs, line.file, line.lineno, "NUL byte in line");
			continue;
		}
		char **cells;
		size_t n;
		split_tabs(line.text, &cells, &n);
		/* sift-gil's default output: a summary, a blank line, then the keys table. */
		if (t->head && blank && tsv_is_summary(t) && !(n == 1 && cells[0][0] == '\0'))
			drop_table(t);
		if (!t->head) {
			t->head = cells;
			t->ncols = n;
			t->file = line.file;
			continue;
		}
		blank = n == 1 && cells[0][0] == '\0';
		int same = n == t->ncols;
		for (size_t i = 0; same && i < n; i++)
			same = strcmp(cells[i], t->head[i]) == 0;
		if (same || blank) {
			free_cells(cells, n);
			continue;
		}
		if (n > t->ncols) {
			err_bad_line(errs, line.file, line.lineno, "%zu cells, the header has %zu", n, t->ncols);
			free_cells(cells, n);
			continue;
		}
		/* Short rows are padded: sift-tput's loss column is optional. */
		cells = xrealloc(cells, t->ncols * sizeof *cells);
		for (; n < t->ncols; n++)
			cells[n] = xstrndup("", 0);
		t->rows = xgrow(t->rows, &t->cap, t->nrows + 1, sizeof *t->rows);
		t->rows[t->nrows++] = cells;
	}
	int status = in_failed(in);
	in_close(in);
	return status;
}
