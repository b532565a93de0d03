/* sift-ranks: many processes' py-spy dumps grouped by what they are doing; which rank is stuck. */
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/ranks.h"
#include "../lib/rx.h"
#include "../lib/sniff.h"
#include "../lib/table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_FORMAT = 'f', OPT_THREAD = 't', OPT_VERBOSE = 'v', OPT_FROM = 0x2000, OPT_ALL_THREADS,
       OPT_NO_LINES, OPT_RANK_FROM, OPT_TREE, OPT_FOLDED, OPT_STRICT, OPT_WIDE };

static const struct cli_option options[] = {
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	TABLE_WIDE_ROW(OPT_WIDE),
	{ "thread", OPT_THREAD, "RE", "group by the first thread whose `thread (TID): NAME` matches RE" },
	{ "all-threads", OPT_ALL_THREADS, NULL, "group by the whole set of a process's thread stacks" },
	{ "no-lines", OPT_NO_LINES, NULL, "compare frames without their line numbers" },
	{ "rank-from", OPT_RANK_FROM, "RE", "rank: RE's group 1 in the command line, label or file name" },
	{ "tree", OPT_TREE, NULL, "the merged prefix tree: each frame once, with the ranks that reached it" },
	{ "folded", OPT_FOLDED, NULL, "folded stacks, each group's under a root frame [ranks LIST]" },
	{ "from", OPT_FROM, "FMT", "dump input format: auto (default, from content), dump, json" },
	{ "strict", OPT_STRICT, NULL, "a bad input line is fatal (exit 1)" },
	{ "verbose", OPT_VERBOSE, NULL, "name every bad and skipped line" },
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Group many processes' py-spy dumps (one file each, --subprocesses or shell-loop\n"
	"concatenations, snapshots over time, pastes behind srun/docker-compose/torchrun labels,\n"
	"timestamps, markdown fences or quotes; text or --json) by their main thread's stack.\n"
	"Each process is named by its rank (sglang::scheduler_TP3, VLLM::Worker_TP1,\n"
	"--local_rank=N, a label, rank3.txt; else its pid). One row per group, largest first,\n"
	"with where it parts from the largest; then a verdict naming the odd one out.",
	options,
	"Stacks are compared with addresses collapsed per library and thread ids dropped.\n"
	"--rank-from takes group 1 of RE (else the whole match) in a process's command line, its\n"
	"paste label or its file name, the first it matches. --thread matches `thread (TID): NAME`\n"
	"(a NCCL watchdog, forward_thread_func).\n"
	"Exit status: 0 ok, 1 unreadable input, no dump snapshot, or bad lines with --strict,\n"
	"2 usage error.\n",
};

struct opts {
	enum table_format format;
	unsigned wide;          /* TABLE_TEXT_WIDE: keys whole */
	enum load_format from;
	int tree, folded;
	struct ranks_opts ranks;
};

static rx *pattern(const char *option, const char *value)
{
	char err[256];
	rx *re = rx_compile(value, strlen(value), err, sizeof err);
	if (!re)
		cli_usage_error(&spec, "%s: %s", option, err);
	return re;
}

/* Options into o; returns the index of the first file. */
static int parse(int argc, char **argv, struct opts *o, struct err_lines *errs)
{
	static const char *const from_names[] = { "auto", "dump", "json", NULL };
	static const enum load_format from_map[] = { LOAD_AUTO, LOAD_DUMP, LOAD_JSON };
	const char *value;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_WIDE: o->wide = TABLE_TEXT_WIDE; break;
		case OPT_FORMAT:
			o->format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_FROM: o->from = from_map[cli_choice(&spec, "--from", value, from_names)]; break;
		case OPT_THREAD:
			rx_free(o->ranks.thread);
			o->ranks.thread = pattern("--thread", value);
			break;
		case OPT_RANK_FROM:
			rx_free(o->ranks.rank_from);
			o->ranks.rank_from = pattern("--rank-from", value);
			break;
		case OPT_ALL_THREADS: o->ranks.all_threads = 1; break;
		case OPT_NO_LINES: o->ranks.no_lines = 1; break;
		case OPT_TREE: o->tree = 1; break;
		case OPT_FOLDED: o->folded = 1; break;
		case OPT_STRICT: errs->strict = 1; break;
		case OPT_VERBOSE: errs->verbose = 1; break;
		default: cli_usage_error(&spec, NULL);
		}
	}
	if (o->tree && o->folded)
		cli_usage_error(&spec, "--tree and --folded are two outputs: give one");
	if (o->ranks.thread && o->ranks.all_threads)
		cli_usage_error(&spec, "--thread and --all-threads group by different threads: give one");
	if ((o->tree || o->folded) && o->format != TABLE_TEXT)
		cli_usage_error(&spec, "--format is for the table; --tree and --folded are text");
	return first;
}

/* The table and the verdict: text and markdown carry both, tsv, csv and json the table. */
static void write_table(const ranks *r, enum table_format format, unsigned wide, const struct sniff_dumps *found,
			unsigned long bad)
{
	if (format == TABLE_TEXT)
		printf("processes %zu  groups %zu  snapshots %llu  bad lines %lu\n", ranks_processes(r),
		       ranks_groups(r), (unsigned long long)found->snapshots, bad);
	table *t = ranks_table(r);
	table_write(t, stdout, format, wide);
	table_free(t);
	if (format == TABLE_TEXT) {
		putchar('\n');
		ranks_write_verdict(r, stdout);
	} else if (format == TABLE_MD) { /* a list, so markdown keeps the lines apart */
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		int ok = mem && ranks_write_verdict(r, mem) == 0;
		if (mem && fclose(mem) != 0)
			ok = 0;
		if (ok) {
			putchar('\n');
			for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
				printf("- %s\n", line);
		}
		free(text);
	}
}

int main(int argc, char **argv)
{
	struct opts o = { TABLE_TEXT, 0, LOAD_AUTO, 0, 0, { 0 } };
	struct err_lines errs;
	err_set_prog(argv[0]);
	char *outbuf = err_buffer_stdout();
	err_lines_init(&errs);
	int first = parse(argc, argv, &o, &errs);

	ranks *r = ranks_new(&o.ranks, &errs);
	struct sniff_dumps found;
	int status = sniff_read_dumps(argv + first, (size_t)(argc - first), o.from, &errs, ranks_thread, r,
				      &found);
	if (sniff_report_no_dumps(&found))
		status = EXIT_DATA;
	err_lines_finish(&errs);
	ranks_finish(r);

	if (!found.snapshots && found.lines) {
		/* nothing parsed: said on stderr, no empty table */
	} else if (o.tree) {
		ranks_write_tree(r, stdout);
		putchar('\n');
		ranks_write_verdict(r, stdout);
	} else if (o.folded) {
		ranks_write_folded(r, stdout);
	} else {
		write_table(r, o.format, o.wide, &found, errs.bad);
	}
	err_close_stdout();
	free(outbuf);

	ranks_free(r);
	rx_free(o.ranks.thread);
	rx_free(o.ranks.rank_from);
	return status;
}
