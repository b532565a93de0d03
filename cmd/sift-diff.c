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
	OPT_BY = 'b', OPT_N = 'n', OPT_BEFORE = 0x2000, OPT_AFTER, OPT_PER_WORK,
	OPT_FOLDED, OPT_FAIL, OPT_FAIL_ANY, OPT_TOTAL, OPT_EXACT, OPT_SORT, OPT_MIN_SHARE, OPT_PAIR, OPT_WIDE,
};
static const char *const sort_names[] = { "significance", "delta", NULL };
enum pair_mode { PAIR_AUTO, PAIR_ORDER, PAIR_NONE };
enum { DIFF_BLOCKS = 20 };  /* blocks of time a side, when one input each has time */
static const char *const pair_names[] = { "auto", "order", "none", NULL };

static const struct cli_option options[] = {
	CLI_ROW_STR("by", OPT_BY, "KEY", "frame (default), function, file, lib, line, root, thread, process, "
		    "category, source (the input file), or two of them: KEY,KEY"),
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	CLI_ROW_UINT("top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)"),
	CLI_ROW_FLAG("total", OPT_TOTAL, "compare total (inclusive) samples instead of self samples"),
	CLI_ROW_CHOICE("sort", OPT_SORT, "ORDER", sort_names,
		       "significance (default: significant changes first) or delta"),
	CLI_ROW_FILES("before", OPT_BEFORE, "FILE...",
		      "the before profile: every file up to the next option (repeatable)"),
	CLI_ROW_FILES("after", OPT_AFTER, "FILE...",
		      "the after profile: every file up to the next option (repeatable)"),
	CLI_ROW_REAL_RANGE("per-work", OPT_PER_WORK, "B A", CLI_TWO | CLI_ABOVE_MIN, 0, 0, NULL,
			   "normalize by work done: samples per 1,000 units (B before, A after)"),
	CLI_ROW_FLAG("folded", OPT_FOLDED, "write `stack before after` lines (difffolded) instead of a table"),
	CLI_ROW_STR("fail-if-grows", OPT_FAIL, "KEY:POINTS", "exit 1 when KEY's share grows by more than "
		    "POINTS beyond noise: the low end of its 95% interval (repeatable)"),
	CLI_ROW_REAL("fail-if-any-grows", OPT_FAIL_ANY, "POINTS", "exit 1 when any key grows significantly "
		     "(q < 0.05) by more than POINTS beyond noise"),
	CLI_ROW_REAL_RANGE("min-share", OPT_MIN_SHARE, "PCT", CLI_MIN | CLI_MAX, 0, 100, "a percentage, 0 to 100",
			   "test the keys with at least PCT% of the samples on either side (default 0.5)"),
	CLI_ROW_CHOICE("pair", OPT_PAIR, "HOW", pair_names, "with many inputs a side: auto (default: pair "
		       "them by --label or file name when they match), order, or none"),
	TABLE_FORMAT_ROW,
	TABLE_WIDE_ROW(OPT_WIDE),
	CLI_ROW_FLAG("exact", OPT_EXACT, "compare frames as written (default: --collapse-addrs --no-tids "
		     "--no-pids, so that two runs of one program match)"),
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
	"[OPTION]... BEFORE AFTER\n       sift-diff [OPTION]... --before FILE... --after FILE...",
	"Compare two folded-stack profiles per key: each key's share of its own profile before "
	"and after, the change in percentage points, and their ratio; sorted by the size of the change.",
	options,
	"Shares are of all samples read in each profile, before filters.\n"
	"Exit status: 0 ok, 1 unreadable input, bad lines with --strict, or a --fail-if-grows "
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
	int exact;            /* --exact */
	int min_share_given;
};

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


static void add_files(struct opts *o, int side, const struct cli_value *v)
{
	o->files[side] = xrealloc(o->files[side], (o->nfiles[side] + v->n) * sizeof(char *));
	memcpy(o->files[side] + o->nfiles[side], v->list, v->n * sizeof(char *));
	o->nfiles[side] += v->n;
}

/* One option into o (the last option that only the table uses kept in o->table_option). */
static void take_option(struct opts *o, int key, const struct cli_value *v, struct load_opts *lopts,
			struct rules_opts *ropts, struct err_lines *errs)
{
	char msg[256];
	switch (key) {
	case OPT_BY:
		if (agg_parse_keys(v->text, &o->keys, msg, sizeof msg) != 0)
			cli_usage_error(&spec, "%s", msg);
		if (agg_spec_has(&o->keys, KEY_WINDOW))
			cli_usage_error(&spec, "--by window is sift-top's (a time series); sift-diff compares "
					"windows given with --from/--to");
		break;
	case OPT_N: o->limit = v->u; break;
	case OPT_TOTAL: o->total = 1; break;
	case OPT_FOLDED: o->folded = 1; return;
	case OPT_EXACT: o->exact = 1; return;
	case OPT_SORT: o->sort_delta = v->choice; break;
	case OPT_FAIL: add_gate(o, v->text); break;
	case OPT_FAIL_ANY: o->any_points = v->d; break;
	case OPT_MIN_SHARE: o->min_share = v->d; o->min_share_given = 1; break;
	case OPT_PAIR: o->pair = (enum pair_mode)v->choice; break;
	case OPT_WIDE: o->wide = TABLE_TEXT_WIDE; break;
	case TABLE_KEY_FORMAT: o->format = (enum table_format)v->choice; break;
	case OPT_BEFORE: case OPT_AFTER: add_files(o, key == OPT_AFTER, v); return;
	case OPT_PER_WORK: /* checked as numbers above 0 by the table */
		o->work[0] = v->d;
		o->work[1] = strtod(v->list[1], NULL);
		return;
	default:
		profopt_take(&spec, key, v, lopts, ropts, errs);
		return;
	}
	for (const struct cli_option *r = options; r->long_name; r++)
		if (r->key == key) /* a table option: named when --folded says it does not apply */
			o->table_option = r->long_name;
}

/* Options into o; the checks that need them all; returns the index of the first operand. */
static int parse_options(int argc, char **argv, struct opts *o, struct load_opts *lopts,
			 struct rules_opts *ropts, struct err_lines *errs)
{
	struct cli_value v;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1)
		take_option(o, key, &v, lopts, ropts, errs);
	if (!o->exact) /* a restart's new addresses, TIDs and PIDs are not a change */
		lopts->collapse_addrs = lopts->no_tids = lopts->no_pids = 1;
	o->keys.inclusive = ropts->inclusive;
	if (agg_inclusive_unused(&o->keys) && !o->folded)
		cli_usage_error(&spec, "%s", agg_inclusive_unused(&o->keys));
	if (o->folded && o->table_option)
		cli_usage_error(&spec, "--folded writes stacks, not a table: --%s does not apply", o->table_option);
	if (o->folded && o->work[0] > 0)
		cli_usage_error(&spec, "--folded writes sample counts: --per-work does not apply");
	if (ropts->inclusive && !o->total && !o->folded)
		cli_usage_error(&spec, "--inclusive adds a category's samples to its total: compare totals with --total");
	if (ropts->nfiles || agg_spec_needs_rules(&o->keys))
		if (!(o->keys.rules = rules_opts_load(ropts))) /* read (and checked) before any input */
			exit(EXIT_USAGE);
	return first;
}

/* BEFORE AFTER, or --before FILE... --after FILE...; --min-share's default by source. */
static void take_sides(struct opts *o, const struct load_opts *lopts, char **operands, int npos)
{
	if (lopts->nlabels && !agg_spec_has(&o->keys, KEY_SOURCE) && (o->nfiles[0] < 2 || o->nfiles[1] < 2))
		cli_usage_error(&spec, "--label names an input for --by source, or pairs many inputs a side "
				"(--before FILE... --after FILE...): here it does nothing");
	if (isnan(o->min_share))
		o->min_share = DIFF_MIN_SHARE;
	if (o->nfiles[0] || o->nfiles[1]) {
		if (!o->nfiles[0] || !o->nfiles[1] || npos != 0)
			cli_usage_error(&spec, "give both --before and --after, and no other files");
	} else if (npos != 2) {
		cli_usage_error(&spec, "need two profiles: BEFORE AFTER");
	} else {
		for (int s = 0; s < 2; s++) {
			o->files[s] = xmalloc(sizeof(char *));
			o->files[s][0] = operands[s];
			o->nfiles[s] = 1;
		}
	}
	/* By source, each input's keys hold about 1/n of the samples: the default scales. */
	if (agg_spec_has(&o->keys, KEY_SOURCE) && !o->min_share_given)
		o->min_share /= (double)(o->nfiles[0] > o->nfiles[1] ? o->nfiles[0] : o->nfiles[1]);
}

/* What the two sides read: every stack (--folded) or the sums, with each input's or each
 * block of time's sums when they are the replicates. */
struct sides {
	prof *ps[2];
	agg *sums[2];
	agg **inputs[2];
	uint64_t *input_samples[2];
	size_t nblocks[2];     /* blocks of time of a side's one input */
	int replicates, blocks, by_time;
	struct load_stats read[2];
	struct diff_base base;
	size_t *pair;
	const char *paired_by;
};

static int read_side(struct sides *sd, int s, const struct opts *o, const struct load_opts *lopts,
		     int kind, struct err_lines *errs, int *noted)
{
	int status = 0;
	struct load_stats st = { 0 };
	struct sum_result sum;
	if (o->folded) {
		sd->ps[s] = prof_new();
		status |= load_files(sd->ps[s], o->files[s], o->nfiles[s], lopts, errs, &st);
		sd->read[s] = st;
		return status;
	}
	if (sd->replicates) { /* each input read once: summed alone, and pooled */
		sd->inputs[s] = xcalloc(o->nfiles[s], sizeof *sd->inputs[s]);
		sd->input_samples[s] = xcalloc(o->nfiles[s], sizeof *sd->input_samples[s]);
		status |= sum_files_each(o->files[s], o->nfiles[s], lopts, &o->keys, errs, sd->inputs[s],
					 sd->input_samples[s], &sum);
	} else {
		status |= sum_files(o->files[s], o->nfiles[s], lopts, &o->keys, 0, errs, &sum);
	}
	if (sd->blocks) {
		int bad;
		sd->inputs[s] = xcalloc(DIFF_BLOCKS, sizeof *sd->inputs[s]);
		sd->input_samples[s] = xcalloc(DIFF_BLOCKS, sizeof *sd->input_samples[s]);
		sd->nblocks[s] = sum_file_blocks(o->files[s][0], kind, lopts, &o->keys, DIFF_BLOCKS, errs,
						 sd->inputs[s], sd->input_samples[s], &bad);
		status |= bad;
	}
	sd->sums[s] = sum.table;
	sd->read[s] = sum.stats;
	if (!*noted && sum.stats.samples_read) /* once: the note is about how both were recorded */
		*noted = sum_result_note_idle(&sum, lopts, s ? "the after profile" : "the before profile");
	return status;
}

/* Both sides read; then what the test compares: blocks of time, inputs (paired or not), or
 * the two sums. */
static int read_sides(struct sides *sd, const struct opts *o, const struct load_opts *lopts,
		      struct err_lines *errs)
{
	int status = 0, noted = 0;
	sd->replicates = !o->folded && diff_replicates_apply(o->nfiles, &o->keys);
	/* One input a side with time: its blocks of time are the replicates. */
	int kinds[2] = { 0, 0 };
	sd->blocks = !o->folded && !sd->replicates && o->work[0] <= 0 && o->nfiles[0] == 1 &&
		     o->nfiles[1] == 1 && !agg_spec_has(&o->keys, KEY_SOURCE) &&
		     (kinds[0] = sum_file_has_time(o->files[0][0], lopts->from)) &&
		     (kinds[1] = sum_file_has_time(o->files[1][0], lopts->from));
	for (int s = 0; s < 2; s++)
		status |= read_side(sd, s, o, lopts, kinds[s], errs, &noted);
	sd->base = (struct diff_base){ .keys = { o->keys.keys[0], o->keys.keys[1] }, .nkeys = o->keys.nkeys,
				       .total = o->total, .work = { o->work[0], o->work[1] },
				       .sort_delta = o->sort_delta, .min_share = o->min_share,
				       .samples = { sd->read[0].samples_read, sd->read[1].samples_read } };
	sd->by_time = sd->blocks && sd->nblocks[0] >= 2 && sd->nblocks[1] >= 2;
	if (sd->by_time) {
		diff_base_replicates(&sd->base, sd->inputs, sd->input_samples, sd->nblocks);
		sd->base.time_blocks = 1;
	} else if (sd->replicates) {
		diff_base_replicates(&sd->base, sd->inputs, sd->input_samples, o->nfiles);
		sd->pair = xmalloc(o->nfiles[0] * sizeof *sd->pair);
		sd->paired_by = pair_inputs(o, lopts, sd->pair);
		sd->base.pair = sd->paired_by ? sd->pair : NULL;
	}
	return status;
}

static void sides_free(struct sides *sd, const struct opts *o)
{
	for (int s = 0; s < 2; s++) {
		agg_free(sd->sums[s]);
		prof_free(sd->ps[s]);
		for (size_t i = 0; sd->inputs[s] && i < (sd->blocks ? sd->nblocks[s] : o->nfiles[s]); i++)
			agg_free(sd->inputs[s][i]);
		free(sd->inputs[s]);
		free(sd->input_samples[s]);
	}
	free(sd->pair);
}

/* The table (or difffolded lines) and the gates; *unknown is a gate on a key in neither. */
static int compare(struct sides *sd, const struct opts *o, const struct diff_gate **unknown)
{
	int status = 0;
	if (o->folded) {
		diff_write_folded(sd->ps[0], sd->ps[1], stdout);
		return 0;
	}
	diff *d = diff_new(sd->sums[0], sd->sums[1], &sd->base);
	*unknown = diff_gate_unknown(d, o->gates, o->ngates);
	if (!*unknown) {
		if (o->format == TABLE_TEXT)
			write_header(d, &sd->base, sd->by_time ? sd->nblocks : o->nfiles, sd->paired_by,
				     sd->by_time);
		table *t = diff_table(d, o->limit, o->format == TABLE_TEXT ? 0 : DIFF_TABLE_TEST);
		table_write(t, stdout, o->format, (o->keys.nkeys == 1 ? TABLE_TEXT_KEY_LAST : 0) | o->wide);
		table_free(t);
		if (diff_check_gates(d, o->gates, o->ngates) | diff_check_any(d, o->any_points))
			status = EXIT_DATA;
	}
	diff_free(d);
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = { .keys = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 }, .limit = 20, .format = TABLE_TEXT,
			 .any_points = NAN, .min_share = NAN };
	struct rules_opts ropts = { 0 };
	struct load_opts lopts = { 0 };
	struct err_lines errs;

	char *outbuf = err_start(argv[0], &errs);
	int first = parse_options(argc, argv, &o, &lopts, &ropts, &errs);
	take_sides(&o, &lopts, argv + first, argc - first);

	struct sides sd = { 0 };
	int status = read_sides(&sd, &o, &lopts, &errs), empty_side = 0;
	err_lines_finish(&errs);
	for (int s = 0; s < 2; s++)
		if (load_report_empty(&sd.read[s], s ? "the after profile" : "the before profile"))
			empty_side = 1;
	if (sd.sums[0] && !empty_side)
		agg_note_missing(sd.sums[0], &o.keys);
	const struct diff_gate *unknown = NULL;
	if (empty_side)
		status = EXIT_DATA; /* a side that parsed nothing makes no comparison */
	else
		status |= compare(&sd, &o, &unknown);
	err_finish(outbuf);

	sides_free(&sd, &o);
	for (int s = 0; s < 2; s++)
		free(o.files[s]);
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	char msg[256];
	if (unknown) /* reported once everything is freed */
		snprintf(msg, sizeof msg, "--fail-if-grows: '%.*s' is in neither profile (--by %s): the "
			 "gate could never fail", (int)unknown->key_len, unknown->key,
			 frame_key_names[o.keys.keys[0]]);
	free(o.gates);
	if (unknown)
		cli_usage_error(&spec, "%s", msg);
	return status;
}
