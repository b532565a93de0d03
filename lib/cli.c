/* cli: option table to getopt_long and to --help text, value parsers. */
#include "cli.h"
#include "err.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPTIONS = 64, KEY_HELP = 'h', KEY_VERSION = 0x7fff };

void cli_help(const struct cli_spec *spec, FILE *out)
{
	fprintf(out, "Usage: %s %s\n%s\n\nOptions:\n", err_prog(), spec->synopsis, spec->summary);
	for (const struct cli_option *o = spec->options; o->long_name; o++) {
		char left[64];
		int n = 0;
		if (o->key > 0 && o->key < 256)
			n = snprintf(left, sizeof left, "  -%c, --%s", o->key, o->long_name);
		else
			n = snprintf(left, sizeof left, "      --%s", o->long_name);
		if (o->arg && n > 0 && (size_t)n < sizeof left)
			snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
		if (strlen(left) > 26)
			fprintf(out, "%s\n%28s%s\n", left, "", o->help);
		else
			fprintf(out, "%-28s%s\n", left, o->help);
	}
	/* The same columns as the table's rows. */
	fprintf(out, "%-28s%s\n%-28s%s\n", "  -h, --help", "show this help and exit",
		"      --version", "show the version and exit");
	if (spec->epilogue)
		fprintf(out, "\n%s", spec->epilogue);
}

void cli_usage_error(const struct cli_spec *spec, const char *fmt, ...)
{
	va_list ap;
	if (fmt) {
		va_start(ap, fmt);
		err_vwarn(fmt, ap);
		va_end(ap);
	}
	fprintf(stderr, "Usage: %s %s\nTry '%s --help' for more information.\n", err_prog(),
		spec->synopsis, err_prog());
	exit(EXIT_USAGE);
}

int cli_next(const struct cli_spec *spec, int argc, char **argv, const char **value,
	     int *optind_out)
{
	struct option longs[MAX_OPTIONS + 3];
	char shorts[3 * MAX_OPTIONS + 4];
	size_t nl = 0, ns = 0;

	shorts[ns++] = ':'; /* report a missing value apart from an unknown option */
	for (const struct cli_option *o = spec->options; o->long_name && nl < MAX_OPTIONS; o++) {
		longs[nl++] = (struct option){ o->long_name, o->arg ? required_argument : no_argument,
					       NULL, o->key };
		if (o->key > 0 && o->key < 256) {
			shorts[ns++] = (char)o->key;
			if (o->arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl++] = (struct option){ "help", no_argument, NULL, KEY_HELP };
	longs[nl++] = (struct option){ "version", no_argument, NULL, KEY_VERSION };
	longs[nl] = (struct option){ 0, 0, 0, 0 };
	shorts[ns++] = 'h';
	shorts[ns] = '\0';

	opterr = 0;
	int key = getopt_long(argc, argv, shorts, longs, NULL);
	*value = optarg;
	*optind_out = optind;
	switch (key) {
	case -1:
		return -1;
	case KEY_HELP:
		cli_help(spec, stdout);
		err_close_stdout();
		exit(EXIT_OK);
	case KEY_VERSION:
		printf("%s (sift) %s\n", err_prog(), CLI_VERSION);
		err_close_stdout();
		exit(EXIT_OK);
	case ':':
		/* A long option's key may be a letter too: name it as the user wrote it. */
		if (optopt > 0 && optopt < 256 && strncmp(argv[optind - 1], "--", 2) != 0)
			cli_usage_error(spec, "option requires an argument -- '%c'", optopt);
		cli_usage_error(spec, "option '%s' requires an argument", argv[optind - 1]);
	case '?':
		if (optopt > 0 && optopt < 256)
			cli_usage_error(spec, "invalid option -- '%c'", optopt);
		cli_usage_error(spec, "unrecognized option '%s'", argv[optind - 1]);
	default:
		return key;
	}
}

unsigned long long cli_ulong(const struct cli_spec *spec, const char *option, const char *value)
{
	char *end;
	errno = 0;
	if (!value || !*value || *value == '-' || *value == '+')
		cli_usage_error(spec, "invalid value for %s: '%s'", option, value ? value : "");
	unsigned long long n = strtoull(value, &end, 10);
	if (errno || *end)
		cli_usage_error(spec, "invalid value for %s: '%s'", option, value);
	return n;
}

double cli_double(const struct cli_spec *spec, const char *option, const char *value)
{
	char *end;
	errno = 0;
	double d = value && *value ? strtod(value, &end) : NAN;
	if (!value || !*value || errno || *end || !isfinite(d))
		cli_usage_error(spec, "invalid value for %s: '%s'", option, value ? value : "");
	return d;
}

int cli_choice(const struct cli_spec *spec, const char *option, const char *value,
	       const char *const *names)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], value) == 0)
			return i;
	char list[512] = "";
	size_t used = 0;
	for (int i = 0; names[i] && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", names[i]);
	cli_usage_error(spec, "invalid value for %s: '%s' (one of: %s)", option, value, list);
}
