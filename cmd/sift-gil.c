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

enum {
	OPT_BY = 'b', OPT_N = 'n', OPT_FORMAT = 'f',
	OPT_TOTAL = 0x2000, OPT_GIL, OPT_TOTAL_SECONDS, OPT_GIL_SECONDS, OPT_TOTAL_RATE,
	OPT_GIL_RATE, OPT_ONLY, OPT_DUMPS, OPT_PID,
};

static const struct cli_option options[] = {
	{ "total", OPT_TOTAL, "FILE", "a file of the all-threads profile (repeatable)" },
	{ "gil", OPT_GIL, "FILE", "a file of the py-spy --gil profile (repeatable)" },
	{ "total-seconds", OPT_TOTAL_SECONDS, "S", "duration of the all-threads recording" },
	{ "gil-seconds", OPT_GIL_SECONDS, "S", "duration of the --gil recording" },
	{ "total-rate", OPT_TOTAL_RATE, "HZ", "sampling rate of the all-threads recording" },
	{ "gil-rate", OPT_GIL_RATE, "HZ", "sampling rate of the --gil recording" },
	{ "by", OPT_BY, "KEY", "thread (default), function, file, frame, lib, line, root, process,\n"
	  "                            category, or two of them: KEY,KEY" },
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	{ "only", OPT_ONLY, "PART", "print only the summary or the keys table" },
	{ "dumps", OPT_DUMPS, NULL, "FILEs are py-spy dump snapshots: GIL figures from thread statuses" },
	{ "pid", OPT_PID, "PID", "keep one process (the figures are per process: one GIL each)" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_INPUT_ROWS,
	PROFOPT_TO_ROW,
	PROFOPT_SHARE_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... TOTAL GIL\n       sift-gil [OPTION]... --total FILE... --gil FILE...\n"
	"       sift-gil --dumps [OPTION]... FILE...",
	"Compare an all-threads profile (TOTAL) with a py-spy record --gil profile (GIL) of the same\n"
	"job: how much of the CPU burn holds the GIL, in all and per key. With each recording's\n"
	"seconds (and rate), the GIL utilization (share of wall time some thread held the GIL),\n"
	"the mean number of active threads, and the GIL share of active samples. Each process has\n"
	"its own GIL: with several (py-spy --subprocesses, or dumps of several PIDs) every figure\n"
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
};

static void add_file(struct recording *r, char *file)
{
	r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
	r->files[r->nfiles++] = file;
}

static double positive(const char *option, const char *value)
{
	double d = cli_double(&spec, option, value);
	if (d <= 0)
		cli_usage_error(&spec, "%s must be above zero: '%s'", option, value);
	return d;
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
	if (sniff_report_no_dumps(&found))
		exit(EXIT_DATA);
	if (snapshots == 0)
		err_exit(EXIT_DATA, "no py-spy dump snapshots in the input");
	if (o->pid && gil_dumps_processes(d) == 0)
		err_exit(EXIT_DATA, "no snapshot of process %s in the input", o->pid);
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

int main(int argc, char **argv)
{
	struct opts o = { { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 }, 20, TABLE_TEXT, GIL_BOTH, NULL };
	struct rules_opts ropts = { 0 };
	char msg[256];
	struct recording tr = { 0 }, gr = { 0 };
	struct gil_side ts = { 0 }, gs = { 0 };
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first, named = 0, dumps = 0;
	double rate = 0;

	err_set_prog(argv[0]);
	char *outbuf = err_buffer_stdout();
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_TOTAL: add_file(&tr, (char *)value); named = 1; break;
		case OPT_GIL: add_file(&gr, (char *)value); named = 1; break;
		case OPT_TOTAL_SECONDS: ts.seconds = positive("--total-seconds", value); break;
		case OPT_GIL_SECONDS: gs.seconds = positive("--gil-seconds", value); break;
		case PROFOPT_RATE: /* both recordings' rate, also read by load */
			rate = positive("--rate", value);
			lopts.rate = rate;
			break;
		case OPT_TOTAL_RATE: ts.rate = positive("--total-rate", value); break;
		case OPT_GIL_RATE: gs.rate = positive("--gil-rate", value); break;
		case OPT_BY:
			if (agg_parse_keys(value, &o.keys, msg, sizeof msg) != 0)
				cli_usage_error(&spec, "%s", msg);
			if (o.keys.keys[0] == KEY_SOURCE || (o.keys.nkeys == 2 && o.keys.keys[1] == KEY_SOURCE))
				cli_usage_error(&spec, "--by source: sift-gil reads its inputs as one");
			if (agg_spec_has(&o.keys, KEY_WINDOW))
				cli_usage_error(&spec, "--by window is sift-top's (a time series)");
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_ONLY: o.only = (enum gil_part)cli_choice(&spec, "--only", value, gil_part_names); break;
		case OPT_DUMPS: dumps = 1; break;
		case OPT_PID:
			cli_ulong(&spec, "--pid", value);
			o.pid = value;
			break;
		default:
			if (!rules_opts_handle(&ropts, key, value) &&
			    !profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	o.keys.inclusive = ropts.inclusive;
	if (agg_inclusive_unused(&o.keys))
		cli_usage_error(&spec, "%s", agg_inclusive_unused(&o.keys));
	int operands = argc - first;
	if (dumps) {
		if (named || ts.seconds > 0 || gs.seconds > 0 || rate > 0 || ts.rate > 0 || gs.rate > 0)
			cli_usage_error(&spec, "--dumps takes dump files only: no profiles, seconds or rates");
		int st = run_dumps(argv + first, (size_t)operands, &o, &errs, lopts.from);
		err_close_stdout();
		free(outbuf);
		profopt_free(&lopts);
		rules_free(o.keys.rules);
		rules_opts_free(&ropts);
		return st;
	}
	if (named && operands > 0)
		cli_usage_error(&spec, "give the profiles either as TOTAL GIL or with --total/--gil, not both");
	if (!named) {
		if (operands != 2)
			cli_usage_error(&spec, "expected two profiles, TOTAL and GIL; got %d", operands);
		add_file(&tr, argv[first]);
		add_file(&gr, argv[first + 1]);
	}
	if (!tr.nfiles || !gr.nfiles)
		cli_usage_error(&spec, "both --total and --gil profiles are needed");
	if ((ts.seconds > 0) != (gs.seconds > 0))
		cli_usage_error(&spec, "give both --total-seconds and --gil-seconds, or neither");
	int timed = ts.seconds > 0;

	/* Rules are read (and checked) before any input. */
	if (ropts.nfiles || agg_spec_needs_rules(&o.keys))
		o.keys.rules = rules_opts_load(&ropts);

	int status = EXIT_OK;
	gil_split *tsplit = load_side(&tr, &lopts, &o.keys, &errs, &status);
	gil_split *gsplit = load_side(&gr, &lopts, &o.keys, &errs, &status);
	err_lines_finish(&errs);
	/* A recording's own rate (py-spy's speedscope weights, austin's interval) wins; the
	 * options fill in what it does not say. */
	int rate_assumed = 0;
	double trec = gil_split_stats(tsplit)->rate, grec = gil_split_stats(gsplit)->rate;
	ts.rate = trec > 0 ? trec : ts.rate ? ts.rate : rate;
	gs.rate = grec > 0 ? grec : gs.rate ? gs.rate : rate;
	if (timed && (!ts.rate || !gs.rate)) {
		rate_assumed = 1; /* py-spy records at 100 Hz unless told otherwise */
		ts.rate = ts.rate ? ts.rate : 100;
		gs.rate = gs.rate ? gs.rate : 100;
	}
	size_t nprocs = gil_split_align(tsplit, gsplit, o.pid);
	if (nprocs == 0)
		err_exit(EXIT_DATA, "no process %s in the profiles", o.pid);
	ts.samples = gs.samples = 0;
	for (size_t i = 0; i < nprocs; i++) {
		ts.samples += gil_split_proc(tsplit, i)->samples;
		gs.samples += gil_split_proc(gsplit, i)->samples;
	}
	if (ts.samples == 0)
		err_exit(EXIT_DATA, "the all-threads profile (%s) has no samples", tr.files[0]);
	gil_split_check_rate(gsplit, &gs);
	if (!lopts.assume_cpu)
		gil_split_note_idle(tsplit, "the all-threads profile");
	if (gs.samples == 0 && status == EXIT_OK) /* an unreadable file was named already */
		err_warn("the GIL profile (%s) has no samples: no thread held the GIL, or py-spy could "
			 "not tell (py-spy before 0.4 on Python 3.12+, or a free-threaded build)", gr.files[0]);
	int unrelated = gs.samples && no_thread_in_common(tsplit, gsplit, nprocs, &o.keys, &status);
	if (!unrelated && gs.samples > ts.samples && !timed)
		err_warn("the GIL profile has more samples than the all-threads one: recordings of "
			 "different length or rate? give --total-seconds/--gil-seconds");

	struct gil_figure summary[GIL_FIGURES_MAX];
	table *keys = NULL;
	if (unrelated) {
		; /* figures of two unrelated recordings would be confident garbage */
	} else if (nprocs == 1) {
		gil_split_sides(tsplit, gsplit, 0, &ts, &gs, &ts, &gs);
		size_t nsummary = gil_summary(&ts, &gs, rate_assumed, summary);
		keys = o.only != GIL_SUMMARY ? gil_keys_table(&ts, &gs, &o.keys, o.limit) : NULL;
		gil_write(stdout, o.format, o.only, summary, nsummary, keys,
			  o.keys.nkeys == 1 ? TABLE_TEXT_KEY_LAST : 0);
	} else {
		gil_summary(&ts, &gs, rate_assumed, summary);
		if (summary[GIL_FIGURES_MAX - 1].text) /* one note for every process */
			err_warn("note: %s", summary[GIL_FIGURES_MAX - 1].text);
		table *procs = gil_procs_summary(tsplit, gsplit, &ts, &gs);
		keys = o.only != GIL_SUMMARY ? gil_procs_keys(tsplit, gsplit, &ts, &gs, &o.keys, o.limit) : NULL;
		gil_write_table(stdout, o.format, o.only, procs, keys, 0);
		table_free(procs);
	}
	table_free(keys);
	err_close_stdout();
	free(outbuf);
	gil_split_free(tsplit);
	gil_split_free(gsplit);
	free(tr.files);
	free(gr.files);
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	return status;
}
