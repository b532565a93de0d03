/* cli: option table to getopt_long, each value read and checked as its row says, --help
 * wrapped to 80 columns. */
#include "cli.h"
#include "err.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPTIONS = 64, KEY_HELP = 'h', KEY_VERSION = 0x7fff };
enum { HELP_WIDTH = 80, HELP_INDENT = 28 };  /* an option's help starts at HELP_INDENT */

/* text from column col (already written), each line within HELP_WIDTH, a new line at
 * indent; a '\n' in text ends a line. A word longer than a line stands alone. */
static void wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	size_t start = col;  /* where this line's text began */
	const char *p = text;
	while (*p) {
		size_t gap = strspn(p, " ");
		const char *word = p + gap;
		size_t len = strcspn(word, " \n");
		if (col > start && col + gap + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = start = indent;
			gap = 0;
		}
		fprintf(out, "%*s%.*s", (int)gap, "", (int)len, word);
		col += gap + len;
		p = word + len;
		if (*p == '\n' && *++p) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = start = indent;
		}
	}
	fputc('\n', out);
}

static void help_row(FILE *out, const char *left, const char *help)
{
	/* A long left column has the help on a line of its own. */
	if (strlen(left) > HELP_INDENT - 2)
		fprintf(out, "%s\n%*s", left, HELP_INDENT, "");
	else
		fprintf(out, "%-*s", HELP_INDENT, left);
	wrap(out, help, HELP_INDENT, HELP_INDENT);
}

void cli_help(const struct cli_spec *spec, FILE *out)
{
	fprintf(out, "Usage: %s %s\n", err_prog(), spec->synopsis);
	wrap(out, spec->summary, 0, 0);
	fputs("\nOptions:\n", out);
	for (const struct cli_option *o = spec->options; o->long_name; o++) {
		char left[96];
		int n = 0;
		if (o->key > 0 && o->key < 256)
			n = snprintf(left, sizeof left, "  -%c, --%s", o->key, o->long_name);
		else
			n = snprintf(left, sizeof left, "      --%s", o->long_name);
		if (o->arg && n > 0 && (size_t)n < sizeof left)
			snprintf(left + n, sizeof left - (size_t)n, " %s", o->arg);
		help_row(out, left, o->help);
	}
	help_row(out, "  -h, --help", "show this help and exit");
	help_row(out, "      --version", "show the version and exit");
	if (spec->epilogue) {
		fputc('\n', out);
		wrap(out, spec->epilogue, 0, 0);
	}
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

static const struct cli_option *row_of(const struct cli_spec *spec, int key)
{
	for (const struct cli_option *o = spec->options; o->long_name; o++)
		if (o->key == key)
			return o;
	return NULL;
}

static int is_option(const char *arg) { return arg[0] == '-' && arg[1] != '\0'; }

/* x within the row's bounds, or a usage error saying which. */
static void check_range(const struct cli_spec *spec, const struct cli_option *o, const char *name,
			const char *text, double x)
{
	unsigned c = o->check & (CLI_MIN | CLI_ABOVE_MIN | CLI_MAX | CLI_BELOW_MAX);
	if ((!(c & CLI_MIN) || x >= o->min) && (!(c & CLI_ABOVE_MIN) || x > o->min) &&
	    (!(c & CLI_MAX) || x <= o->max) && (!(c & CLI_BELOW_MAX) || x < o->max))
		return;
	if (c == CLI_ABOVE_MIN && o->min == 0)
		cli_usage_error(spec, "%s must be above zero%s%s%s: '%s'", name, o->why ? " (" : "",
				o->why ? o->why : "", o->why ? ")" : "", text);
	if (o->why)
		cli_usage_error(spec, "invalid value for %s: '%s' (%s)", name, text, o->why);
	cli_usage_error(spec, "invalid value for %s: '%s' (%g to %g)", name, text, o->min, o->max);
}

/* One value of row o, read as its type into v; exits 2 when bad. */
static void read_value(const struct cli_spec *spec, const struct cli_option *o, const char *text,
		       struct cli_value *v)
{
	char name[80];
	snprintf(name, sizeof name, "--%s", o->long_name);
	switch (o->type) {
	case CLI_STRING: break;
	case CLI_CHOICE: v->choice = cli_choice(spec, name, text, o->choices); break;
	case CLI_UINT:
		v->u = cli_ulong(spec, name, text);
		check_range(spec, o, name, text, (double)v->u);
		break;
	case CLI_REAL:
		v->d = cli_double(spec, name, text);
		check_range(spec, o, name, text, v->d);
		break;
	}
}

/* A FILE... or B A row: the values after the first are taken here, past getopt, which then
 * treats them as the option's (it permutes what lies before optind). */
static void take_values(const struct cli_spec *spec, const struct cli_option *o, int argc,
			char **argv, struct cli_value *v)
{
	int start = optind - 1;
	int separate = argv[start] == optarg;
	argv[start] = (char *)optarg;  /* --before=FILE: the value stands for its option */
	if (o->check & CLI_TWO) {
		if (optind >= argc)
			cli_usage_error(spec, "--%s needs two values: %s", o->long_name, o->arg);
		optind++;
	} else {
		if (separate && is_option(optarg)) {
			char noun[32];
			size_t n = 0;
			for (const char *a = o->arg; isalpha((unsigned char)*a) && n + 1 < sizeof noun; a++)
				noun[n++] = (char)tolower((unsigned char)*a);
			noun[n] = '\0';
			cli_usage_error(spec, "--%s needs at least one %s", o->long_name, noun);
		}
		while (optind < argc && !is_option(argv[optind]))
			optind++;
	}
	v->list = argv + start;
	v->n = (size_t)(optind - start);
}

int cli_next(const struct cli_spec *spec, int argc, char **argv, struct cli_value *value,
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
	*value = (struct cli_value){ optarg, 0, 0, 0, NULL, optarg != NULL };
	const struct cli_option *row = key >= 0 ? row_of(spec, key) : NULL;
	if (row && row->arg && (row->check & (CLI_LIST | CLI_TWO))) {
		take_values(spec, row, argc, argv, value);
		for (size_t i = 0; i < value->n; i++)
			read_value(spec, row, value->list[i], value);
		value->text = value->list[0];
	}
	if (row && row->arg) /* the first value's reading is the one kept */
		read_value(spec, row, value->text, value);
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
