/* chart: every sift table sift-plot can draw, in one table of chart kinds: each kind
 * recognises its table by the header and draws it as an inert gnuplot script (gnuplot.h).
 * One module rather than one per kind: the kinds share row picking, labels and tics, and
 * the table of them is the one place that says which tables are drawable. */
#ifndef SIFT_CHART_H
#define SIFT_CHART_H

#include "gnuplot.h"
#include "tsv.h"

#include <stdio.h>

struct chart_opts {
	struct gnuplot_page page;     /* page.title NULL: a title saying what is drawn */
	unsigned long long limit;     /* rows drawn (bars, boxes, points), 0: all */
	int x_time;                   /* series: x is the time column (else the step) */
	size_t label_width;           /* labels are shortened to this many characters, >= 5 */
};

/* What a recogniser found: which columns label the rows and which hold the figures. */
struct chart_spec {
	char what[128];       /* for the default title: the key names, "A / B" for pairs */
	int label[2];         /* label columns, -1 unused */
	int alt[2];           /* labels of a row whose label[0] cell is empty, -1 unused */
	int value[2];         /* figure columns (paired bars use both), -1 unused */
};

struct chart_kind;

/* The kind whose header t has, with s filled in; NULL when none (a summary included). */
const struct chart_kind *chart_recognise(const struct tsv *t, struct chart_spec *s);
/* Its name for messages: "window", "top", "diff", "series", "stats", "compare", "threads", "gil",
 * "gil dumps". */
const char *chart_kind_name(const struct chart_kind *k);

/* Draw column name instead of the kind's default figure. -1 when the table has no such
 * column or the kind draws fixed columns. */
int chart_set_column(const struct chart_kind *k, const struct tsv *t, struct chart_spec *s,
		     const char *name);

/* The whole script: preamble (gnuplot_begin), data and plot. */
void chart_write(FILE *out, const struct chart_kind *k, const struct tsv *t,
		 const struct chart_spec *s, const struct chart_opts *o);

#endif
