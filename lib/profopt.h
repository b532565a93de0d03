/* profopt: the profile-reading options every profile tool shares (filters, rewriting, --from, --strict). */
#ifndef SIFT_PROFOPT_H
#define SIFT_PROFOPT_H

#include "cli.h"
#include "err.h"
#include "load.h"
#include "rules.h"

enum {
	PROFOPT_FOCUS = 0x1000, PROFOPT_IGNORE, PROFOPT_THREAD, PROFOPT_NO_LINES,
	PROFOPT_NO_THREADS, PROFOPT_NO_PROCESS, PROFOPT_COLLAPSE, PROFOPT_LIB_BASENAME,
	PROFOPT_FROM, PROFOPT_IDLE, PROFOPT_STATUS,  /* --strict, -v: cli.h's shared rows */
	PROFOPT_ASSUME_CPU = 0x1040,  /* apart from the transforms (0x1080...) */
};

/* Identity across restarts (TIDs and PIDs dropped). */
enum { PROFOPT_NO_TIDS = 0x1400, PROFOPT_NO_PIDS };
/* The source key's names (tools summing --by source). */
enum { PROFOPT_LABEL = 0x1410 };
/* Time: the recording's rate, the input format by its explicit name, a window of time. */
enum { PROFOPT_RATE = 0x1420, PROFOPT_INPUT_FORMAT, PROFOPT_TO };
#define PROFOPT_LABEL_ROW \
	CLI_ROW_STR("label", PROFOPT_LABEL, "NAME=FILE", \
		    "--by source names FILE (as given) NAME, not its basename (repeatable)")

/* Rows for a tool's option table, to be spliced in before its terminating row. */
#define PROFOPT_FILTER_ROWS \
	CLI_ROW_STR("focus", PROFOPT_FOCUS, "RE", "keep only stacks with a frame matching RE (PCRE2)"), \
	CLI_ROW_STR("ignore", PROFOPT_IGNORE, "RE", "drop stacks with a frame matching RE"), \
	CLI_ROW_STR("thread", PROFOPT_THREAD, "RE", "keep only stacks whose thread pseudo-frame matches RE")
#define PROFOPT_REWRITE_ROWS \
	CLI_ROW_FLAG("no-lines", PROFOPT_NO_LINES, "drop line numbers: NAME (FILE:LINE) becomes NAME (FILE)"), \
	CLI_ROW_FLAG("no-threads", PROFOPT_NO_THREADS, "drop thread pseudo-frames"), \
	CLI_ROW_FLAG("no-process", PROFOPT_NO_PROCESS, "drop process pseudo-frames"), \
	CLI_ROW_FLAG("collapse-addrs", PROFOPT_COLLAPSE, \
		     "write unresolved 0xADDR (LIB) frames as [LIB], runs merged"), \
	CLI_ROW_FLAG("lib-basename", PROFOPT_LIB_BASENAME, "drop library directories and version suffixes"), \
	CLI_ROW_FLAG("no-tids", PROFOPT_NO_TIDS, \
		     "write thread (TID) as thread (0): threads match by name across runs"), \
	CLI_ROW_FLAG("no-pids", PROFOPT_NO_PIDS, \
		     "write process PID: as process 0: processes match by command line")
#define PROFOPT_DUMP_ROWS \
	CLI_ROW_FLAG("status", PROFOPT_STATUS, \
		     "dumps: add [active+gil], [active] or [idle] after the thread frame")
#define PROFOPT_INPUT_ROWS \
	CLI_ROW_STR("from", PROFOPT_FROM, "FMT|SEC", "input format: auto (default, from content), raw, " \
		    "dump, json, speedscope, chrometrace, svg, austin; a number: keep the samples from SEC " \
		    "seconds into each thread on (speedscope, chrometrace)"), \
	CLI_ROW_CHOICE("input-format", PROFOPT_INPUT_FORMAT, "FMT", load_format_names, \
		       "input format, as --from FMT"), \
	CLI_ROW_POSITIVE("rate", PROFOPT_RATE, "HZ", "samples per second", "samples per second where " \
			 "the file does not say (py-spy's default: 100): the time of sample i is i/HZ; " \
			 "durations (chrometrace, evented speedscope) become HZ samples a second; py-spy's " \
			 "weights and austin's interval win"), \
	CLI_ROW_FLAG("idle", PROFOPT_IDLE, \
		     "dumps: keep idle threads (left out by default, as py-spy record does)"), \
	CLI_ROW_STRICT, \
	CLI_ROW_VERBOSE
/* --to SEC: its own row, since sift-fold's --to names its output format and takes SEC too. */
#define PROFOPT_TO_ROW \
	CLI_ROW_STR("to", PROFOPT_TO, "SEC", \
		    "keep the samples before SEC seconds into each thread (speedscope, chrometrace)")
/* For the tools whose tables are shares of CPU samples (sift-top, sift-diff, sift-gil). */
#define PROFOPT_SHARE_ROWS \
	CLI_ROW_FLAG("assume-cpu", PROFOPT_ASSUME_CPU, \
		     "no note when every thread has the same samples (py-spy --idle)")

/* Frame transforms (transform.h), keys of their own so other rows can grow above. */
enum {
	PROFOPT_HIDE = 0x1080, PROFOPT_SHOW_FROM, PROFOPT_PRUNE_FROM, PROFOPT_COLLAPSE_RECURSION,
	PROFOPT_HIDE_WRAPPERS,
};
#define PROFOPT_TRANSFORM_ROWS \
	CLI_ROW_STR("hide", PROFOPT_HIDE, "RE", "drop frames matching RE; their samples stay (self moves up)"), \
	CLI_ROW_STR("show-from", PROFOPT_SHOW_FROM, "RE", "drop the frames above the first frame matching " \
		    "RE; stacks without one are dropped and counted"), \
	CLI_ROW_STR("prune-from", PROFOPT_PRUNE_FROM, "RE", "drop the frames below the first frame matching RE"), \
	CLI_ROW_FLAG("collapse-recursion", PROFOPT_COLLAPSE_RECURSION, "write back-to-back repeats of a frame once"), \
	CLI_ROW_FLAG("hide-wrappers", PROFOPT_HIDE_WRAPPERS, "drop Python and PyTorch wrapper frames " \
		     "(_call_impl, threading, contextlib...; listed in the man page)")

/* Handle key if it is one of the rows above: 1 handled, 0 not ours. Bad values exit 2. */
int profopt_handle(const struct cli_spec *spec, int key, const struct cli_value *value,
		   struct load_opts *opts, struct err_lines *errs);
/* A profile tool's other options: the rules' (rules_opts_handle), then the rows above;
 * any other key is a usage error (exit 2). */
void profopt_take(const struct cli_spec *spec, int key, const struct cli_value *value, struct load_opts *opts,
		  struct rules_opts *ropts, struct err_lines *errs);
void profopt_free(struct load_opts *opts);

/* Compile a user pattern, or exit 2 naming the option. */
rx *profopt_regex(const struct cli_spec *spec, const char *option, const char *pattern);

#endif
