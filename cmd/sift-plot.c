/* sift-plot: a sift TSV table or series in, a self-contained gnuplot script out. */
#include "../lib/chart.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/tsv.h"

#include <stdio.h>
#include <stdlib.h>

enum {
	OPT_TERMINAL = 't', OPT_OUTPUT = 'o', OPT_N = 'n', OPT_TITLE = 0x2000, OPT_SIZE,
	OPT_COLUMN, OPT_X, OPT_LABEL_WIDTH,
};

static const char *const x_names[] = { "step", "time", NULL };

static const struct cli_option options[] = {
	CLI_ROW_CHOICE("terminal", OPT_TERMINAL, "TERM", gnuplot_terminal_names,
		       "png (default), svg, pdf, dumb (text in the terminal)"),
	CLI_ROW_STR("output", OPT_OUTPUT, "FILE", "the script's `set output` (default: gnuplot's stdout)"),
	CLI_ROW_STR("title", OPT_TITLE, "TEXT", "chart title (default: what is drawn)"),
	CLI_ROW_STR("size", OPT_SIZE, "WxH", "pixels (pdf: at 72 per inch) or, for dumb, characters"),
	CLI_ROW_UINT("top", OPT_N, "N", "bars for the first N rows of a table (default 20; 0: all); window "
		     "tables: areas for the first N keys"),
	CLI_ROW_STR("column", OPT_COLUMN, "NAME", "the column bars show (default: the table's main figure)"),
	CLI_ROW_CHOICE("x", OPT_X, "AXIS", x_names, "series: step (default) or time"),
	CLI_ROW_UINT_RANGE("label-width", OPT_LABEL_WIDTH, "N", 5, 1000,
			   "shorten bar labels to N characters (default 48)"),
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Read a sift TSV (sift-top, sift-diff, sift-threads, sift-gil tables; sift-tput series, "
	"--stats and --compare), recognised by its header, and write a gnuplot script with the "
	"data inline: run it as `sift-plot t.tsv | gnuplot > chart.png`.",
	options,
	"Text from the input never reaches gnuplot as commands: see sift-plot(1), SECURITY.\n"
	"Exit status: 0 ok, 1 unreadable or unrecognised input, 2 usage error.\n",
};


static void parse_size(const char *value, struct gnuplot_page *page)
{
	unsigned w, h;
	char end;
	if (sscanf(value, "%ux%u%c", &w, &h, &end) != 2 || w < 10 || h < 5 || w > 20000 || h > 20000)
		cli_usage_error(&spec, "invalid value for --size: '%s' (WxH, e.g. 900x600)", value);
	page->width = w;
	page->height = h;
}

int main(int argc, char **argv)
{
	struct chart_opts o = { .page = { .terminal = GNUPLOT_PNG }, .limit = 20, .label_width = 48 };
	const char *column = NULL;
	struct err_lines errs;
	struct cli_value v;
	int key, first;

	char *outbuf = err_start(argv[0], &errs);
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1) {
		switch (key) {
		case OPT_TERMINAL: o.page.terminal = (enum gnuplot_terminal)v.choice; break;
		case OPT_OUTPUT: o.page.output = v.text; break;
		case OPT_TITLE: o.page.title = v.text; break;
		case OPT_SIZE: parse_size(v.text, &o.page); break;
		case OPT_N: o.limit = v.u; break;
		case OPT_COLUMN: column = v.text; break;
		case OPT_X: o.x_time = v.choice; break;
		case OPT_LABEL_WIDTH: o.label_width = (size_t)v.u; break;
		default:
			cli_usage_error(&spec, NULL);
		}
	}

	struct tsv t;
	int status = tsv_read(argv + first, (size_t)(argc - first), &t, &errs);
	err_lines_finish(&errs);
	if (!t.head)
		err_exit(EXIT_DATA, "no input: expected a sift TSV table (--format tsv)");
	struct chart_spec s;
	const struct chart_kind *kind = chart_recognise(&t, &s);
	if (!kind && tsv_is_summary(&t))
		err_exit(EXIT_DATA, "%s: a summary (name value) has nothing to draw: give sift-gil's keys "
			 "table (its default output, or --only keys)", t.file);
	if (!kind)
		err_exit(EXIT_DATA, "%s:1: not a sift TSV header (sift-top, sift-diff, sift-tput, sift-threads "
			 "or sift-gil with --format tsv)", t.file);
	if (column && chart_set_column(kind, &t, &s, column) != 0)
		err_exit(EXIT_USAGE, "--column %s: no such column to draw in this %s table", column,
			 chart_kind_name(kind));
	/* An empty table would draw an empty (with png, 0-byte) picture without a word. */
	if (t.nrows == 0)
		err_exit(EXIT_DATA, "%s: a %s table with a header but no rows: nothing to draw (the command "
			 "that wrote it printed an empty table; check its input and options)", t.file,
			 chart_kind_name(kind));
	chart_write(stdout, kind, &t, &s, &o);
	err_finish(outbuf);
	tsv_free(&t);
	return status;
}
