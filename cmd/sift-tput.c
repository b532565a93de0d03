/* sift-tput: throughput series out of training logs, their spread, and before/after verdicts. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/series.h"
#include "../lib/table.h"
#include "../lib/tput.h"
#include "../lib/tputout.h"
#include "../lib/tputread.h"
#include "../lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_PRESET = 'p', OPT_REGEX = 'e', OPT_UNIT = 'u', OPT_RANK = 'r', OPT_STATS = 's',
	OPT_COMPARE = 'c', OPT_LIST = 0x2000, OPT_EXPLAIN, OPT_TAKE, OPT_WARMUP, OPT_PER_RANK, OPT_BEFORE,
	OPT_AFTER, OPT_FAIL_BELOW, OPT_MIN_EFFECT,
};

static const struct cli_option options[] = {
	CLI_ROW_STR("preset", OPT_PRESET, "NAME", "use this preset only (repeatable; 'none' for --regex alone)"),
	CLI_ROW_STR("regex", OPT_REGEX, "RE", "add a PCRE2 rule with named groups tput, unit, step, time, "
		    "loss, rank"),
	CLI_ROW_FLAG("list-presets", OPT_LIST, "list the presets with an example line each"),
	CLI_ROW_FLAG("explain", OPT_EXPLAIN, "show each candidate series (a template's figures of one unit), "
		     "whether it was taken, and why not"),
	CLI_ROW_STR("take", OPT_TAKE, "N|KEY", "take a candidate left out, by its --explain number or its key "
		    "(repeatable)"),
	CLI_ROW_STR("unit", OPT_UNIT, "UNIT", "keep one canonical unit (tokens/s, tokens/s/gpu, samples/s, "
		    "it/s, ...)"),
	CLI_ROW_UINT("rank", OPT_RANK, "N", "keep the lines of one rank"),
	CLI_ROW_FLAG("stats", OPT_STATS, "summarize per source and unit instead of listing the series"),
	CLI_ROW_STR("warmup", OPT_WARMUP, "N|P%", "skip the first N steps or P% of points in stats "
		    "(default 10%)"),
	CLI_ROW_FLAG("per-rank", OPT_PER_RANK, "keep every rank's copy of a step (default: lowest rank only)"),
	CLI_ROW_FLAG("compare", OPT_COMPARE, "compare two logs: sift-tput --compare BEFORE AFTER"),
	CLI_ROW_FILES("before", OPT_BEFORE, "FILE...", "the before logs: every file up to the next option "
		      "(repeatable; implies --compare)"),
	CLI_ROW_FILES("after", OPT_AFTER, "FILE...", "the after logs: every file up to the next option "
		      "(repeatable; implies --compare)"),
	CLI_ROW_REAL("fail-below", OPT_FAIL_BELOW, "R", "exit 1 when the speedup interval's upper bound is "
		     "below R"),
	CLI_ROW_REAL_RANGE("min-effect", OPT_MIN_EFFECT, "PCT", CLI_MIN | CLI_BELOW_MAX, 0, 100,
			   "a percentage, 0 to below 100",
			   "a change within +-PCT% is no meaningful change (default 1)"),
	TABLE_FORMAT_ROW,
	CLI_ROW_JOBS,
	CLI_ROW_VERBOSE,
	CLI_ROW_STRICT,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...\n       sift-tput --compare [OPTION]... BEFORE AFTER\n"
	"       sift-tput [OPTION]... --before FILE... --after FILE...",
	"Extract throughput from training logs: a TSV series (source line rank step time value "
	"unit loss), --stats per source and unit, or --compare before and after logs.",
	options,
	"Without --preset every line is tried against every preset, in the order --list-presets shows.\n"
	"Exit status: 0 ok, 1 no throughput found, unreadable input, or --fail-below tripped, "
	"2 usage error.\n",
};

struct opts {
	int stats, list, explain;
	struct tputread_opts read;  /* --unit, --rank, --jobs; -v and --strict read in order */
	struct series_keep keep;    /* --warmup, --per-rank */
	double fail_below;         /* NaN: none */
	double min_effect;         /* --min-effect, a fraction */
	enum table_format format;
	char **before, **after;
	size_t nbefore, nafter, bcap, acap, tcap;
	int compare, min_effect_given;
	char **regexes;             /* --regex, in order */
	size_t nregex, rcap;
	char *chosen;               /* --preset: chosen[i] for preset i */
	int any_preset;
};

static void no_match(const tput_ex *ex, const struct tputread *r, const char *what)
{
	size_t inference = tputread_inference_lines(r), other = 0;
	for (size_t i = 0; i < r->ncands; i++)
		other += strncmp(r->cands[i].c.why, "inference", 9) != 0;
	if (other) {  /* figures were read, none taken: name the best and how to take one */
		char best[1024];
		tputout_best_cands(best, sizeof best, r->cands, r->ncands);
		err_warn("no training series taken in %s; candidates: %s", what, best);
		err_warn("take one with --take N (sift-tput --explain lists them all)");
		return;
	}
	if (inference) {
		err_warn("no training throughput in %s (%zu inference line%s seen)", what, inference,
			 inference == 1 ? "" : "s");
		return;
	}
	if (r->looks_like) {  /* a profile or a dump given as a log */
		const char *name = strcmp(r->looks_path, "-") == 0 ? "standard input" : r->looks_path;
		err_warn("no throughput found: %s looks like %s", name, r->looks_like);
		return;
	}
	size_t cap = 64, len = 0;
	char *names = xmalloc(cap);
	names[0] = '\0';
	for (size_t i = 0; i < tput_ex_rules(ex); i++) {
		const char *n = tput_ex_rule_name(ex, i);
		names = xgrow(names, &cap, len + strlen(n) + 3, 1);
		len += (size_t)sprintf(names + len, "%s%s", i ? ", " : "", n);
	}
	err_warn("no throughput found in %s (tried: %s)", what, names);
	free(names);
}

/* Units on one side only are named; a regression below --fail-below fails the run. */
static int compare_logs(const struct series_set *before, const struct series_set *after, const struct opts *o,
			const struct err_lines *errs)
{
	size_t n, compared = 0;
	int status = EXIT_OK;
	struct series_unit_cmp *c = series_compare(before, after, &o->keep, o->min_effect, &n);
	for (size_t i = 0; i < n; i++) {
		const char *u = tputunit_names[c[i].unit];
		if (c[i].side != SERIES_BOTH) {
			err_warn("%s: only in the %s logs, not compared", u,
				 c[i].side == SERIES_BEFORE_ONLY ? "before" : "after");
			continue;
		}
		compared++;
		if (c[i].cmp.ok && !isnan(o->fail_below) && c[i].cmp.high < o->fail_below) {
			err_warn("%s: regression: speedup interval upper bound %.4f is below %g", u,
				 c[i].cmp.high, o->fail_below);
			status = EXIT_DATA;
		}
	}
	if (compared == 0) {
		err_warn("no unit in common between the before and after logs");
		status = EXIT_DATA;
	} else {
		tputout_compare(stdout, c, n, &o->keep, o->format, errs->bad);
	}
	free(c);
	return status;
}

static void add_files(char ***files, size_t *n, size_t *cap, const struct cli_value *v)
{
	*files = xgrow(*files, cap, *n + v->n, sizeof **files);
	memcpy(*files + *n, v->list, v->n * sizeof **files);
	*n += v->n;
}

static void take_option(struct opts *o, int key, const struct cli_value *v, struct err_lines *errs)
{
	const char *value = v->text;
	switch (key) {
	case OPT_PRESET:
		o->any_preset = 1;
		if (strcmp(value, "none") != 0) {
			int p = tputpreset_find(value);
			if (p < 0)
				cli_usage_error(&spec, "--preset: unknown preset '%s' (see --list-presets)", value);
			o->chosen[p] = 1;
		}
		break;
	case OPT_REGEX:
		o->regexes = xgrow(o->regexes, &o->rcap, o->nregex + 1, sizeof *o->regexes);
		o->regexes[o->nregex++] = (char *)value;
		break;
	case OPT_LIST: o->list = 1; break;
	case OPT_EXPLAIN: o->explain = o->read.explain = o->read.in_order = 1; break;
	case OPT_TAKE:
		o->read.take = xgrow(o->read.take, &o->tcap, o->read.ntake + 1, sizeof *o->read.take);
		o->read.take[o->read.ntake++] = (char *)value;
		o->read.in_order = 1;  /* keys are known to the one extractor */
		break;
	case OPT_UNIT: {
		enum tput_unit u;
		double scale;
		int inv;
		if (!tputunit_parse(value, strlen(value), &u, &scale, &inv))
			cli_usage_error(&spec, "--unit: unknown unit '%s'", value);
		o->read.unit = (int)u;
		break;
	}
	case OPT_RANK: o->read.rank = (long)v->u; break;
	case OPT_STATS: o->stats = 1; break;
	case OPT_WARMUP:
		if (series_keep_parse(&o->keep, value) != 0)
			cli_usage_error(&spec, "--warmup: expected N steps or P%% below 100, not '%s'", value);
		break;
	case OPT_PER_RANK: o->keep.per_rank = 1; break;
	case OPT_COMPARE: o->compare = 1; break;
	case OPT_BEFORE: add_files(&o->before, &o->nbefore, &o->bcap, v); break;
	case OPT_AFTER: add_files(&o->after, &o->nafter, &o->acap, v); break;
	case OPT_FAIL_BELOW: o->fail_below = v->d; break;
	case OPT_MIN_EFFECT: o->min_effect = v->d / 100; o->min_effect_given = 1; break;
	case TABLE_KEY_FORMAT: o->format = (enum table_format)v->choice; break;
	case CLI_KEY_VERBOSE: o->read.in_order = errs->verbose = 1; break;
	case CLI_KEY_STRICT: o->read.in_order = errs->strict = 1; break;
	case CLI_KEY_JOBS: o->read.jobs = (unsigned)v->u; break;
	default: cli_usage_error(&spec, NULL);
	}
}

/* The logs compared: --before/--after, or --compare's BEFORE AFTER. */
static void check_sides(struct opts *o, char **files, size_t nfiles)
{
	if (o->nbefore || o->nafter) {
		o->compare = 1;
		if (!o->nbefore || !o->nafter || nfiles)
			cli_usage_error(&spec, "--before and --after need each other and no other files");
	} else if (o->compare) {
		if (nfiles != 2)
			cli_usage_error(&spec, "--compare takes two logs, BEFORE and AFTER (or --before/--after)");
		o->before = files;
		o->after = files + 1;
		o->nbefore = o->nafter = 1;
	}
	if (!o->compare && !isnan(o->fail_below))
		cli_usage_error(&spec, "--fail-below goes with --compare");
	if (!o->compare && o->min_effect_given)
		cli_usage_error(&spec, "--min-effect goes with --compare");
}

static tput_ex *new_extractor(const struct opts *o)
{
	tput_ex *ex = tput_ex_new();
	for (size_t i = 0; i < o->nregex; i++) {
		char err[256];
		if (tput_ex_add_regex(ex, o->regexes[i], err, sizeof err) != 0)
			cli_usage_error(&spec, "--regex: %s", err);
	}
	for (size_t i = 0; i < tputpreset_count; i++)
		if (!o->any_preset || o->chosen[i])
			tput_ex_add_preset(ex, i);
	if (tput_ex_rules(ex) == 0)
		cli_usage_error(&spec, "--preset none leaves no rule: add --regex");
	return ex;
}

static int run_explain(struct tputread *r, const struct opts *o, char **files, size_t nfiles)
{
	int status = EXIT_OK;
	struct series_set set = { NULL, 0, 0 };
	r->set = &set;
	if (o->compare) {
		status |= tputread_logs(r, o->before, o->nbefore);
		status |= tputread_logs(r, o->after, o->nafter);
	} else {
		status |= tputread_logs(r, files, nfiles);
	}
	tputout_explain(stdout, r->cands, r->ncands, o->format);
	if (r->points == 0) {
		no_match(r->ex, r, "the input");
		status = EXIT_DATA;
	}
	series_set_free(&set);
	return status;
}

static int run_compare(struct tputread *r, const struct opts *o, const struct err_lines *errs)
{
	int status = EXIT_OK;
	struct series_set before = { NULL, 0, 0 }, after = { NULL, 0, 0 };
	r->set = &before;
	status |= tputread_logs(r, o->before, o->nbefore);
	unsigned long nb = r->points;
	r->set = &after;
	r->points = 0;
	status |= tputread_logs(r, o->after, o->nafter);
	if (nb == 0 || r->points == 0) {
		no_match(r->ex, r, nb == 0 ? "the before logs" : "the after logs");
		status = EXIT_DATA;
	} else {
		status |= compare_logs(&before, &after, o, errs);
	}
	series_set_free(&before);
	series_set_free(&after);
	return status;
}

static int run_series(struct tputread *r, const struct opts *o, char **files, size_t nfiles,
		      const struct err_lines *errs)
{
	int status = EXIT_OK;
	struct series_set set = { NULL, 0, 0 };
	if (o->stats)
		r->set = &set;
	status |= tputread_logs(r, files, nfiles);
	if (r->points == 0) {
		no_match(r->ex, r, nfiles ? "the input" : "standard input");
		status = EXIT_DATA;
	} else if (o->stats) {
		tputout_stats(stdout, &set, &o->keep, o->format, errs->bad);
	}
	if (errs->verbose && r->nans)
		err_warn("%lu nan value%s counted and left out", r->nans, r->nans == 1 ? "" : "s");
	series_set_free(&set);
	return status;
}

static void opts_free(struct opts *o, char **files)
{
	free(o->read.take);
	free(o->chosen);
	free(o->regexes);
	if (o->before != files) {
		free(o->before);
		free(o->after);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct err_lines errs;
	struct cli_value v;
	int key, first;

	char *outbuf = err_start(argv[0], &errs);
	o.read = (struct tputread_opts){ -1, -1, 0, 0, 0, NULL, 0 };
	o.keep = (struct series_keep){ 0, 1, 10 };
	o.fail_below = NAN;
	o.min_effect = SERIES_MIN_EFFECT;
	o.chosen = xcalloc(tputpreset_count, 1);
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1)
		take_option(&o, key, &v, &errs);
	char **files = argv + first;
	size_t nfiles = (size_t)(argc - first);
	if (o.list) {
		opts_free(&o, files);
		tputout_presets(stdout, o.format);
		err_finish(outbuf);
		return EXIT_OK;
	}
	check_sides(&o, files, nfiles);
	tput_ex *ex = new_extractor(&o);
	errs.limit = 0; /* bad lines are counted; -v names them */

	struct tputread r = { &o.read, ex, &errs, NULL, stdout, 0, 0, 0, NULL, 0, 0, 0, NULL, NULL, NULL };
	int status;
	if (o.explain)
		status = run_explain(&r, &o, files, nfiles);
	else if (o.compare)
		status = run_compare(&r, &o, &errs);
	else
		status = run_series(&r, &o, files, nfiles, &errs);
	for (size_t t = 0; t < o.read.ntake; t++)
		if (t < 64 && !(r.takes_used >> t & 1))
			err_warn("--take %s: no candidate of that number or key (see --explain)", o.read.take[t]);
	if (errs.bad && !errs.verbose)
		err_warn("%lu bad line%s left out (-v names them)", errs.bad, errs.bad == 1 ? "" : "s");
	err_finish(outbuf);
	tputread_free(&r);
	tput_ex_free(ex);
	opts_free(&o, files);
	return status ? EXIT_DATA : EXIT_OK;
}
