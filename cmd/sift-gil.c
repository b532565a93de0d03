/* sift-gil: how much of the CPU burn holds the GIL, from an all-threads profile and a --gil one. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/table.h"
#include "../lib/xalloc.h"

#include <jansson.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_BY = 'b', OPT_N = 'n', OPT_FORMAT = 'f',
	OPT_TOTAL = 0x2000, OPT_GIL, OPT_TOTAL_SECONDS, OPT_GIL_SECONDS, OPT_RATE, OPT_TOTAL_RATE,
	OPT_GIL_RATE, OPT_ONLY,
};

enum { PART_BOTH, PART_SUMMARY, PART_KEYS };
static const char *const part_names[] = { "both", "summary", "keys", NULL };

static const struct cli_option options[] = {
	{ "total", OPT_TOTAL, "FILE", "a file of the all-threads profile (repeatable)" },
	{ "gil", OPT_GIL, "FILE", "a file of the py-spy --gil profile (repeatable)" },
	{ "total-seconds", OPT_TOTAL_SECONDS, "S", "duration of the all-threads recording" },
	{ "gil-seconds", OPT_GIL_SECONDS, "S", "duration of the --gil recording" },
	{ "rate", OPT_RATE, "HZ", "sampling rate of both recordings (py-spy's default: 100)" },
	{ "total-rate", OPT_TOTAL_RATE, "HZ", "sampling rate of the all-threads recording" },
	{ "gil-rate", OPT_GIL_RATE, "HZ", "sampling rate of the --gil recording" },
	{ "by", OPT_BY, "KEY", "thread (default), function, file, frame, lib, line, root, process" },
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	{ "only", OPT_ONLY, "PART", "print only the summary or the keys table" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_INPUT_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... TOTAL GIL\n       sift-gil [OPTION]... --total FILE... --gil FILE...",
	"Compare an all-threads profile (TOTAL) with a py-spy record --gil profile (GIL) of the same\n"
	"job: how much of the CPU burn holds the GIL, in all and per key. With each recording's\n"
	"seconds (and rate), the GIL utilization (share of wall time some thread held the GIL),\n"
	"the mean number of active threads, and the GIL share of active samples.",
	options,
	"Exit status: 0 ok, 1 data error (unreadable or empty profile, impossible counts), 2 usage.\n",
};

struct recording {
	char **files;
	size_t nfiles;
	double seconds;     /* 0: not given */
	double rate;        /* 0: not given */
	uint64_t samples;
};

struct gil_opts {
	enum frame_key by;
	unsigned long long limit;
	enum table_format format;
	int only;
};

static void add_file(struct recording *r, char *file)
{
	r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
	r->files[r->nfiles++] = file;
}

static double positive(const char *option, const char *value)
{
	double d = cli_double(&spec, option, value);
	if (d <= 0)
		cli_usage_error(&spec, "%s must be above zero: '%s'", option, value);
	return d;
}

/* Samples per second of wall time: the mean number of threads sampled, or NaN. */
static double per_wall_second(uint64_t samples, const struct recording *r)
{
	return r->seconds > 0 ? (double)samples / (r->seconds * r->rate) : NAN;
}

static prof *load_side(const struct recording *r, const char *what, struct load_opts *lopts,
		       struct err_lines *errs, int *status, uint64_t *samples)
{
	prof *p = prof_new();
	struct load_stats st;
	if (load_files(p, r->files, r->nfiles, lopts, errs, &st) != 0)
		*status = EXIT_DATA;
	(void)what;
	*samples = st.samples_kept;
	return p;
}

struct summary_row { const char *name; double value; int decimals; const char *text; };

static void print_summary(const struct summary_row *rows, size_t n, enum table_format format)
{
	if (format == TABLE_TEXT) {
		for (size_t i = 0; i < n; i++) {
			if (rows[i].text)
				printf("%-26s %s\n", rows[i].name, rows[i].text);
			else if (!isnan(rows[i].value))
				printf("%-26s %.*f\n", rows[i].name, rows[i].decimals, rows[i].value);
		}
		return;
	}
	if (format == TABLE_JSON) { /* an object of numbers, under "summary" */
		json_t *obj = json_object();
		for (size_t i = 0; i < n; i++) {
			if (rows[i].text)
				json_object_set_new(obj, rows[i].name, json_string(rows[i].text));
			else if (!isnan(rows[i].value))
				json_object_set_new(obj, rows[i].name, rows[i].decimals == 0
					? json_integer((json_int_t)rows[i].value)
					: json_real(round(rows[i].value * pow(10, rows[i].decimals)) / pow(10, rows[i].decimals)));
		}
		json_dumpf(obj, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
		json_decref(obj);
		return;
	}
	const struct table_column cols[] = { { "name", TABLE_STR, 0 }, { "value", TABLE_STR, 0 } };
	table *t = table_new(cols, 2);
	for (size_t i = 0; i < n; i++) {
		char buf[64];
		const char *text = rows[i].text;
		if (!text) {
			if (isnan(rows[i].value))
				continue;
			snprintf(buf, sizeof buf, "%.*f", rows[i].decimals, rows[i].value);
			text = buf;
		}
		table_add_row(t);
		table_set_str(t, 0, rows[i].name, strlen(rows[i].name));
		table_set_str(t, 1, text, strlen(text));
	}
	table_write(t, stdout, format, 0);
	table_free(t);
}

/* Per key: inclusive samples on each side, joined by key text. */
static void print_keys(const prof *total, const prof *gil, const struct recording *tr,
		       const struct recording *gr, const struct gil_opts *o, int timed)
{
	agg *ta = agg_new(total, o->by), *ga = agg_new(gil, o->by);
	const intern *tkeys = agg_keys(ta), *gkeys = agg_keys(ga);
	size_t nt = agg_row_count(ta), ng = agg_row_count(ga);
	/* Rows by key id of the total side; GIL-only keys appended after. */
	uint64_t *gil_of = xcalloc(nt + 1, sizeof *gil_of);
	struct row { uint32_t tkey, gkey; uint64_t t, g; double share; } *rows = xcalloc(nt + ng + 1, sizeof *rows);
	size_t nrows = 0;
	const struct agg_row *trows = agg_rows(ta), *grows = agg_rows(ga);
	for (size_t i = 0; i < ng; i++) {
		size_t len;
		const char *text = intern_str(gkeys, grows[i].key, &len);
		uint32_t id = intern_find(tkeys, text, len);
		if (id == INTERN_NONE)
			rows[nrows++] = (struct row){ INTERN_NONE, grows[i].key, 0, grows[i].total, 0 };
		else
			gil_of[id] = grows[i].total;
	}
	for (size_t i = 0; i < nt; i++)
		rows[nrows++] = (struct row){ trows[i].key, INTERN_NONE, trows[i].total, gil_of[trows[i].key], 0 };
	for (size_t i = 0; i < nrows; i++) {
		double tn = timed ? per_wall_second(rows[i].t, tr) : (double)rows[i].t;
		double gn = timed ? per_wall_second(rows[i].g, gr) : (double)rows[i].g;
		rows[i].share = tn > 0 ? 100.0 * gn / tn : (gn > 0 ? INFINITY : 0);
	}
	/* Most GIL first: that is what a user looks for here; then by total. */
	for (size_t i = 1; i < nrows; i++)
		for (size_t j = i; j > 0; j--) {
			struct row *a = &rows[j - 1], *b = &rows[j];
			if (a->g > b->g || (a->g == b->g && a->t >= b->t))
				break;
			struct row tmp = *a;
			*a = *b;
			*b = tmp;
		}

	const struct table_column cols[] = {
		{ frame_key_names[o->by], TABLE_STR, 0 },
		{ "total", TABLE_UINT, 0 },
		{ "gil", TABLE_UINT, 0 },
		{ "total_per_s", TABLE_REAL, 4 },
		{ "gil_per_s", TABLE_REAL, 4 },
		{ "gil_share_pct", TABLE_PCT, 0 },
		{ "flag", TABLE_STR, 0 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	for (size_t i = 0; i < nrows && (o->limit == 0 || i < o->limit); i++) {
		size_t len;
		const char *text = rows[i].tkey != INTERN_NONE ? intern_str(tkeys, rows[i].tkey, &len)
							      : intern_str(gkeys, rows[i].gkey, &len);
		table_add_row(t);
		table_set_str(t, 0, text, len);
		table_set_uint(t, 1, rows[i].t);
		table_set_uint(t, 2, rows[i].g);
		table_set_real(t, 3, timed ? per_wall_second(rows[i].t, tr) : NAN);
		table_set_real(t, 4, timed ? per_wall_second(rows[i].g, gr) : NAN);
		if (isfinite(rows[i].share))
			table_set_real(t, 5, rows[i].share);
		const char *flag = rows[i].tkey == INTERN_NONE ? "GIL-ONLY" : rows[i].share > 100.0 ? "OVER-100" : "";
		table_set_str(t, 6, flag, strlen(flag));
	}
	table_write(t, stdout, o->format, TABLE_TEXT_KEY_LAST);
	table_free(t);
	free(rows);
	free(gil_of);
	agg_free(ta);
	agg_free(ga);
}

int main(int argc, char **argv)
{
	struct gil_opts o = { KEY_THREAD, 20, TABLE_TEXT, PART_BOTH };
	struct recording tr = { 0 }, gr = { 0 };
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first, named = 0;
	double rate = 0;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_TOTAL: add_file(&tr, (char *)value); named = 1; break;
		case OPT_GIL: add_file(&gr, (char *)value); named = 1; break;
		case OPT_TOTAL_SECONDS: tr.seconds = positive("--total-seconds", value); break;
		case OPT_GIL_SECONDS: gr.seconds = positive("--gil-seconds", value); break;
		case OPT_RATE: rate = positive("--rate", value); break;
		case OPT_TOTAL_RATE: tr.rate = positive("--total-rate", value); break;
		case OPT_GIL_RATE: gr.rate = positive("--gil-rate", value); break;
		case OPT_BY:
			o.by = (enum frame_key)cli_choice(&spec, "--by", value, frame_key_names);
			if (o.by == KEY_CATEGORY)
				cli_usage_error(&spec, "--by category needs the category rules, not built yet");
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_ONLY: o.only = cli_choice(&spec, "--only", value, part_names); break;
		default:
			if (!profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	int operands = argc - first;
	if (named && operands > 0)
		cli_usage_error(&spec, "give the profiles either as TOTAL GIL or with --total/--gil, not both");
	if (!named) {
		if (operands != 2)
			cli_usage_error(&spec, "expected two profiles, TOTAL and GIL; got %d", operands);
		add_file(&tr, argv[first]);
		add_file(&gr, argv[first + 1]);
	}
	if (!tr.nfiles || !gr.nfiles)
		cli_usage_error(&spec, "both --total and --gil profiles are needed");
	if ((tr.seconds > 0) != (gr.seconds > 0))
		cli_usage_error(&spec, "give both --total-seconds and --gil-seconds, or neither");
	int timed = tr.seconds > 0;
	int rate_assumed = 0;
	if (!tr.rate)
		tr.rate = rate;
	if (!gr.rate)
		gr.rate = rate;
	if (timed && (!tr.rate || !gr.rate)) {
		rate_assumed = 1; /* py-spy records at 100 Hz unless told otherwise */
		tr.rate = tr.rate ? tr.rate : 100;
		gr.rate = gr.rate ? gr.rate : 100;
	}

	int status = EXIT_OK;
	prof *total = load_side(&tr, "TOTAL", &lopts, &errs, &status, &tr.samples);
	prof *gil = load_side(&gr, "GIL", &lopts, &errs, &status, &gr.samples);
	err_lines_finish(&errs);
	if (tr.samples == 0)
		err_exit(EXIT_DATA, "the all-threads profile (%s) has no samples", tr.files[0]);
	if (timed && (double)gr.samples > gr.seconds * gr.rate * 1.05)
		err_exit(EXIT_DATA,
			 "the GIL profile has %llu samples, more than %g s at %g Hz allow: only one thread "
			 "holds the GIL at a time (wrong seconds or rate, or not a --gil profile?)",
			 (unsigned long long)gr.samples, gr.seconds, gr.rate);
	if (gr.samples > tr.samples && !timed)
		err_warn("the GIL profile has more samples than the all-threads one: recordings of "
			 "different length or rate? give --total-seconds/--gil-seconds");

	char note[160];
	snprintf(note, sizeof note, "%s", timed ? (rate_assumed ? "rate not given: 100 Hz assumed" : "")
		 : "no seconds given: both recordings assumed of the same duration and rate");
	double active = per_wall_second(tr.samples, &tr), util = per_wall_second(gr.samples, &gr);
	const struct summary_row summary[] = {
		{ "total_samples", (double)tr.samples, 0, NULL },
		{ "gil_samples", (double)gr.samples, 0, NULL },
		{ "total_seconds", timed ? tr.seconds : NAN, 2, NULL },
		{ "gil_seconds", timed ? gr.seconds : NAN, 2, NULL },
		{ "total_rate_hz", timed ? tr.rate : NAN, 2, NULL },
		{ "gil_rate_hz", timed ? gr.rate : NAN, 2, NULL },
		{ "mean_active_threads", active, 2, NULL },
		{ "gil_utilization_pct", 100.0 * util, 1, NULL },
		{ "gil_share_of_active_pct", timed ? 100.0 * util / active : NAN, 1, NULL },
		{ "gil_to_total_ratio_pct", timed ? NAN : 100.0 * (double)gr.samples / (double)tr.samples, 2, NULL },
		{ "note", NAN, 0, note[0] ? note : NULL },
	};
	/* Two parts: the summary, then the keys; JSON nests them in one object, the line
	 * formats separate them by one blank line (--only prints one part alone). */
	int json = o.format == TABLE_JSON && o.only == PART_BOTH;
	if (json)
		fputs("{\n\"summary\": ", stdout);
	if (o.only != PART_KEYS)
		print_summary(summary, sizeof summary / sizeof summary[0], o.format);
	if (o.only == PART_BOTH)
		fputs(json ? ",\n\"keys\": " : "\n", stdout);
	if (o.only != PART_SUMMARY)
		print_keys(total, gil, &tr, &gr, &o, timed);
	if (json)
		fputs("}\n", stdout);
	else if (o.format == TABLE_JSON && o.only == PART_SUMMARY)
		putchar('\n');
	err_close_stdout();
	prof_free(total);
	prof_free(gil);
	free(tr.files);
	free(gr.files);
	profopt_free(&lopts);
	return status;
}
