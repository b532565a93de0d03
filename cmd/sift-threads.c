/* sift-threads: one row per thread of py-spy dump snapshots, joined by TID with top/ps/pidstat CPU. */
#include "../lib/cli.h"
#include "../lib/cputab.h"
#include "../lib/err.h"
#include "../lib/input.h"
#include "../lib/load.h"
#include "../lib/rules.h"
#include "../lib/sniff.h"
#include "../lib/table.h"
#include "../lib/threadtab.h"

#include <stdio.h>
#include <stdlib.h>

enum { OPT_CPU = 'c', OPT_FORMAT = 'f', OPT_FROM = 0x2000, OPT_STRICT, OPT_IDLE, OPT_WIDE, OPT_VERBOSE = 'v' };

static const struct cli_option options[] = {
	{ "cpu", OPT_CPU, "FILE", "per-thread CPU: top -H -b, ps -eLo pid,tid,pcpu,comm, ps -L or pidstat -t" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	TABLE_WIDE_ROW(OPT_WIDE),
	{ "from", OPT_FROM, "FMT", "dump input format: auto (default, from content), dump, json" },
	{ "strict", OPT_STRICT, NULL, "a bad input line is fatal (exit 1)" },
	{ "verbose", OPT_VERBOSE, NULL, "name every bad and skipped line" },
	{ "idle", OPT_IDLE, NULL, "accepted as in the other tools: idle threads are always listed here" },
	RULES_FILE_ROW,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"One row per thread of py-spy dump snapshots (text or --json, any number): snapshots seen,\n"
	"active, idle, holding the GIL, the most frequent leaf frame and where Python hands off to\n"
	"native code; with --cpu, the thread's CPU% joined by thread id. Threads that use CPU but\n"
	"never appear in a dump are listed too. Sorted by CPU, else by active snapshots.",
	options,
	"Exit status: 0 ok, 1 unreadable input, no dump snapshot or no --cpu row, or bad lines with\n"
	"--strict, 2 usage error.\n",
};

static const char *const from_names[] = { "auto", "dump", "json", NULL };

int main(int argc, char **argv)
{
	enum table_format format = TABLE_TEXT;
	unsigned wide = 0;
	enum load_format from = LOAD_AUTO;
	const char *cpu_path = NULL;
	struct rules_opts ropts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first;

	err_set_prog(argv[0]);
	char *outbuf = err_buffer_stdout();
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_CPU: cpu_path = value; break;
		case OPT_WIDE: wide = TABLE_TEXT_WIDE; break;
		case OPT_FORMAT:
			format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_FROM: {
			static const enum load_format map[] = { LOAD_AUTO, LOAD_DUMP, LOAD_JSON };
			from = map[cli_choice(&spec, "--from", value, from_names)];
			break;
		}
		case OPT_STRICT: errs.strict = 1; break;
		case OPT_VERBOSE: errs.verbose = 1; break;
		case OPT_IDLE: break; /* the idle column and idle-only threads are always shown */
		default:
			if (!rules_opts_handle(&ropts, key, value))
				cli_usage_error(&spec, NULL);
		}
	}

	rules *r = rules_opts_load(&ropts); /* read (and checked) before any input */
	threadtab *threads = threadtab_new(r);
	int status = 0;

	struct sniff_dumps found;
	if (sniff_read_dumps(argv + first, (size_t)(argc - first), from, &errs, threadtab_thread, threads,
			     &found))
		status = EXIT_DATA;
	uint64_t snapshots = found.snapshots;
	int no_dumps = sniff_report_no_dumps(&found);
	if (no_dumps)
		status = EXIT_DATA;

	cpu_table *cpu = NULL;
	if (cpu_path) {
		char *paths[] = { (char *)cpu_path };
		in_reader *cin = in_open(paths, 1);
		struct in_line line;
		cpu = cpu_new(&errs);
		while (in_next(cin, &line))
			cpu_line(cpu, &line);
		if (in_failed(cin)) {
			status = EXIT_DATA;
		} else if (cpu_count(cpu) == 0) {
			err_warn("%s: no thread CPU rows (expected top -H -b, ps -eLo pid,tid,pcpu,comm, "
				 "ps -L, ps -eLf or pidstat -t output)", cpu_path);
			status = EXIT_DATA;
		}
		in_close(cin);
	}
	err_lines_finish(&errs);

	/* Join by TID only; then threads with CPU that no dump saw, of the dumped processes. */
	size_t dumped = cpu ? threadtab_join_cpu(threads, cpu) : threadtab_count(threads);
	table *t = threadtab_table(threads);
	if (no_dumps) {
		; /* said why on stderr: an empty table would only hide it in a pipeline */
	} else if (format == TABLE_TEXT) {
		printf("snapshots %llu  threads %zu  in dumps %zu", (unsigned long long)snapshots,
		       threadtab_count(threads), dumped);
		if (cpu)
			printf("  cpu from %s, %zu threads", cpu_source_names[cpu_source(cpu)], cpu_count(cpu));
		printf("  bad lines %lu\n", errs.bad);
	}
	if (!no_dumps)
		table_write(t, stdout, format, wide);
	err_close_stdout();
	free(outbuf);

	table_free(t);
	threadtab_free(threads);
	cpu_free(cpu);
	rules_free(r);
	rules_opts_free(&ropts);
	return status;
}
