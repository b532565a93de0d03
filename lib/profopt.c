/* profopt: shared option handling so every profile tool filters the same way. */
#include "profopt.h"
#include "timewin.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

rx *profopt_regex(const struct cli_spec *spec, const char *option, const char *pattern)
{
	char msg[512];
	rx *re = rx_compile(pattern, strlen(pattern), msg, sizeof msg);
	if (!re)
		cli_usage_error(spec, "%s '%s': %s", option, pattern, msg);
	return re;
}

static void set_regex(const struct cli_spec *spec, rx **slot, const char *option, const char *value)
{
	rx_free(*slot); /* the last one given wins */
	*slot = profopt_regex(spec, option, value);
}

static int profopt_transform(const struct cli_spec *spec, int key, const char *value,
			     struct xform_opts *x)
{
	switch (key) {
	case PROFOPT_HIDE: set_regex(spec, &x->hide, "--hide", value); return 1;
	case PROFOPT_SHOW_FROM: set_regex(spec, &x->show_from, "--show-from", value); return 1;
	case PROFOPT_PRUNE_FROM: set_regex(spec, &x->prune_from, "--prune-from", value); return 1;
	case PROFOPT_COLLAPSE_RECURSION: x->collapse_recursion = 1; return 1;
	case PROFOPT_HIDE_WRAPPERS: x->hide_wrappers = 1; return 1;
	default: return 0;
	}
}

/* --from SEC before --to SEC, whichever came first. */
static void check_window(const struct cli_spec *spec, const struct timewin *w)
{
	if (w->has_from && w->has_to && !(w->from < w->to))
		cli_usage_error(spec, "--from %g must come before --to %g (seconds)", w->from, w->to);
}

int profopt_handle(const struct cli_spec *spec, int key, const struct cli_value *v,
		   struct load_opts *opts, struct err_lines *errs)
{
	const char *value = v->text;
	switch (key) {
	case PROFOPT_FOCUS: set_regex(spec, &opts->focus, "--focus", value); return 1;
	case PROFOPT_IGNORE: set_regex(spec, &opts->ignore, "--ignore", value); return 1;
	case PROFOPT_THREAD: set_regex(spec, &opts->thread, "--thread", value); return 1;
	case PROFOPT_NO_LINES: opts->no_lines = 1; return 1;
	case PROFOPT_NO_THREADS: opts->no_threads = 1; return 1;
	case PROFOPT_NO_PROCESS: opts->no_process = 1; return 1;
	case PROFOPT_COLLAPSE: opts->collapse_addrs = 1; return 1;
	case PROFOPT_LIB_BASENAME: opts->lib_basename = 1; return 1;
	case PROFOPT_FROM:
		if (timewin_parse_seconds(value, &opts->win.from) == 0) {
			opts->win.has_from = 1;
			check_window(spec, &opts->win);
			return 1;
		}
		for (int i = 0; load_format_names[i]; i++)
			if (strcmp(value, load_format_names[i]) == 0) {
				opts->from = (enum load_format)i;
				return 1;
			}
		cli_usage_error(spec, "invalid value for --from: '%s' (seconds, 0 or more, or a format: "
				"auto, raw, dump, json, speedscope, chrometrace, svg, austin)", value);
		return 1;
	case PROFOPT_INPUT_FORMAT:
		opts->from = (enum load_format)v->choice;
		return 1;
	case PROFOPT_TO:
		if (timewin_parse_seconds(value, &opts->win.to) != 0)
			cli_usage_error(spec, "invalid value for --to: '%s' (seconds, 0 or more)", value);
		opts->win.has_to = 1;
		check_window(spec, &opts->win);
		return 1;
	case PROFOPT_RATE:
		opts->rate = v->d;
		return 1;
	case CLI_KEY_STRICT: errs->strict = 1; return 1;
	case PROFOPT_IDLE: opts->idle = 1; return 1;
	case PROFOPT_STATUS: opts->status = 1; return 1;
	case PROFOPT_ASSUME_CPU: opts->assume_cpu = 1; return 1;
	case CLI_KEY_VERBOSE: errs->verbose = 1; return 1;
	case PROFOPT_NO_TIDS: opts->no_tids = 1; return 1;
	case PROFOPT_NO_PIDS: opts->no_pids = 1; return 1;
	case PROFOPT_LABEL:
		if (!strchr(value, '=') || value[0] == '=' || !strchr(value, '=')[1])
			cli_usage_error(spec, "invalid value for --label: '%s' (NAME=FILE)", value);
		opts->labels = xrealloc(opts->labels, (opts->nlabels + 1) * sizeof *opts->labels);
		opts->labels[opts->nlabels++] = (char *)value; /* argv outlives the options */
		return 1;
	default: return profopt_transform(spec, key, value, &opts->xform);
	}
}

void profopt_free(struct load_opts *opts)
{
	rx_free(opts->focus);
	rx_free(opts->ignore);
	rx_free(opts->thread);
	opts->focus = opts->ignore = opts->thread = NULL;
	xform_opts_free(&opts->xform);
	free(opts->labels);
	opts->labels = NULL;
	opts->nlabels = 0;
}

void profopt_take(const struct cli_spec *spec, int key, const struct cli_value *value, struct load_opts *opts,
		  struct rules_opts *ropts, struct err_lines *errs)
{
	if (!rules_opts_handle(ropts, key, value->text) && !profopt_handle(spec, key, value, opts, errs))
		cli_usage_error(spec, NULL);
}
