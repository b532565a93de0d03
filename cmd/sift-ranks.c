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

enum { OPT_THREAD = 't', OPT_FROM = 0x2000, OPT_ALL_THREADS, OPT_NO_LINES, OPT_RANK_FROM, OPT_TREE,
       OPT_FOLDED, OPT_WIDE };
static const char *const from_names[] = { "auto", "dump", "json", NULL };

static const struct cli_option options[] = {
	TABLE_FORMAT_ROW,
	TABLE_WIDE_ROW(OPT_WIDE),
	CLI_ROW_STR("thread", OPT_THREAD, "RE", "group by the first thread whose `thread (TID): NAME` matches RE"),
	CLI_ROW_FLAG("all-threads", OPT_ALL_THREADS, "group by the whole set of a process's thread stacks"),
	CLI_ROW_FLAG("no-lines", OPT_NO_LINES, "compare frames without their line numbers"),
	CLI_ROW_STR("rank-from", OPT_RANK_FROM, "RE", "rank: RE's group 1 in the command line, label or file name"),
	CLI_ROW_FLAG("tree", OPT_TREE, "the merged prefix tree: each frame once, with the ranks that reached it"),
	CLI_ROW_FLAG("folded", OPT_FOLDED, "folded stacks, each group's under a root frame [ranks LIST]"),
	CLI_ROW_CHOICE("from", OPT_FROM, "FMT", from_names, "dump input format: auto (default, from content), "
		       "dump, json"),
	CLI_ROW_STRICT,
	CLI_ROW_VERBOSE,
	CLI_ROW_END,
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Group many processes' py-spy dumps (one file each, --subprocesses or shell-loop "
	"concatenations, snapshots over time, pastes behind srun/docker-compose/torchrun labels, "
	"timestamps, markdown fences or quotes; text or --json) by their main thread's stack. "
	"Each process is named by its rank (sglang::scheduler_TP3, VLLM::Worker_TP1, "
	"--local_rank=N, a label, rank3.txt; else its pid). One row per group, largest first, "
	"with where it parts from the largest; then a verdict naming the odd one out.",
	options,
	"Stacks are compared with addresses collapsed per library and thread ids dropped.\n"
	"--rank-from takes group 1 of RE (else the whole match) in a process's command line, its "
	"paste label or its file name, the first it matches. --thread matches `thread (TID): NAME` "
	"(a NCCL watchdog, forward_thread_func).\n"
	"Exit status: 0 ok, 1 unreadable input, no dump snapshot, or bad lines with --strict, "
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
	static const enum load_format from_map[] = { LOAD_AUTO, LOAD_DUMP, LOAD_JSON };
	struct cli_value v;
	int key, first;
	while ((key = cli_next(&spec, argc, argv, &v, &first)) != -1) {
		switch (key) {
		case OPT_WIDE: o->wide = TABLE_TEXT_WIDE; break;
		case TABLE_KEY_FORMAT: o->format = (enum table_format)v.choice; break;
		case OPT_FROM: o->from = from_map[v.choice]; break;
		case OPT_THREAD:
			rx_free(o->ranks.thread);
			o->ranks.thread = pattern("--thread", v.text);
			break;
		case OPT_RANK_FROM:
			rx_free(o->ranks.rank_from);
			o->ranks.rank_from = pattern("--rank-from", v.text);
			break;
		case OPT_ALL_THREADS: o->ranks.all_threads = 1; break;
		case OPT_NO_LINES: o->ranks.no_lines = 1; break;
		case OPT_TREE: o->tree = 1; break;
		case OPT_FOLDED: o->folded = 1; break;
		case CLI_KEY_STRICT: errs->strict = 1; break;
		case CLI_KEY_VERBOSE: errs->verbose = 1; break;
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
	char *outbuf = err_start(argv[0], &errs);
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
	err_finish(outbuf);

	ranks_free(r);
	rx_free(o.ranks.thread);
	rx_free(o.ranks.rank_from);
	return status;
}
