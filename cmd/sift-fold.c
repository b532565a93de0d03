/* sift-fold: profiles in, merged and filtered folded stacks out. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/pprofout.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/speedout.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { OPT_TO = 0x3000 };
static const char *const to_names[] = { "folded", "speedscope", "pprof", NULL };
enum to { TO_FOLDED, TO_SPEEDSCOPE, TO_PPROF };

static const struct cli_option options[] = {
	CLI_ROW_STR("to", OPT_TO, "FMT|SEC", "output format: folded (default), speedscope (JSON for "
		    "speedscope.app) or pprof (gzipped profile.proto for go tool pprof; not to a terminal); a "
		    "number: keep the samples before SEC seconds into each thread (speedscope, chrometrace)"),
	CLI_ROW_STR("rules", RULES_OPT_FILE, "FILE", "category rules for --to pprof's category label, "
		    "repeatable (default: the built-in set)"),
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_DUMP_ROWS,
	PROFOPT_INPUT_ROWS,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Merge py-spy profiles into folded stacks (\"frame;...;leaf COUNT\"), sorted, one line per "
	"distinct stack. Reads py-spy raw (folded), `py-spy dump` text and `py-spy dump --json` "
	"(each thread of each snapshot is one sample), py-spy's speedscope and chrometrace JSON, "
	"flame graph SVGs and austin samples, told apart by content. FILEs may be "
	"zstd- or gzip-compressed; none or - reads standard input.",
	options,
	"Exit status: 0 ok, 1 unreadable input, no line parsed, or bad lines with --strict, "
	"2 usage error.\n",
};

int main(int argc, char **argv)
{
	struct load_opts opts = { 0 };
	struct rules_opts ropts = { 0 };
	struct err_lines errs;
	struct cli_value v;
	int key, first;
	enum to to = TO_FOLDED;

	char *outbuf = err_start(argv[0], &errs);
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1)
		if (key == OPT_TO && timewin_parse_seconds(v.text, &(double){ 0 }) == 0)
			profopt_handle(&spec, PROFOPT_TO, &v, &opts, &errs);
		else if (key == OPT_TO)
			to = (enum to)cli_choice(&spec, "--to", v.text, to_names);
		else
			profopt_take(&spec, key, &v, &opts, &ropts, &errs);
	if (to == TO_PPROF && isatty(STDOUT_FILENO))
		cli_usage_error(&spec, "--to pprof writes gzipped binary: redirect standard output to a file or pipe");
	if (ropts.nfiles && to != TO_PPROF)
		cli_usage_error(&spec, "--rules only names the categories of --to pprof");
	/* Rules are read (and checked) before any input. */
	rules *r = to == TO_PPROF ? rules_opts_load(&ropts) : NULL;
	if (to == TO_PPROF && !r)
		exit(EXIT_USAGE);  /* said why; the options still held, as exit keeps them */

	prof *p = prof_new();
	struct load_stats st;
	int status = load_files(p, argv + first, (size_t)(argc - first), &opts, &errs, &st);
	err_lines_finish(&errs);
	int refused = load_report_empty(&st, "the input");
	if (refused)
		status = EXIT_DATA; /* nothing written: not a profile, or nothing in it */
	prof_sort(p);
	if (st.rate < 0 && to != TO_FOLDED && !refused)
		err_warn("the inputs record different sampling rates: time is at %g samples/s%s",
			 load_rate(&opts), opts.rate > 0 ? " (--rate)" : "; --rate sets it");
	/* Time as recorded: the inputs' own rate, else --rate; speedscope without one has none. */
	if (refused)
		;
	else if (to == TO_SPEEDSCOPE)
		speedout_write(p, st.rate > 0 ? st.rate : st.rate < 0 || opts.rate > 0 ? load_rate(&opts) : 0, stdout);
	else if (to == TO_PPROF)
		pprofout_write(p, r, load_rate_recorded(&st, &opts), stdout);
	else
		prof_write_folded(p, stdout);
	err_finish(outbuf);
	prof_free(p);
	rules_free(r);
	rules_opts_free(&ropts);
	profopt_free(&opts);
	return status;
}
