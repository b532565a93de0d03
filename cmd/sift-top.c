/* sift-top: where the samples are, ranked by frame, function, file, lib, line, root, thread, process,
 * category, or a pair of these. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/peek.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/sum.h"
#include "../lib/table.h"
#include "../lib/timewin.h"
#include "../lib/toptab.h"
#include "../lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = 'b', OPT_N = 'n', OPT_SORT = 0x2000, OPT_PEEK, OPT_PCT_OF, OPT_WINDOW, OPT_WIDE };
static const char *const sort_names[] = { "self", "total", NULL };
static const char *const pct_of_names[] = { "all", "kept", NULL };

static const struct cli_option options[] = {
	CLI_ROW_STR("by", OPT_BY, "KEY[,KEY]", "frame (default), function, file, lib, line, root, thread, "
		    "process, category, source (the input file), window (of time); two rank pairs"),
	CLI_ROW_STR("window", OPT_WINDOW, "SEC", "--by window: windows SEC seconds wide (default 1), each "
		    "thread's time from its first sample (speedscope, chrometrace)"),
	CLI_ROW_UINT("top", OPT_N, "N", "show the first N rows (default 20; 0 shows all), per window with "
		     "--by window"),
	CLI_ROW_CHOICE("sort", OPT_SORT, "WHICH", sort_names, "self (default) or total"),
	TABLE_FORMAT_ROW,
	TABLE_WIDE_ROW(OPT_WIDE),
	CLI_ROW_STR("peek", OPT_PEEK, "RE", "the callers and callees of each key matching RE (PCRE2)"),
	CLI_ROW_CHOICE("pct-of", OPT_PCT_OF, "WHICH", pct_of_names, "percentages of all samples read "
		       "(default) or of those kept (the default with --from SEC or --to SEC)"),
	CLI_ROW_JOBS,
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_INPUT_ROWS,
	PROFOPT_TO_ROW,
	PROFOPT_LABEL_ROW,
	PROFOPT_SHARE_ROWS,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Rank the keys of folded-stack profiles by self samples (the stack's leaf has the key) "
	"and total samples (the key is anywhere in the stack, counted once per stack).",
	options,
	"Percentages are of all samples read, before filters, unless --pct-of kept (or a time "
	"window, --from SEC/--to SEC, is given).\n"
	"Exit status: 0 ok, 1 unreadable input or bad lines with --strict, 2 usage error.\n",
};

struct top_opts {
	enum frame_key by[2];
	size_t nby;
	unsigned long long limit;
	enum agg_order order;
	enum table_format format;
	unsigned wide;          /* TABLE_TEXT_WIDE: keys whole */
	unsigned jobs;
	rx *peek;
	int pct_kept;
};

/* --by KEY or --by KEY,KEY. */
static void parse_by(struct top_opts *o, const char *value)
{
	struct agg_spec parsed = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 };
	char msg[256];
	if (agg_parse_keys(value, &parsed, msg, sizeof msg) != 0)
		cli_usage_error(&spec, "%s", msg);
	o->by[0] = parsed.keys[0];
	o->by[1] = parsed.keys[1];
	o->nby = parsed.nkeys;
}

static void print_table(const agg *a, const struct top_opts *o, uint64_t all)
{
	struct agg_spec keys = { { o->by[0], o->by[1] }, o->nby, NULL, 0 };
	table *t = toptab_table(a, &keys, o->order, o->limit, all);
	/* One long key reads best last; two keys keep their order, padded. */
	table_write(t, stdout, o->format, (o->nby == 1 ? TABLE_TEXT_KEY_LAST : 0) | o->wide);
	table_free(t);
}

/* Returns 1 when --peek matched no key (said on stderr), else 0. */
static int print_summary_and_table(const agg *a, const peek *pk, const struct top_opts *o,
				   const struct sum_result *sum, const struct err_lines *errs)
{
	const struct load_stats *st = &sum->stats;
	uint64_t base = o->pct_kept ? st->samples_kept : st->samples_read;
	if (o->format == TABLE_TEXT) {
		printf("samples %llu", (unsigned long long)st->samples_read);
		if (st->samples_kept != st->samples_read || o->pct_kept)
			printf(" (%llu kept)", (unsigned long long)st->samples_kept);
		printf("  stacks %zu  threads %zu  bad lines %lu", sum->stacks, sum->threads, errs->bad);
		printf("%s\n", o->pct_kept ? "  pct of kept" : "");
	}
	if (!pk) {
		print_table(a, o, base);
		return 0;
	}
	struct peek_row *rows;
	size_t n = peek_rows(pk, o->order, (size_t)o->limit, &rows);
	if (n == 0) /* an empty table would say nothing */
		err_warn("--peek: no %s matched in the %llu samples kept", frame_key_names[o->by[0]],
			 (unsigned long long)st->samples_kept);
	else
		peek_write(pk, rows, n, base, o->format, stdout);
	free(rows);
	return n == 0;
}

/* --peek: each kept stack is also given to the peek. */
static void peek_stack(void *ctx, const intern *frames, const uint32_t *ids, size_t n, uint64_t count)
{
	char msg[512];
	if (peek_add(ctx, frames, ids, n, count, msg, sizeof msg) != 0)
		err_exit(EXIT_DATA, "--peek: %s", msg);
}

/* Options into o, lopts and ropts; returns the index of the first file. */
static int parse_options(int argc, char **argv, struct top_opts *o, double *window, struct load_opts *lopts,
			 struct rules_opts *ropts, struct err_lines *errs)
{
	struct cli_value v;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1) {
		switch (key) {
		case OPT_BY: parse_by(o, v.text); break;
		case OPT_N: o->limit = v.u; break;
		case CLI_KEY_JOBS: o->jobs = (unsigned)v.u; break;
		case OPT_PEEK:
			rx_free(o->peek);
			o->peek = profopt_regex(&spec, "--peek", v.text);
			break;
		case OPT_WINDOW:
			if (timewin_parse_seconds(v.text, window) != 0 || !(*window > 0))
				cli_usage_error(&spec, "invalid value for --window: '%s' (seconds, above 0)", v.text);
			break;
		case OPT_PCT_OF: o->pct_kept = v.choice; break;
		case OPT_SORT: o->order = (enum agg_order)v.choice; break;
		case OPT_WIDE: o->wide = TABLE_TEXT_WIDE; break;
		case TABLE_KEY_FORMAT: o->format = (enum table_format)v.choice; break;
		default:
			profopt_take(&spec, key, &v, lopts, ropts, errs);
		}
	}
	return first;
}

/* The options that need one another, checked once all are read; the rules read. */
static void check_options(struct top_opts *o, double window, struct load_opts *lopts,
			  const struct rules_opts *ropts, struct agg_spec *aspec)
{
	*aspec = (struct agg_spec){ { o->by[0], o->by[1] }, o->nby, NULL, ropts->inclusive };
	if (agg_spec_has(aspec, KEY_WINDOW))
		lopts->win.width = window > 0 ? window : 1;
	else if (window > 0)
		cli_usage_error(&spec, "--window needs --by window (or a pair with window)");
	if (o->pct_kept < 0) /* a time window is the profile asked about */
		o->pct_kept = lopts->win.has_from || lopts->win.has_to;
	if (agg_inclusive_unused(aspec))
		cli_usage_error(&spec, "%s", agg_inclusive_unused(aspec));
	if (lopts->nlabels && !agg_spec_has(aspec, KEY_SOURCE))
		cli_usage_error(&spec, "--label names an input for --by source: without it, it does nothing");
	/* Rules are read (and checked) before any input, when given or needed. */
	if (ropts->nfiles || agg_spec_needs_rules(aspec))
		if (!(aspec->rules = rules_opts_load(ropts)))
			exit(EXIT_USAGE);
	if (o->peek && (o->nby != 1 || !peek_key_ok(o->by[0])))
		cli_usage_error(&spec, "--peek takes one key of frames: frame, function, file, lib, line, "
				"thread or process");
}

int main(int argc, char **argv)
{
	struct top_opts o = { { KEY_FRAME, KEY_FRAME }, 1, 20, AGG_BY_SELF, TABLE_TEXT, 0, 0, NULL, -1 };
	double window = 0;
	struct load_opts lopts = { 0 };
	struct rules_opts ropts = { 0 };
	struct agg_spec aspec;
	struct err_lines errs;

	char *outbuf = err_start(argv[0], &errs);
	int first = parse_options(argc, argv, &o, &window, &lopts, &ropts, &errs);
	check_options(&o, window, &lopts, &ropts, &aspec);

	peek *pk = o.peek ? peek_new(o.by[0], o.peek) : NULL;
	struct sum_tap tap = { peek_stack, pk };
	struct sum_result sum;
	int status = sum_files_tap(argv + first, (size_t)(argc - first), &lopts, &aspec, o.jobs,
				   pk ? &tap : NULL, &errs, &sum);
	err_lines_finish(&errs);
	const struct load_stats st = sum.stats;
	agg *a = sum.table;
	if (load_report_empty(&st, "the input") || load_report_window(&st, &lopts, "the input")) {
		status = EXIT_DATA; /* an empty table would only hide the message */
	} else {
		sum_result_note_idle(&sum, &lopts, "the input");
		agg_note_missing(a, &aspec);
		agg_sort(a, o.order);
		if (print_summary_and_table(a, pk, &o, &sum, &errs))
			status = EXIT_DATA;
	}
	err_finish(outbuf);

	sum_result_free(&sum);
	peek_free(pk);
	rx_free(o.peek);
	profopt_free(&lopts);
	rules_free(aspec.rules);
	rules_opts_free(&ropts);
	return status;
}
