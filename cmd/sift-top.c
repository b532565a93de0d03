/* sift-top: where the samples are, ranked by frame, function, file, lib, line, root, thread or process. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/table.h"

#include <stdio.h>
#include <string.h>

enum { OPT_BY = 'b', OPT_N = 'n', OPT_SORT = 0x2000, OPT_FORMAT = 'f' };

static const struct cli_option options[] = {
	{ "by", OPT_BY, "KEY", "frame (default), function, file, lib, line, root, thread, process" },
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "sort", OPT_SORT, "WHICH", "self (default) or total" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_INPUT_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... [FILE]...",
	"Rank the keys of folded-stack profiles by self samples (the stack's leaf has the key)\n"
	"and total samples (the key is anywhere in the stack, counted once per stack).",
	options,
	"Percentages are of all samples read, before filters.\n"
	"Exit status: 0 ok, 1 unreadable input or bad lines with --strict, 2 usage error.\n",
};

struct top_opts {
	enum frame_key by;
	unsigned long long limit;
	enum agg_order order;
	enum table_format format;
};

static const char *const sort_names[] = { "self", "total", NULL };

static void print_table(const agg *a, const struct top_opts *o, uint64_t all)
{
	const struct table_column cols[] = {
		{ frame_key_names[o->by], TABLE_STR, 0 },
		{ "self", TABLE_UINT, 0 },
		{ "self_pct", TABLE_PCT, 0 },
		{ "total", TABLE_UINT, 0 },
		{ "total_pct", TABLE_PCT, 0 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	const struct agg_row *rows = agg_rows(a);
	size_t n = agg_row_count(a);
	for (size_t i = 0; i < n && (o->limit == 0 || i < o->limit); i++) {
		size_t len;
		const char *key = intern_str(agg_keys(a), rows[i].key, &len);
		table_add_row(t);
		table_set_str(t, 0, key, len);
		table_set_uint(t, 1, rows[i].self);
		table_set_real(t, 2, table_pct(rows[i].self, all));
		table_set_uint(t, 3, rows[i].total);
		table_set_real(t, 4, table_pct(rows[i].total, all));
	}
	table_write(t, stdout, o->format, TABLE_TEXT_KEY_LAST);
	table_free(t);
}

int main(int argc, char **argv)
{
	struct top_opts o = { KEY_FRAME, 20, AGG_BY_SELF, TABLE_TEXT };
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_BY:
			o.by = (enum frame_key)cli_choice(&spec, "--by", value, frame_key_names);
			if (o.by == KEY_CATEGORY)
				cli_usage_error(&spec, "--by category needs the category rules, not built yet");
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_SORT: o.order = (enum agg_order)cli_choice(&spec, "--sort", value, sort_names); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		default:
			if (!profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}

	prof *p = prof_new();
	struct load_stats st;
	int status = load_files(p, argv + first, (size_t)(argc - first), &lopts, &errs, &st);
	err_lines_finish(&errs);

	agg *a = agg_new(p, o.by);
	agg_sort(a, o.order);
	if (o.format == TABLE_TEXT) {
		printf("samples %llu", (unsigned long long)st.samples_read);
		if (st.samples_kept != st.samples_read)
			printf(" (%llu kept)", (unsigned long long)st.samples_kept);
		printf("  stacks %zu  threads %zu  bad lines %lu\n", prof_stack_count(p),
		       agg_thread_count(p), errs.bad);
	}
	print_table(a, &o, st.samples_read);
	err_close_stdout();
	agg_free(a);
	prof_free(p);
	profopt_free(&lopts);
	return status;
}
