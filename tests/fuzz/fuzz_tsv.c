/* fuzz_tsv: the TSV that sift-plot reads (tsv.c), whole, once alone and once twice over (a
 * repeated header, as files concatenated), then the header queries, every chart kind's
 * recogniser, each header name as --column, and the gnuplot script written. */
#include "fuzz.h"

#include "chart.h"
#include "err.h"
#include "tsv.h"

/* bytes: the input's, read n times: no cell holds a byte that was not read. */
static void check_table(const struct tsv *t, size_t bytes)
{
	/* Every column is found by its name at its first place, never past it. */
	for (size_t c = 0; c < t->ncols; c++) {
		int at = tsv_col(t, t->head[c]);
		if (at < 0 || (size_t)at > c || strcmp(t->head[at], t->head[c]) != 0)
			abort();
	}
	/* A summary is exactly "name value"; every row is as wide as the header (short rows
	 * padded), each cell a string ASan sees whole. */
	if (tsv_is_summary(t) != (t->ncols == 2 && !strcmp(t->head[0], "name") && !strcmp(t->head[1], "value")))
		abort();
	size_t cells = 0;
	for (size_t r = 0; r < t->nrows; r++)
		for (size_t c = 0; c < t->ncols; c++)
			cells += strlen(t->rows[r][c]);
	if (cells > bytes || (t->nrows > 0 && !t->file))
		abort();
}

static void draw(const struct tsv *t, size_t limit)
{
	struct chart_spec s;
	const struct chart_kind *k = chart_recognise(t, &s);
	if (!k)
		return;
	(void)chart_kind_name(k);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	if (!out)
		abort();
	struct chart_opts o = { .page = { .terminal = GNUPLOT_PNG }, .limit = limit, .label_width = 5 + limit % 40 };
	chart_write(out, k, t, &s, &o);
	for (size_t c = 0; c < t->ncols && c < 8; c++) {
		struct chart_spec col = s;
		if (chart_set_column(k, t, &col, t->head[c]) == 0)
			chart_write(out, k, t, &col, &o);
	}
	fclose(out);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd;
	char path[64];
	if (fuzz_file(data, size, &fd, path, sizeof path) != 0)
		return 0;
	char *paths[2] = { path, path };
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	for (size_t n = 1; n <= 2; n++) {
		struct tsv t;
		tsv_read(paths, n, &t, &errs);
		check_table(&t, n * size);
		draw(&t, n == 1 ? 20 : 0);
		tsv_free(&t);
	}
	close(fd);
	return 0;
}
