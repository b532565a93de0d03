/* profopt: the profile-reading options every profile tool shares (filters, rewriting, --from, --strict). */
#ifndef SIFT_PROFOPT_H
#define SIFT_PROFOPT_H

#include "cli.h"
#include "err.h"
#include "load.h"

enum {
	PROFOPT_FOCUS = 0x1000, PROFOPT_IGNORE, PROFOPT_THREAD, PROFOPT_NO_LINES,
	PROFOPT_NO_THREADS, PROFOPT_NO_PROCESS, PROFOPT_COLLAPSE, PROFOPT_LIB_BASENAME,
	PROFOPT_FROM, PROFOPT_STRICT, PROFOPT_IDLE, PROFOPT_STATUS, PROFOPT_VERBOSE = 'v',
	PROFOPT_ASSUME_CPU = 0x1040,  /* apart from the transforms (0x1080...) */
};

/* Identity across restarts (TIDs and PIDs dropped). */
enum { PROFOPT_NO_TIDS = 0x1400, PROFOPT_NO_PIDS };
/* The source key's names (tools summing --by source). */
enum { PROFOPT_LABEL = 0x1410 };
/* Time: the recording's rate, the input format by its explicit name, a window of time. */
enum { PROFOPT_RATE = 0x1420, PROFOPT_INPUT_FORMAT, PROFOPT_TO };
#define PROFOPT_LABEL_ROW \
	{ "label", PROFOPT_LABEL, "NAME=FILE", "--by source names FILE (as given) NAME, not its basename\n" \
	  "                            (repeatable)" }

/* Rows for a tool's option table, to be spliced in before its terminating row. */
#define PROFOPT_FILTER_ROWS \
	{ "focus", PROFOPT_FOCUS, "RE", "keep only stacks with a frame matching RE (PCRE2)" }, \
	{ "ignore", PROFOPT_IGNORE, "RE", "drop stacks with a frame matching RE" }, \
	{ "thread", PROFOPT_THREAD, "RE", "keep only stacks whose thread pseudo-frame matches RE" }
#define PROFOPT_REWRITE_ROWS \
	{ "no-lines", PROFOPT_NO_LINES, NULL, "drop line numbers: NAME (FILE:LINE) becomes NAME (FILE)" }, \
	{ "no-threads", PROFOPT_NO_THREADS, NULL, "drop thread pseudo-frames" }, \
	{ "no-process", PROFOPT_NO_PROCESS, NULL, "drop process pseudo-frames" }, \
	{ "collapse-addrs", PROFOPT_COLLAPSE, NULL, "write unresolved 0xADDR (LIB) frames as [LIB], runs merged" }, \
	{ "lib-basename", PROFOPT_LIB_BASENAME, NULL, "drop library directories and version suffixes" }, \
	{ "no-tids", PROFOPT_NO_TIDS, NULL, "write thread (TID) as thread (0): threads match by name across runs" }, \
	{ "no-pids", PROFOPT_NO_PIDS, NULL, "write process PID: as process 0: processes match by command line" }
#define PROFOPT_DUMP_ROWS \
	{ "status", PROFOPT_STATUS, NULL, "dumps: add [active+gil], [active] or [idle] after the thread frame" }
#define PROFOPT_INPUT_ROWS \
	{ "from", PROFOPT_FROM, "FMT|SEC", "input format: auto (default, from content), raw, dump, json, speedscope,\n" \
	  "                            chrometrace, svg, austin; a number: keep the samples from SEC\n" \
	  "                            seconds into each thread on (speedscope, chrometrace)" }, \
	{ "input-format", PROFOPT_INPUT_FORMAT, "FMT", "input format, as --from FMT" }, \
	{ "rate", PROFOPT_RATE, "HZ", "samples per second where the file does not say (py-spy's default: 100):\n" \
	  "                            the time of sample i is i/HZ; durations (chrometrace, evented speedscope)\n" \
	  "                            become HZ samples a second; py-spy's weights and austin's interval win" }, \
	{ "idle", PROFOPT_IDLE, NULL, "dumps: keep idle threads (left out by default, as py-spy record does)" }, \
	{ "strict", PROFOPT_STRICT, NULL, "a bad input line is fatal (exit 1)" }, \
	{ "verbose", PROFOPT_VERBOSE, NULL, "name every bad and skipped line" }
/* --to SEC: its own row, since sift-fold's --to names its output format and takes SEC too. */
#define PROFOPT_TO_ROW \
	{ "to", PROFOPT_TO, "SEC", "keep the samples before SEC seconds into each thread (speedscope,\n" \
	  "                            chrometrace)" }
/* For the tools whose tables are shares of CPU samples (sift-top, sift-diff, sift-gil). */
#define PROFOPT_SHARE_ROWS \
	{ "assume-cpu", PROFOPT_ASSUME_CPU, NULL, "no note when every thread has the same samples (py-spy --idle)" }

/* Frame transforms (transform.h), keys of their own so other rows can grow above. */
enum {
	PROFOPT_HIDE = 0x1080, PROFOPT_SHOW_FROM, PROFOPT_PRUNE_FROM, PROFOPT_COLLAPSE_RECURSION,
	PROFOPT_HIDE_WRAPPERS,
};
#define PROFOPT_TRANSFORM_ROWS \
	{ "hide", PROFOPT_HIDE, "RE", "drop frames matching RE; their samples stay (self moves up)" }, \
	{ "show-from", PROFOPT_SHOW_FROM, "RE", "drop the frames above the first frame matching RE;\n" \
	  "                            stacks without one are dropped and counted" }, \
	{ "prune-from", PROFOPT_PRUNE_FROM, "RE", "drop the frames below the first frame matching RE" }, \
	{ "collapse-recursion", PROFOPT_COLLAPSE_RECURSION, NULL, "write back-to-back repeats of a frame once" }, \
	{ "hide-wrappers", PROFOPT_HIDE_WRAPPERS, NULL, "drop Python and PyTorch wrapper frames (_call_impl,\n" \
	  "                            threading, contextlib...; listed in the man page)" }

/* Handle key if it is one of the rows above: 1 handled, 0 not ours. Bad values exit 2. */
int profopt_handle(const struct cli_spec *spec, int key, const char *value,
		   struct load_opts *opts, struct err_lines *errs);
void profopt_free(struct load_opts *opts);

/* Compile a user pattern, or exit 2 naming the option. */
rx *profopt_regex(const struct cli_spec *spec, const char *option, const char *pattern);

#endif
