/* sift-fold: profiles in, merged and filtered folded stacks out. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"

#include <stdio.h>

static const struct cli_option options[] = {
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_TRANSFORM_ROWS,
	PROFOPT_DUMP_ROWS,
	PROFOPT_INPUT_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Merge py-spy profiles into folded stacks (\"frame;...;leaf COUNT\"), sorted, one line per\n"
	"distinct stack. Reads py-spy raw (folded), `py-spy dump` text and `py-spy dump --json`\n"
	"(each thread of each snapshot is one sample), told apart by content. FILEs may be\n"
	"zstd-compressed; none or - reads standard input.",
	options,
	"Exit status: 0 ok, 1 unreadable input, no line parsed, or bad lines with --strict,\n"
	"2 usage error.\n",
};

int main(int argc, char **argv)
{
	struct load_opts opts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1)
		if (!profopt_handle(&spec, key, value, &opts, &errs))
			cli_usage_error(&spec, NULL);

	prof *p = prof_new();
	struct load_stats st;
	int status = load_files(p, argv + first, (size_t)(argc - first), &opts, &errs, &st);
	err_lines_finish(&errs);
	if (load_report_empty(&st, "the input"))
		status = EXIT_DATA;
	prof_sort(p);
	prof_write_folded(p, stdout);
	err_close_stdout();
	prof_free(p);
	profopt_free(&opts);
	return status;
}
