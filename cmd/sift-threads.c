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

enum { OPT_CPU = 'c', OPT_FROM = 0x2000, OPT_IDLE, OPT_WIDE };
static const char *const from_names[] = { "auto", "dump", "json", NULL };

static const struct cli_option options[] = {
	CLI_ROW_STR("cpu", OPT_CPU, "FILE", "per-thread CPU: top -H -b, ps -eLo pid,tid,pcpu,comm, ps -L or "
		    "pidstat -t"),
	TABLE_FORMAT_ROW,
	TABLE_WIDE_ROW(OPT_WIDE),
	CLI_ROW_CHOICE("from", OPT_FROM, "FMT", from_names, "dump input format: auto (default, from content), "
		       "dump, json"),
	CLI_ROW_STRICT,
	CLI_ROW_VERBOSE,
	CLI_ROW_FLAG("idle", OPT_IDLE, "accepted as in the other tools: idle threads are always listed here"),
	RULES_FILE_ROW,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"One row per thread of py-spy dump snapshots (text or --json, any number): snapshots seen, "
	"active, idle, holding the GIL, the most frequent leaf frame and where Python hands off to "
	"native code; with --cpu, the thread's CPU% joined by thread id. Threads that use CPU but "
	"never appear in a dump are listed too. Sorted by CPU, else by active snapshots.",
	options,
	"Exit status: 0 ok, 1 unreadable input, no dump snapshot or no --cpu row, or bad lines with "
	"--strict, 2 usage error.\n",
};

struct opts {
	enum table_format format;
	unsigned wide;
	enum load_format from;
	const char *cpu_path;
	struct rules_opts ropts;
};

/* Options into o; returns the index of the first file. */
static int parse_options(int argc, char **argv, struct opts *o, struct err_lines *errs)
{
	static const enum load_format from_map[] = { LOAD_AUTO, LOAD_DUMP, LOAD_JSON };
	struct cli_value v;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1) {
		switch (key) {
		case OPT_CPU: o->cpu_path = v.text; break;
		case OPT_WIDE: o->wide = TABLE_TEXT_WIDE; break;
		case TABLE_KEY_FORMAT: o->format = (enum table_format)v.choice; break;
		case OPT_FROM: o->from = from_map[v.choice]; break;
		case CLI_KEY_STRICT: errs->strict = 1; break;
		case CLI_KEY_VERBOSE: errs->verbose = 1; break;
		case OPT_IDLE: break; /* the idle column and idle-only threads are always shown */
		default:
			if (!rules_opts_handle(&o->ropts, key, v.text))
				cli_usage_error(&spec, NULL);
		}
	}
	return first;
}

/* --cpu FILE read; *status set to 1 when it is unreadable or holds no row. */
static cpu_table *read_cpu(const char *path, struct err_lines *errs, int *status)
{
	char *paths[] = { (char *)path };
	in_reader *cin = in_open(paths, 1);
	struct in_line line;
	cpu_table *cpu = cpu_new(errs);
	while (in_next(cin, &line))
		cpu_line(cpu, &line);
	if (in_failed(cin)) {
		*status = EXIT_DATA;
	} else if (cpu_count(cpu) == 0) {
		err_warn("%s: no thread CPU rows (expected top -H -b, ps -eLo pid,tid,pcpu,comm, "
			 "ps -L, ps -eLf or pidstat -t output)", path);
		*status = EXIT_DATA;
	}
	in_close(cin);
	return cpu;
}

int main(int argc, char **argv)
{
	struct opts o = { TABLE_TEXT, 0, LOAD_AUTO, NULL, { 0 } };
	struct err_lines errs;

	char *outbuf = err_start(argv[0], &errs);
	int first = parse_options(argc, argv, &o, &errs);

	rules *r = rules_opts_load(&o.ropts); /* read (and checked) before any input */
	if (!r)
		exit(EXIT_USAGE);  /* said why; the options still held, as exit keeps them */
	threadtab *threads = threadtab_new(r);
	int status = 0;

	struct sniff_dumps found;
	if (sniff_read_dumps(argv + first, (size_t)(argc - first), o.from, &errs, threadtab_thread, threads,
			     &found))
		status = EXIT_DATA;
	uint64_t snapshots = found.snapshots;
	int no_dumps = sniff_report_no_dumps(&found);
	if (no_dumps)
		status = EXIT_DATA;
	cpu_table *cpu = o.cpu_path ? read_cpu(o.cpu_path, &errs, &status) : NULL;
	err_lines_finish(&errs);

	/* Join by TID only; then threads with CPU that no dump saw, of the dumped processes. */
	size_t dumped = cpu ? threadtab_join_cpu(threads, cpu) : threadtab_count(threads);
	table *t = threadtab_table(threads, o.format != TABLE_TEXT ? 0 : o.wide ? THREADTAB_TEXT_WIDE : 1);
	if (no_dumps) {
		; /* said why on stderr: an empty table would only hide it in a pipeline */
	} else if (o.format == TABLE_TEXT) {
		printf("snapshots %llu  threads %zu  in dumps %zu", (unsigned long long)snapshots,
		       threadtab_count(threads), dumped);
		if (cpu)
			printf("  cpu from %s, %zu threads", cpu_source_names[cpu_source(cpu)], cpu_count(cpu));
		printf("  bad lines %lu\n", errs.bad);
	}
	if (!no_dumps)
		table_write(t, stdout, o.format, o.wide);
	err_finish(outbuf);

	table_free(t);
	threadtab_free(threads);
	cpu_free(cpu);
	rules_free(r);
	rules_opts_free(&o.ropts);
	return status;
}
