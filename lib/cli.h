/* cli: one option table feeds getopt_long and --help; shared option values. */
#ifndef SIFT_CLI_H
#define SIFT_CLI_H

#include <stdio.h>

/* One row per option; `arg` names the value (NULL for flags). */
struct cli_option {
	const char *long_name;
	int key;                /* short letter, or a value >= 256 for long-only options */
	const char *arg;
	const char *help;
};

struct cli_spec {
	const char *synopsis;       /* "[OPTION]... [FILE]..." */
	const char *summary;        /* one line: what the tool does */
	const struct cli_option *options;  /* ends with a zeroed row */
	const char *epilogue;       /* after the options, may be NULL */
};

struct cli_parser;

/* Parse argv step by step: returns the key, -1 at the end (*optind_out set), or
 * exits 2 with a short usage on an unknown option or missing value. -h/--help and
 * --version are handled here. */
int cli_next(const struct cli_spec *spec, int argc, char **argv, const char **value,
	     int *optind_out);

void cli_help(const struct cli_spec *spec, FILE *out);
_Noreturn void cli_usage_error(const struct cli_spec *spec, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Value parsers: exit 2 naming the option on a bad value. */
unsigned long long cli_ulong(const struct cli_spec *spec, const char *option, const char *value);
double cli_double(const struct cli_spec *spec, const char *option, const char *value);
/* Index of value in a NULL-terminated list of names, or a usage error. */
int cli_choice(const struct cli_spec *spec, const char *option, const char *value,
	       const char *const *names);

#define CLI_VERSION "0.1.0"

#endif
