/* cli: one option table feeds getopt_long, the checks of each value and --help. */
#ifndef SIFT_CLI_H
#define SIFT_CLI_H

#include <stddef.h>
#include <stdio.h>

/* What a value is read as; a row without `arg` is a flag. */
enum cli_type { CLI_STRING, CLI_UINT, CLI_REAL, CLI_CHOICE };

/* A row's checks, or-ed: a range for CLI_UINT and CLI_REAL, and how many values it takes. */
enum {
	CLI_MIN = 1,          /* value >= min */
	CLI_ABOVE_MIN = 2,    /* value > min */
	CLI_MAX = 4,          /* value <= max */
	CLI_BELOW_MAX = 8,    /* value < max */
	CLI_LIST = 16,        /* FILE...: every argument up to the next option is a value too */
	CLI_TWO = 32,         /* B A: the option takes the next two arguments */
};

/* One row per option; build rows with the CLI_ROW_* macros below. */
struct cli_option {
	const char *long_name;
	int key;                /* short letter, or a value >= 256 for long-only options */
	const char *arg;        /* the value's name in --help; NULL for a flag */
	const char *help;       /* one paragraph: cli_help wraps it to 80 columns */
	enum cli_type type;
	unsigned check;         /* CLI_MIN ... CLI_TWO */
	double min, max;
	const char *why;        /* a value out of range is told this, "(1 to 64)" when NULL */
	const char *const *choices;  /* CLI_CHOICE: NULL-terminated names */
};

#define CLI_ROW_FLAG(name, key, help) { (name), (key), NULL, (help), CLI_STRING, 0, 0, 0, NULL, NULL }
#define CLI_ROW_STR(name, key, arg, help) { (name), (key), (arg), (help), CLI_STRING, 0, 0, 0, NULL, NULL }
/* FILE...: one or more values, up to the next option (repeatable). */
#define CLI_ROW_FILES(name, key, arg, help) \
	{ (name), (key), (arg), (help), CLI_STRING, CLI_LIST, 0, 0, NULL, NULL }
#define CLI_ROW_UINT(name, key, arg, help) { (name), (key), (arg), (help), CLI_UINT, 0, 0, 0, NULL, NULL }
#define CLI_ROW_UINT_RANGE(name, key, arg, lo, hi, help) \
	{ (name), (key), (arg), (help), CLI_UINT, CLI_MIN | CLI_MAX, (lo), (hi), NULL, NULL }
#define CLI_ROW_REAL(name, key, arg, help) { (name), (key), (arg), (help), CLI_REAL, 0, 0, 0, NULL, NULL }
/* A real within bounds (check: CLI_MIN ... CLI_BELOW_MAX); why is what a bad value is told.
 * A positive real (CLI_ABOVE_MIN of 0 alone) is told "OPTION must be above zero (why)". */
#define CLI_ROW_REAL_RANGE(name, key, arg, check, lo, hi, why, help) \
	{ (name), (key), (arg), (help), CLI_REAL, (check), (lo), (hi), (why), NULL }
#define CLI_ROW_POSITIVE(name, key, arg, why, help) \
	CLI_ROW_REAL_RANGE(name, key, arg, CLI_ABOVE_MIN, 0, 0, why, help)
#define CLI_ROW_CHOICE(name, key, arg, names, help) \
	{ (name), (key), (arg), (help), CLI_CHOICE, 0, 0, 0, NULL, (names) }
#define CLI_ROW_END { NULL, 0, NULL, NULL, CLI_STRING, 0, 0, 0, NULL, NULL }

/* Rows every tool that has the option shares, with their keys. table.h has --format's. */
enum { CLI_KEY_JOBS = 'j', CLI_KEY_VERBOSE = 'v', CLI_KEY_STRICT = 0x0f01 };
#define CLI_ROW_JOBS \
	CLI_ROW_UINT_RANGE("jobs", CLI_KEY_JOBS, "N", 1, 64, "read plain files on N threads (default: " \
			   "one per processor for inputs of 16 MB or more; 1: one thread)")
#define CLI_ROW_STRICT CLI_ROW_FLAG("strict", CLI_KEY_STRICT, "a bad input line is fatal (exit 1)")
#define CLI_ROW_VERBOSE CLI_ROW_FLAG("verbose", CLI_KEY_VERBOSE, "name every bad and skipped line")

struct cli_spec {
	const char *synopsis;       /* "[OPTION]... [FILE]..." */
	const char *summary;        /* what the tool does; lines over 80 columns are wrapped */
	const struct cli_option *options;  /* ends with CLI_ROW_END */
	const char *epilogue;       /* after the options, may be NULL */
};

/* An option's value as written and as its row reads it. */
struct cli_value {
	const char *text;       /* NULL for a flag */
	unsigned long long u;   /* CLI_UINT */
	double d;               /* CLI_REAL */
	int choice;             /* CLI_CHOICE: the index in the row's choices */
	char **list;            /* CLI_LIST, CLI_TWO: every value, list[0] is text */
	size_t n;               /* how many values: 1, or more with CLI_LIST, 2 with CLI_TWO */
};

/* Parse argv step by step: returns the key with its value read and checked as its row
 * says, or -1 at the end (*optind_out set); exits 2 with a short usage on an unknown
 * option, a missing or bad value. -h/--help and --version are handled here. A list's
 * values point into argv (kept when argv is permuted). */
int cli_next(const struct cli_spec *spec, int argc, char **argv, struct cli_value *value,
	     int *optind_out);

/* --help: options in two columns, every line within 80 columns. */
void cli_help(const struct cli_spec *spec, FILE *out);
_Noreturn void cli_usage_error(const struct cli_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Value parsers for values that are not a row's (KEY:POINTS' number): exit 2 naming the
 * option on a bad value. */
unsigned long long cli_ulong(const struct cli_spec *spec, const char *option, const char *value);
double cli_double(const struct cli_spec *spec, const char *option, const char *value);
/* Index of value in a NULL-terminated list of names, or a usage error. */
int cli_choice(const struct cli_spec *spec, const char *option, const char *value,
	       const char *const *names);

#define CLI_VERSION "0.1.0"

#endif
