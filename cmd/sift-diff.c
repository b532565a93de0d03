/* sift-diff: what moved between two profiles, per key: shares before and after, delta in points, ratio. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/diff.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/sum.h"
#include "../lib/table.h"
#include "../lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_BY = 'b', OPT_N = 'n', OPT_FORMAT = 'f', OPT_BEFORE = 0x2000, OPT_AFTER, OPT_PER_WORK,
	OPT_FOLDED, OPT_FAIL, OPT_FAIL_ANY, OPT_TOTAL, OPT_EXACT, OPT_SORT, OPT_MIN_SHARE, OPT_PAIR, OPT_WIDE,
};
static const char *const sort_names[] = { "significance", "delta", NULL };
enum pair_mode { PAIR_AUTO, PAIR_ORDER, PAIR_NONE };
enum { DIFF_BLOCKS = 20 };  /* blocks of time a side, when one input each has time */
static const char *const pair_names[] = { "auto", "order", "none", NULL };

static const struct cli_option options[] = {
	{ "by", OPT_BY, "KEY", "frame (default), function, file, lib, line, root, thread, process,\n"
	  "                            category, source (the input file), or two of them: KEY,KEY" },
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "total", OPT_TOTAL, NULL, "compare total (inclusive) samples instead of self samples" },
	{ "sort", OPT_SORT, "ORDER", "significance (default: significant changes first) or delta" },
	{ "before", OPT_BEFORE, "FILES...", "the before profile: every file up to the next option" },
	{ "after", OPT_AFTER, "FILES...", "the after profile: every file up to the next option" },
	{ "per-work", OPT_PER_WORK, "B A", "normalize by work done: samples per 1,000 units (B before, A after)" },
	{ "folded", OPT_FOLDED, NULL, "write `stack before after` lines (difffolded) instead of a table" },
	{ "fail-if-grows", OPT_FAIL, "KEY:POINTS", "exit 1 when KEY's share grows by more than POINTS beyond noise:\n"
	  "                            the low end of its 95% interval (repeatable)" },
	{ "fail-if-any-grows", OPT_FAIL_ANY, "POINTS", "exit 1 when any key grows significantly (q < 0.05) by more\n"
	  "                            than POINTS beyond noise" },
	{ "min-share", OPT_MIN_SHARE, "PCT", "test the keys with at least PCT% of the samples on either side\n"
	  "                            (default 0.5)" },
	{ "pair", OPT_PAIR, "HOW", "with many inputs a side: auto (default: pair them by --label or\n"
	  "                            file name when they match), order, or none" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	TABLE_WIDE_ROW(OPT_WIDE),
	{ "exact", OPT_EXACT, NULL, "compare frames as written (default: --collapse-addrs --no-tids --no-pids,\n"
	  "                            so that two runs of one program match)" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_INPUT_ROWS,
	PROFOPT_TO_ROW,
	PROFOPT_LABEL_ROW,
	PROFOPT_SHARE_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... BEFORE AFTER\n   or: sift-diff [OPTION]... --before FILE... --after FILE...",
	"Compare two folded-stack profiles per key: each key's share of its own profile before\n"
	"and after, the change in percentage points, and their ratio; sorted by the size of the change.",
	options,
	"Shares are of all samples read in each profile, before filters.\n"
	"Exit status: 0 ok, 1 unreadable input, bad lines with --strict, or a --fail-if-grows\n"
	"or --fail-if-any-grows limit passed, 2 usage error.\n",
};

struct opts {
	struct agg_spec keys;
	unsigned long long limit;
	int total;            /* inclusive samples instead of self */
	int sort_delta;       /* --sort delta */
	int folded;
	enum table_format format;
	unsigned wide;        /* TABLE_TEXT_WIDE: keys whole */
	double work[2];       /* units of work before and after; 0 when not normalizing */
	struct diff_gate *gates;  /* KEY may itself hold ':' (frames do): POINTS is after the last */
	size_t ngates;
	double any_points;    /* --fail-if-any-grows; NAN when not given */
	double min_share;     /* --min-share, percent; NAN: the default */
	enum pair_mode pair;
	const char *table_option; /* the last option given that only the table uses */
	char **files[2];      /* before, after */
	size_t nfiles[2];
};

static int is_option(const char *arg) { return arg[0] == '-' && arg[1] != '\0'; }

/* getopt takes one value per option: --before/--after take every file up to the next
 * option, and --per-work two numbers, so they are taken out of argv before it runs. */
static int take_groups(int argc, char **argv, struct opts *o)
{
	int out = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int side = strcmp(a, "--before") == 0 ? 0 : strcmp(a, "--after") == 0 ? 1 : -1;
		if (strcmp(a, "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (side >= 0) {
			while (i + 1 < argc && !is_option(argv[i + 1])) {
				o->files[side] = xrealloc(o->files[side], (o->nfiles[side] + 1) * sizeof(char *));
				o->files[side][o->nfiles[side]++] = argv[++i];
			}
			if (o->nfiles[side] == 0)
				cli_usage_error(&spec, "%s needs at least one file", a);
			continue;
		}
		if (strcmp(a, "--per-work") == 0) {
			if (i + 2 >= argc)
				cli_usage_error(&spec, "--per-work needs two numbers: BEFORE_UNITS AFTER_UNITS");
			for (int s = 0; s < 2; s++) {
				o->work[s] = cli_double(&spec, "--per-work", argv[++i]);
				if (o->work[s] <= 0)
					cli_usage_error(&spec, "invalid value for --per-work: '%s' (must be above 0)", argv[i]);
			}
			continue;
		}
		argv[out++] = argv[i];
	}
	argv[out] = NULL;
	return out;
}

static void add_gate(struct opts *o, const char *value)
{
	const char *colon = strrchr(value, ':');
	if (!colon || colon == value)
		cli_usage_error(&spec, "invalid value for --fail-if-grows: '%s' (KEY:POINTS)", value);
	double points = cli_double(&spec, "--fail-if-grows", colon + 1);
	o->gates = xrealloc(o->gates, (o->ngates + 1) * sizeof *o->gates);
	o->gates[o->ngates++] = (struct diff_gate){ value, (size_t)(colon - value), points };
}

/* How the inputs of the two sides pair, as --pair says: NULL when they are compared as
 * independent samples. */
static const char *pair_inputs(const struct opts *o, const struct load_opts *lopts, size_t *pair)
{
	if (o->pair == PAIR_NONE)
		return NULL;
	if (o->pair == PAIR_ORDER) {
		if (o->nfiles[0] != o->nfiles[1])
			cli_usage_error(&spec, "--pair order needs as many inputs after (%zu) as before (%zu)",
					o->nfiles[1], o->nfiles[0]);
		for (size_t i = 0; i < o->nfiles[0]; i++)
			pair[i] = i;
		return "order";
	}
	return diff_pair_inputs(o->files, o->nfiles, lopts->labels, lopts->nlabels, pair);
}

/* Text starts with both sides' samples, what was tested and how. */
static void write_header(const diff *d, const struct diff_base *base, const size_t nfiles[2], const char *paired_by,
			 int blocks)
{
	printf("before %llu samples  after %llu samples  %zu of %zu keys tested changed significantly "
	       "(q < %g; tested: keys with %g%% of the samples or more on either side)\n",
	       (unsigned long long)base->samples[0], (unsigned long long)base->samples[1],
	       diff_significant_count(d), diff_tested_count(d), DIFF_ALPHA, base->min_share);
	if (diff_paired(d))
		printf("test: %s, %zu pairs (paired by %s)\n", diff_method(d), nfiles[0], paired_by);
	else if (diff_has_spread(d) && base->work[0] <= 0 && blocks)
		printf("test: %s, %zu before and %zu after (one input a side: its time in %g s windows of "
		       "each thread, or its dump snapshots, grouped)\n", diff_method(d), nfiles[0], nfiles[1],
		       SUM_BLOCK_WINDOW);
	else if (diff_has_spread(d) && base->work[0] <= 0)
		printf("test: %s, %zu before and %zu after (not paired)\n", diff_method(d), nfiles[0], nfiles[1]);
	else
		printf("test: %s (samples are not independent: the interval is too narrow)\n", diff_method(d));
}

int main(int argc, char **argv)
{
	struct opts o = { .keys = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 }, .limit = 20, .format = TABLE_TEXT,
			 .any_points = NAN, .min_share = NAN };
	struct rules_opts ropts = { 0 };
	char msg[256];
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first, exact = 0, min_share_given = 0;

	err_set_prog(argv[0]);
	char *outbuf = err_buffer_stdout();
	err_lines_init(&errs);
	argc = take_groups(argc, argv, &o);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_BY:
			o.table_option = "--by";
			if (agg_parse_keys(value, &o.keys, msg, sizeof msg) != 0)
				cli_usage_error(&spec, "%s", msg);
			if (agg_spec_has(&o.keys, KEY_WINDOW))
				cli_usage_error(&spec, "--by window is sift-top's (a time series); sift-diff compares "
						"windows given with --from/--to");
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); o.table_option = "--top"; break;
		case OPT_TOTAL: o.total = 1; o.table_option = "--total"; break;
		case OPT_FOLDED: o.folded = 1; break;
		case OPT_EXACT: exact = 1; break;
		case OPT_SORT:
			o.table_option = "--sort";
			o.sort_delta = cli_choice(&spec, "--sort", value, sort_names);
			break;
		case OPT_FAIL: add_gate(&o, value); o.table_option = "--fail-if-grows"; break;
		case OPT_FAIL_ANY:
			o.any_points = cli_double(&spec, "--fail-if-any-grows", value);
			o.table_option = "--fail-if-any-grows";
			break;
		case OPT_MIN_SHARE:
			o.table_option = "--min-share";
			o.min_share = cli_double(&spec, "--min-share", value);
			min_share_given = 1;
			if (!(o.min_share >= 0 && o.min_share <= 100))
				cli_usage_error(&spec, "invalid value for --min-share: '%s' (a percentage, 0 to 100)", value);
			break;
		case OPT_PAIR:
			o.table_option = "--pair";
			o.pair = (enum pair_mode)cli_choice(&spec, "--pair", value, pair_names);
			break;
		case OPT_WIDE: o.wide = TABLE_TEXT_WIDE; o.table_option = "--wide"; break;
		case OPT_FORMAT:
			o.table_option = "--format";
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_BEFORE: case OPT_AFTER: case OPT_PER_WORK: /* abbreviated: see take_groups */
			cli_usage_error(&spec, "write --before, --after and --per-work in full");
		default:
			if (!rules_opts_handle(&ropts, key, value) &&
			    !profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	if (!exact) /* a restart's new addresses, TIDs and PIDs are not a change */
		lopts.collapse_addrs = lopts.no_tids = lopts.no_pids = 1;
	o.keys.inclusive = ropts.inclusive;
	if (agg_inclusive_unused(&o.keys) && !o.folded)
		cli_usage_error(&spec, "%s", agg_inclusive_unused(&o.keys));
	if (o.folded && o.table_option)
		cli_usage_error(&spec, "--folded writes stacks, not a table: %s does not apply", o.table_option);
	if (o.folded && o.work[0] > 0)
		cli_usage_error(&spec, "--folded writes sample counts: --per-work does not apply");
	if (ropts.inclusive && !o.total && !o.folded)
		cli_usage_error(&spec, "--inclusive adds a category's samples to its total: compare totals with --total");
	if (ropts.nfiles || agg_spec_needs_rules(&o.keys))
		o.keys.rules = rules_opts_load(&ropts); /* read (and checked) before any input */
	int npos = argc - first;
	if (lopts.nlabels && !agg_spec_has(&o.keys, KEY_SOURCE) && (o.nfiles[0] < 2 || o.nfiles[1] < 2))
		cli_usage_error(&spec, "--label names an input for --by source, or pairs many inputs a side "
				"(--before FILE... --after FILE...): here it does nothing");
	if (isnan(o.min_share))
		o.min_share = DIFF_MIN_SHARE;
	if (o.nfiles[0] || o.nfiles[1]) {
		if (!o.nfiles[0] || !o.nfiles[1] || npos != 0)
			cli_usage_error(&spec, "give both --before and --after, and no other files");
	} else if (npos != 2) {
		cli_usage_error(&spec, "need two profiles: BEFORE AFTER");
	} else {
		for (int s = 0; s < 2; s++) {
			o.files[s] = xmalloc(sizeof(char *));
			o.files[s][0] = argv[first + s];
			o.nfiles[s] = 1;
		}
	}

	/* By source, each input's keys hold about 1/n of the samples: the default scales. */
	if (agg_spec_has(&o.keys, KEY_SOURCE) && !min_share_given)
		o.min_share /= (double)(o.nfiles[0] > o.nfiles[1] ? o.nfiles[0] : o.nfiles[1]);

	/* The difffolded lines need every stack; the table needs only the sums. */
	prof *ps[2] = { NULL, NULL };
	agg *sums[2] = { NULL, NULL };
	struct diff_base base = { .keys = { o.keys.keys[0], o.keys.keys[1] }, .nkeys = o.keys.nkeys,
				  .total = o.total, .work = { o.work[0], o.work[1] }, .sort_delta = o.sort_delta,
				  .min_share = o.min_share };
	agg **inputs[2] = { NULL, NULL };
	size_t nblocks[2] = { 0, 0 };  /* blocks of time of a side's one input */
	uint64_t *input_samples[2] = { NULL, NULL };
	int status = 0, empty_side = 0, noted = 0;
	struct load_stats read[2];
	int replicates = !o.folded && diff_replicates_apply(o.nfiles, &o.keys);
	/* One input a side with time: its blocks of time are the replicates. */
	int kinds[2] = { 0, 0 };
	int blocks = !o.folded && !replicates && o.work[0] <= 0 && o.nfiles[0] == 1 && o.nfiles[1] == 1 &&
		     !agg_spec_has(&o.keys, KEY_SOURCE) && (kinds[0] = sum_file_has_time(o.files[0][0], lopts.from)) &&
		     (kinds[1] = sum_file_has_time(o.files[1][0], lopts.from));
	for (int s = 0; s < 2; s++) {
		struct load_stats st = { 0 };
		if (o.folded) {
			ps[s] = prof_new();
			status |= load_files(ps[s], o.files[s], o.nfiles[s], &lopts, &errs, &st);
		} else {
			struct sum_result sum;
			if (replicates) { /* each input read once: summed alone, and pooled */
				inputs[s] = xcalloc(o.nfiles[s], sizeof *inputs[s]);
				input_samples[s] = xcalloc(o.nfiles[s], sizeof *input_samples[s]);
				status |= sum_files_each(o.files[s], o.nfiles[s], &lopts, &o.keys, &errs,
							 inputs[s], input_samples[s], &sum);
			} else {
				status |= sum_files(o.files[s], o.nfiles[s], &lopts, &o.keys, 0, &errs, &sum);
			}
			if (blocks) {
				int bad;
				inputs[s] = xcalloc(DIFF_BLOCKS, sizeof *inputs[s]);
				input_samples[s] = xcalloc(DIFF_BLOCKS, sizeof *input_samples[s]);
				nblocks[s] = sum_file_blocks(o.files[s][0], kinds[s], &lopts, &o.keys, DIFF_BLOCKS,
							     &errs, inputs[s], input_samples[s], &bad);
				status |= bad;
			}
			sums[s] = sum.table;
			st = sum.stats;
			if (!noted && st.samples_read) /* once: the note is about how both were recorded */
				noted = sum_result_note_idle(&sum, &lopts, s ? "the after profile" : "the before profile");
		}
		base.samples[s] = st.samples_read;
		read[s] = st;
	}
	size_t *pair = NULL;
	const char *paired_by = NULL;
	int by_time = blocks && nblocks[0] >= 2 && nblocks[1] >= 2;
	if (by_time) {
		diff_base_replicates(&base, inputs, input_samples, nblocks);
		base.time_blocks = 1;
	} else if (replicates) {
		diff_base_replicates(&base, inputs, input_samples, o.nfiles);
		pair = xmalloc(o.nfiles[0] * sizeof *pair);
		paired_by = pair_inputs(&o, &lopts, pair);
		base.pair = paired_by ? pair : NULL;
	}
	err_lines_finish(&errs);
	for (int s = 0; s < 2; s++)
		if (load_report_empty(&read[s], s ? "the after profile" : "the before profile"))
			empty_side = 1;
	if (sums[0] && !empty_side)
		agg_note_missing(sums[0], &o.keys);

	diff *d = NULL;
	const struct diff_gate *unknown = NULL;
	if (empty_side) {
		status = EXIT_DATA; /* a side that parsed nothing makes no comparison */
	} else if (o.folded) {
		diff_write_folded(ps[0], ps[1], stdout);
	} else {
		d = diff_new(sums[0], sums[1], &base);
		unknown = diff_gate_unknown(d, o.gates, o.ngates);
	}
	if (unknown) {
		status = EXIT_USAGE; /* reported once everything is freed */
	} else if (d) {
		if (o.format == TABLE_TEXT)
			write_header(d, &base, by_time ? nblocks : o.nfiles, paired_by, by_time);
		table *t = diff_table(d, o.limit, o.format == TABLE_TEXT ? 0 : DIFF_TABLE_TEST);
		table_write(t, stdout, o.format, (o.keys.nkeys == 1 ? TABLE_TEXT_KEY_LAST : 0) | o.wide);
		table_free(t);
		if (diff_check_gates(d, o.gates, o.ngates) | diff_check_any(d, o.any_points))
			status = EXIT_DATA;
	}
	err_close_stdout();
	free(outbuf);

	diff_free(d);
	free(pair);
	for (int s = 0; s < 2; s++) {
		agg_free(sums[s]);
		prof_free(ps[s]);
		free(o.files[s]);
		for (size_t i = 0; inputs[s] && i < (blocks ? nblocks[s] : o.nfiles[s]); i++)
			agg_free(inputs[s][i]);
		free(inputs[s]);
		free(input_samples[s]);
	}
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	if (unknown)
		snprintf(msg, sizeof msg, "--fail-if-grows: '%.*s' is in neither profile (--by %s): the "
			 "gate could never fail", (int)unknown->key_len, unknown->key,
			 frame_key_names[o.keys.keys[0]]);
	free(o.gates);
	if (unknown)
		cli_usage_error(&spec, "%s", msg);
	return status;
}
