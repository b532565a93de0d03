/* sift-gil: how much of the CPU burn holds the GIL, from an all-threads profile and a --gil one. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/gil.h"
#include "../lib/load.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/sniff.h"
#include "../lib/sum.h"
#include "../lib/table.h"
#include "../lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_BY = 'b', OPT_N = 'n',
	OPT_TOTAL = 0x2000, OPT_GIL, OPT_TOTAL_SECONDS, OPT_GIL_SECONDS, OPT_TOTAL_RATE,
	OPT_GIL_RATE, OPT_ONLY, OPT_DUMPS, OPT_PID,
};

static const struct cli_option options[] = {
	CLI_ROW_FILES("total", OPT_TOTAL, "FILE...",
		      "the all-threads profile: every file up to the next option (repeatable)"),
	CLI_ROW_FILES("gil", OPT_GIL, "FILE...",
		      "the py-spy --gil profile: every file up to the next option (repeatable)"),
	CLI_ROW_POSITIVE("total-seconds", OPT_TOTAL_SECONDS, "S", NULL, "duration of the all-threads recording"),
	CLI_ROW_POSITIVE("gil-seconds", OPT_GIL_SECONDS, "S", NULL, "duration of the --gil recording"),
	CLI_ROW_POSITIVE("total-rate", OPT_TOTAL_RATE, "HZ", NULL, "sampling rate of the all-threads recording"),
	CLI_ROW_POSITIVE("gil-rate", OPT_GIL_RATE, "HZ", NULL, "sampling rate of the --gil recording"),
	CLI_ROW_STR("by", OPT_BY, "KEY", "thread (default), function, file, frame, lib, line, root, process, "
		    "category, or two of them: KEY,KEY"),
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	CLI_ROW_UINT("top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)"),
	TABLE_FORMAT_ROW,
	CLI_ROW_CHOICE("only", OPT_ONLY, "PART", gil_part_names, "print only the summary or the keys table"),
	CLI_ROW_FLAG("dumps", OPT_DUMPS, "FILEs are py-spy dump snapshots: GIL figures from thread statuses"),
	CLI_ROW_UINT("pid", OPT_PID, "PID", "keep one process (the figures are per process: one GIL each)"),
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_INPUT_ROWS,
	PROFOPT_TO_ROW,
	PROFOPT_SHARE_ROWS,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... TOTAL GIL\n       sift-gil [OPTION]... --total FILE... --gil FILE...\n"
	"       sift-gil --dumps [OPTION]... FILE...",
	"Compare an all-threads profile (TOTAL) with a py-spy record --gil profile (GIL) of the same "
	"job: how much of the CPU burn holds the GIL, in all and per key. With each recording's "
	"seconds (and rate), the GIL utilization (share of wall time some thread held the GIL), "
	"the mean number of active threads, and the GIL share of active samples. Each process has "
	"its own GIL: with several (py-spy --subprocesses, or dumps of several PIDs) every figure "
	"is per process, one summary row each.",
	options,
	"Exit status: 0 ok, 1 data error (unreadable or empty profile, impossible counts), 2 usage.\n",
};

/* The files of one recording. */
struct recording {
	char **files;
	size_t nfiles;
};

struct opts {
	struct agg_spec keys;
	unsigned long long limit;
	enum table_format format;
	enum gil_part only;
	const char *pid;
	struct recording total, gil;   /* --total, --gil, or TOTAL GIL */
	struct gil_side ts, gs;        /* --total-seconds and -rate, --gil-seconds and -rate */
	double rate;                   /* --rate: both recordings' */
	int named, dumps;              /* --total or --gil given; --dumps */
};

static void add_files(struct recording *r, char **files, size_t n)
{
	r->files = xrealloc(r->files, (r->nfiles + n) * sizeof *r->files);
	memcpy(r->files + r->nfiles, files, n * sizeof *files);
	r->nfiles += n;
}

/* Sum one recording by process and the table's keys as it is read: stacks are not kept. */
static gil_split *load_side(const struct recording *r, const struct load_opts *lopts,
			    const struct agg_spec *keys, struct err_lines *errs, int *status)
{
	gil_split *s = gil_split_new(keys);
	if (gil_split_read(s, r->files, r->nfiles, lopts, errs) != 0)
		*status = EXIT_DATA;
	load_report_unshown(gil_split_stats(s), r->nfiles ? r->files[0] : "standard input");
	return s;
}

/* --dumps: the same questions answered from py-spy dump statuses. */
static int run_dumps(char **files, size_t nfiles, const struct opts *o, struct err_lines *errs,
		     enum load_format from)
{
	gil_dumps *d = gil_dumps_new();
	gil_dumps_keep_pid(d, o->pid);
	struct sniff_dumps found;
	int status = sniff_read_dumps(files, nfiles, from, errs, gil_dumps_thread, d, &found);
	uint64_t snapshots = found.snapshots;
	err_lines_finish(errs);
	/* no answer: said, and the tool ends as it does after any data error */
	int none = sniff_report_no_dumps(&found);
	if (!none && snapshots == 0) {
		err_warn("no py-spy dump snapshots in the input");
		none = 1;
	} else if (!none && o->pid && gil_dumps_processes(d) == 0) {
		err_warn("no snapshot of process %s in the input", o->pid);
		none = 1;
	}
	if (none) {
		gil_dumps_free(d);
		return EXIT_DATA;
	}
	if (o->pid)
		snapshots = gil_dumps_process_snapshots(d, 0);
	table *keys = o->only != GIL_SUMMARY ? gil_dumps_table(d, snapshots, o->limit) : NULL;
	if (gil_dumps_processes(d) > 1) {
		table *procs = gil_dumps_procs_summary(d);
		gil_write_table(stdout, o->format, o->only, procs, keys, 0);
		table_free(procs);
	} else {
		struct gil_figure summary[GIL_FIGURES_MAX];
		size_t n = gil_dumps_summary(d, snapshots, summary);
		gil_write(stdout, o->format, o->only, summary, n, keys, TABLE_TEXT_KEY_LAST);
	}
	table_free(keys);
	gil_dumps_free(d);
	return status;
}

/* By thread: do the two recordings share a thread? Two unrelated processes share none, and
 * that is the message, not "different length or rate?". Returns 1 when said (exit 1). */
static int no_thread_in_common(const gil_split *total, const gil_split *gil, size_t nprocs,
			       const struct agg_spec *keys, int *status)
{
	if (keys->nkeys != 1 || keys->keys[0] != KEY_THREAD)
		return 0;
	size_t common = 0, threads = 0;
	for (size_t i = 0; i < nprocs; i++) {
		struct agg_join_row *j;
		size_t n = agg_join(gil_split_proc(total, i)->sum, gil_split_proc(gil, i)->sum, &j);
		for (size_t r = 0; r < n; r++) {
			threads += j[r].side[1] != NULL;
			common += j[r].side[0] && j[r].side[1];
		}
		free(j);
	}
	if (common || !threads)
		return 0;
	err_warn("the all-threads and the GIL profiles have no thread in common: recordings of "
		 "different processes? (threads match by TID and name)");
	*status = EXIT_DATA;
	return 1;
}

static void take_option(struct opts *o, int key, const struct cli_value *v, struct load_opts *lopts,
			struct rules_opts *ropts, struct err_lines *errs)
{
	char msg[256];
	switch (key) {
	case OPT_TOTAL: add_files(&o->total, v->list, v->n); o->named = 1; break;
	case OPT_GIL: add_files(&o->gil, v->list, v->n); o->named = 1; break;
	case OPT_TOTAL_SECONDS: o->ts.seconds = v->d; break;
	case OPT_GIL_SECONDS: o->gs.seconds = v->d; break;
	case PROFOPT_RATE: o->rate = lopts->rate = v->d; break;  /* both recordings', also read by load */
	case OPT_TOTAL_RATE: o->ts.rate = v->d; break;
	case OPT_GIL_RATE: o->gs.rate = v->d; break;
	case OPT_BY:
		if (agg_parse_keys(v->text, &o->keys, msg, sizeof msg) != 0)
			cli_usage_error(&spec, "%s", msg);
		if (o->keys.keys[0] == KEY_SOURCE || (o->keys.nkeys == 2 && o->keys.keys[1] == KEY_SOURCE))
			cli_usage_error(&spec, "--by source: sift-gil reads its inputs as one");
		if (agg_spec_has(&o->keys, KEY_WINDOW))
			cli_usage_error(&spec, "--by window is sift-top's (a time series)");
		break;
	case OPT_N: o->limit = v->u; break;
	case TABLE_KEY_FORMAT: o->format = (enum table_format)v->choice; break;
	case OPT_ONLY: o->only = (enum gil_part)v->choice; break;
	case OPT_DUMPS: o->dumps = 1; break;
	case OPT_PID: o->pid = v->text; break;
	default:
		profopt_take(&spec, key, v, lopts, ropts, errs);
	}
}

/* Options into o; the two recordings (unless --dumps) checked; returns the first operand. */
static int parse_options(int argc, char **argv, struct opts *o, struct load_opts *lopts,
			 struct rules_opts *ropts, struct err_lines *errs)
{
	struct cli_value v;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1)
		take_option(o, key, &v, lopts, ropts, errs);
	o->keys.inclusive = ropts->inclusive;
	if (agg_inclusive_unused(&o->keys))
		cli_usage_error(&spec, "%s", agg_inclusive_unused(&o->keys));
	int operands = argc - first;
	if (o->dumps) {
		if (o->named || o->ts.seconds > 0 || o->gs.seconds > 0 || o->rate > 0 || o->ts.rate > 0 ||
		    o->gs.rate > 0)
			cli_usage_error(&spec, "--dumps takes dump files only: no profiles, seconds or rates");
		return first;
	}
	if (o->named && operands > 0)
		cli_usage_error(&spec, "give the profiles either as TOTAL GIL or with --total/--gil, not both");
	if (!o->named) {
		if (operands != 2)
			cli_usage_error(&spec, "expected two profiles, TOTAL and GIL; got %d", operands);
		add_files(&o->total, argv + first, 1);
		add_files(&o->gil, argv + first + 1, 1);
	}
	if (!o->total.nfiles || !o->gil.nfiles)
		cli_usage_error(&spec, "both --total and --gil profiles are needed");
	if ((o->ts.seconds > 0) != (o->gs.seconds > 0))
		cli_usage_error(&spec, "give both --total-seconds and --gil-seconds, or neither");
	/* Rules are read (and checked) before any input. */
	if (ropts->nfiles || agg_spec_needs_rules(&o->keys))
		if (!(o->keys.rules = rules_opts_load(ropts)))
			exit(EXIT_USAGE);
	return first;
}

/* A recording's own rate (py-spy's speedscope weights, austin's interval) wins; the options
 * fill in what it does not say. Returns 1 when 100 Hz was assumed. */
static int set_rates(struct opts *o, const gil_split *tsplit, const gil_split *gsplit)
{
	double trec = gil_split_stats(tsplit)->rate, grec = gil_split_stats(gsplit)->rate;
	o->ts.rate = trec > 0 ? trec : o->ts.rate ? o->ts.rate : o->rate;
	o->gs.rate = grec > 0 ? grec : o->gs.rate ? o->gs.rate : o->rate;
	if (o->ts.seconds > 0 && (!o->ts.rate || !o->gs.rate)) {
		o->ts.rate = o->ts.rate ? o->ts.rate : 100; /* py-spy records at 100 Hz unless told otherwise */
		o->gs.rate = o->gs.rate ? o->gs.rate : 100;
		return 1;
	}
	return 0;
}

/* The summary and keys tables: one process, or a row per process. */
static void write_figures(const gil_split *tsplit, const gil_split *gsplit, size_t nprocs, struct opts *o,
			  int rate_assumed)
{
	struct gil_figure summary[GIL_FIGURES_MAX];
	table *keys = NULL;
	if (nprocs == 1) {
		gil_split_sides(tsplit, gsplit, 0, &o->ts, &o->gs, &o->ts, &o->gs);
		size_t nsummary = gil_summary(&o->ts, &o->gs, rate_assumed, summary);
		keys = o->only != GIL_SUMMARY ? gil_keys_table(&o->ts, &o->gs, &o->keys, o->limit) : NULL;
		gil_write(stdout, o->format, o->only, summary, nsummary, keys,
			  o->keys.nkeys == 1 ? TABLE_TEXT_KEY_LAST : 0);
	} else {
		gil_summary(&o->ts, &o->gs, rate_assumed, summary);
		if (summary[GIL_FIGURES_MAX - 1].text) /* one note for every process */
			err_warn("note: %s", summary[GIL_FIGURES_MAX - 1].text);
		table *procs = gil_procs_summary(tsplit, gsplit, &o->ts, &o->gs);
		keys = o->only != GIL_SUMMARY ? gil_procs_keys(tsplit, gsplit, &o->ts, &o->gs, &o->keys, o->limit)
					      : NULL;
		gil_write_table(stdout, o->format, o->only, procs, keys, 0);
		table_free(procs);
	}
	table_free(keys);
}

/* The two profiles read, checked against each other, and written. */
static int run_profiles(struct opts *o, const struct load_opts *lopts, struct err_lines *errs)
{
	int status = EXIT_OK;
	gil_split *tsplit = load_side(&o->total, lopts, &o->keys, errs, &status);
	gil_split *gsplit = load_side(&o->gil, lopts, &o->keys, errs, &status);
	err_lines_finish(errs);
	int rate_assumed = set_rates(o, tsplit, gsplit);
	size_t nprocs = gil_split_align(tsplit, gsplit, o->pid);
	o->ts.samples = o->gs.samples = 0;
	for (size_t i = 0; i < nprocs; i++) {
		o->ts.samples += gil_split_proc(tsplit, i)->samples;
		o->gs.samples += gil_split_proc(gsplit, i)->samples;
	}
	/* no answer: said, and the tool ends as it does after any data error */
	char msg[512] = "";
	if (nprocs == 0)
		snprintf(msg, sizeof msg, "no process %s in the profiles", o->pid);
	else if (o->ts.samples == 0)
		snprintf(msg, sizeof msg, "the all-threads profile (%s) has no samples", o->total.files[0]);
	else
		gil_split_check_rate(gsplit, &o->gs, msg, sizeof msg);
	if (msg[0]) {
		err_warn("%s", msg);
		gil_split_free(tsplit);
		gil_split_free(gsplit);
		return EXIT_DATA;
	}
	if (!lopts->assume_cpu)
		gil_split_note_idle(tsplit, "the all-threads profile");
	if (o->gs.samples == 0 && status == EXIT_OK) /* an unreadable file was named already */
		err_warn("the GIL profile (%s) has no samples: no thread held the GIL, or py-spy could "
			 "not tell (py-spy before 0.4 on Python 3.12+, or a free-threaded build)", o->gil.files[0]);
	int unrelated = o->gs.samples && no_thread_in_common(tsplit, gsplit, nprocs, &o->keys, &status);
	if (!unrelated && o->gs.samples > o->ts.samples && !(o->ts.seconds > 0))
		err_warn("the GIL profile has more samples than the all-threads one: recordings of "
			 "different length or rate? give --total-seconds/--gil-seconds");
	if (!unrelated) /* figures of two unrelated recordings would be confident garbage */
		write_figures(tsplit, gsplit, nprocs, o, rate_assumed);
	gil_split_free(tsplit);
	gil_split_free(gsplit);
	return status;
}

int main(int argc, char **argv)
{
	struct opts o = { .keys = { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 }, .limit = 20,
			  .format = TABLE_TEXT, .only = GIL_BOTH };
	struct rules_opts ropts = { 0 };
	struct load_opts lopts = { 0 };
	struct err_lines errs;

	char *outbuf = err_start(argv[0], &errs);
	int first = parse_options(argc, argv, &o, &lopts, &ropts, &errs);
	int status;
	if (o.dumps)
		status = run_dumps(argv + first, (size_t)(argc - first), &o, &errs, lopts.from);
	else
		status = run_profiles(&o, &lopts, &errs);
	err_finish(outbuf);
	free(o.total.files);
	free(o.gil.files);
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	return status;
}
