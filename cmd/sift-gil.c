/* sift-gil: how much of the CPU burn holds the GIL, from an all-threads profile and a --gil one. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/sniff.h"
#include "../lib/sum.h"
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
	OPT_GIL_RATE, OPT_ONLY, OPT_DUMPS,
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
	{ "by", OPT_BY, "KEY", "thread (default), function, file, frame, lib, line, root, process,\n"
	  "                            category, or two of them: KEY,KEY" },
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	{ "only", OPT_ONLY, "PART", "print only the summary or the keys table" },
	{ "dumps", OPT_DUMPS, NULL, "FILEs are py-spy dump snapshots: GIL figures from thread statuses" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_INPUT_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... TOTAL GIL\n       sift-gil [OPTION]... --total FILE... --gil FILE...\n"
	"       sift-gil --dumps [OPTION]... FILE...",
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
	struct agg_spec keys;
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

/* Sum one recording by the table's keys as it is read: the stacks are not kept. */
static agg *load_side(const struct recording *r, const struct load_opts *lopts,
		      const struct agg_spec *keys, struct err_lines *errs, int *status, uint64_t *samples)
{
	struct sum_result sum;
	if (sum_files(r->files, r->nfiles, lopts, keys, 0, errs, &sum) != 0)
		*status = EXIT_DATA;
	*samples = sum.stats.samples_kept;
	return sum.table;
}

/* count: sample and snapshot counts print exactly (a double rounds past 2^53). */
struct summary_row { const char *name; double value; int decimals; const char *text; int is_count; uint64_t count; };

static void print_summary(const struct summary_row *rows, size_t n, enum table_format format)
{
	if (format == TABLE_TEXT) {
		for (size_t i = 0; i < n; i++) {
			if (rows[i].text)
				printf("%-26s %s\n", rows[i].name, rows[i].text);
			else if (rows[i].is_count)
				printf("%-26s %llu\n", rows[i].name, (unsigned long long)rows[i].count);
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
			else if (rows[i].is_count) /* as table.c: past INT64_MAX only a real holds it */
				json_object_set_new(obj, rows[i].name, rows[i].count <= (uint64_t)INT64_MAX
					? json_integer((json_int_t)rows[i].count) : json_real((double)rows[i].count));
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
		if (!text && rows[i].is_count) {
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)rows[i].count);
			text = buf;
		} else if (!text) {
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

struct gil_row {
	struct agg_join_row join;
	uint64_t total, gil;
	double share;               /* percent; infinite when only the GIL side has it */
};

static int more_gil_first(const void *pa, const void *pb)
{
	const struct gil_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return 0;
}

/* Per key: inclusive samples on each side, joined by key text. */
static void print_keys(const agg *ta, const agg *ga, const struct recording *tr,
		       const struct recording *gr, const struct gil_opts *o, int timed)
{
	size_t nk = o->keys.nkeys;
	struct agg_join_row *joined;
	size_t nrows = agg_join(ta, ga, &joined);
	struct gil_row *rows = xcalloc(nrows + 1, sizeof *rows);
	for (size_t i = 0; i < nrows; i++) {
		rows[i].join = joined[i];
		rows[i].total = joined[i].side[0] ? joined[i].side[0]->total : 0;
		rows[i].gil = joined[i].side[1] ? joined[i].side[1]->total : 0;
	}
	free(joined);
	for (size_t i = 0; i < nrows; i++) {
		double tn = timed ? per_wall_second(rows[i].total, tr) : (double)rows[i].total;
		double gn = timed ? per_wall_second(rows[i].gil, gr) : (double)rows[i].gil;
		rows[i].share = tn > 0 ? 100.0 * gn / tn : (gn > 0 ? INFINITY : 0);
	}
	/* Most GIL first: that is what a user looks for here; then by total. */
	qsort(rows, nrows, sizeof *rows, more_gil_first);

	struct table_column cols[8];
	for (size_t k = 0; k < nk; k++)
		cols[k] = (struct table_column){ frame_key_names[o->keys.keys[k]], TABLE_STR, 0 };
	cols[nk] = (struct table_column){ "total", TABLE_UINT, 0 };
	cols[nk + 1] = (struct table_column){ "gil", TABLE_UINT, 0 };
	cols[nk + 2] = (struct table_column){ "total_per_s", TABLE_REAL, 4 };
	cols[nk + 3] = (struct table_column){ "gil_per_s", TABLE_REAL, 4 };
	cols[nk + 4] = (struct table_column){ "gil_share_pct", TABLE_PCT, 0 };
	cols[nk + 5] = (struct table_column){ "flag", TABLE_STR, 0 };
	table *t = table_new(cols, nk + 6);
	for (size_t i = 0; i < nrows && (o->limit == 0 || i < o->limit); i++) {
		const struct gil_row *r = &rows[i];
		table_add_row(t);
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *text = agg_join_key(ta, ga, &r->join, k, &len);
			table_set_str(t, k, text, len);
		}
		table_set_uint(t, nk, r->total);
		table_set_uint(t, nk + 1, r->gil);
		table_set_real(t, nk + 2, timed ? per_wall_second(r->total, tr) : NAN);
		table_set_real(t, nk + 3, timed ? per_wall_second(r->gil, gr) : NAN);
		if (isfinite(r->share))
			table_set_real(t, nk + 4, r->share);
		const char *flag = !r->join.side[0] ? "GIL-ONLY" : r->share > 100.0 ? "OVER-100" : "";
		table_set_str(t, nk + 5, flag, strlen(flag));
	}
	table_write(t, stdout, o->format, nk == 1 ? TABLE_TEXT_KEY_LAST : 0);
	table_free(t);
	free(rows);
}

/* --dumps: the same questions answered from py-spy dump statuses. */
struct dump_thread_row { uint32_t name; uint64_t seen, active, gil; };

struct dump_tally {
	intern *ids;                    /* "PID TID" -> row */
	intern *names;                  /* thread frames, for display */
	struct dump_thread_row *rows;
	size_t nrows, cap;
	uint64_t last_snapshot, snapshots_with_gil, active_threads;
	int snapshot_has_gil;
};

static void tally_thread(void *ctx, const struct dump_thread *t)
{
	struct dump_tally *d = ctx;
	if (t->snapshot != d->last_snapshot) {
		d->last_snapshot = t->snapshot;
		d->snapshot_has_gil = 0;
	}
	char key[256];
	const struct dump_text *pid = t->nprocs ? &t->procs[t->nprocs - 1].pid : NULL;
	int n = snprintf(key, sizeof key, "%.*s %.*s", pid ? (int)pid->len : 0, pid ? pid->s : "",
			 (int)t->tid.len, t->tid.s);
	uint32_t id = intern_add(d->ids, key, (size_t)n < sizeof key ? (size_t)n : sizeof key - 1);
	if (id >= d->nrows) {
		d->rows = xgrow(d->rows, &d->cap, (size_t)id + 1, sizeof *d->rows);
		d->rows[id] = (struct dump_thread_row){ intern_add(d->names, t->thread_frame.s, t->thread_frame.len), 0, 0, 0 };
		d->nrows = (size_t)id + 1;
	}
	struct dump_thread_row *r = &d->rows[id];
	r->seen++;
	if (t->status != DUMP_IDLE) {
		r->active++;
		d->active_threads++;
	}
	if (t->status == DUMP_ACTIVE_GIL) {
		r->gil++;
		if (!d->snapshot_has_gil)
			d->snapshots_with_gil++;
		d->snapshot_has_gil = 1;
	}
}

static int dump_rows_by_gil(const void *pa, const void *pb)
{
	const struct dump_thread_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->active != b->active)
		return a->active < b->active ? 1 : -1;
	return (a->name > b->name) - (a->name < b->name);
}

static int run_dumps(char **files, size_t nfiles, const struct gil_opts *o, struct err_lines *errs,
		     enum load_format from)
{
	struct dump_tally d = { 0 };
	d.ids = intern_new();
	d.names = intern_new();
	uint64_t snapshots = 0;
	int status = sniff_read_dumps(files, nfiles, from, errs, tally_thread, &d, &snapshots);
	err_lines_finish(errs);
	if (snapshots == 0)
		err_exit(EXIT_DATA, "no py-spy dump snapshots in the input");
	double n = (double)snapshots;
	double active = (double)d.active_threads / n, util = (double)d.snapshots_with_gil / n;
	const struct summary_row summary[] = {
		{ "snapshots", 0, 0, NULL, 1, snapshots },
		{ "snapshots_with_gil", 0, 0, NULL, 1, d.snapshots_with_gil },
		{ "mean_active_threads", active, 2, NULL, 0, 0 },
		{ "gil_utilization_pct", 100.0 * util, 1, NULL, 0, 0 },
		{ "gil_share_of_active_pct", active > 0 ? 100.0 * util / active : NAN, 1, NULL, 0, 0 },
	};
	int json = o->format == TABLE_JSON && o->only == PART_BOTH;
	if (json)
		fputs("{\n\"summary\": ", stdout);
	if (o->only != PART_KEYS)
		print_summary(summary, sizeof summary / sizeof summary[0], o->format);
	if (o->only == PART_BOTH)
		fputs(json ? ",\n\"keys\": " : "\n", stdout);
	if (o->only != PART_SUMMARY) {
		if (d.nrows > 1)
			qsort(d.rows, d.nrows, sizeof *d.rows, dump_rows_by_gil);
		const struct table_column cols[] = {
			{ "thread", TABLE_STR, 0 }, { "seen", TABLE_UINT, 0 }, { "active", TABLE_UINT, 0 },
			{ "gil", TABLE_UINT, 0 }, { "active_pct", TABLE_PCT, 0 }, { "gil_pct", TABLE_PCT, 0 },
		};
		table *t = table_new(cols, sizeof cols / sizeof cols[0]);
		for (size_t i = 0; i < d.nrows && (o->limit == 0 || i < o->limit); i++) {
			size_t len;
			const char *name = intern_str(d.names, d.rows[i].name, &len);
			table_add_row(t);
			table_set_str(t, 0, name, len);
			table_set_uint(t, 1, d.rows[i].seen);
			table_set_uint(t, 2, d.rows[i].active);
			table_set_uint(t, 3, d.rows[i].gil);
			table_set_real(t, 4, table_pct(d.rows[i].active, snapshots));
			table_set_real(t, 5, table_pct(d.rows[i].gil, snapshots));
		}
		table_write(t, stdout, o->format, TABLE_TEXT_KEY_LAST);
		table_free(t);
	}
	if (json)
		fputs("}\n", stdout);
	else if (o->format == TABLE_JSON && o->only == PART_SUMMARY)
		putchar('\n');
	intern_free(d.ids);
	intern_free(d.names);
	free(d.rows);
	return status;
}

int main(int argc, char **argv)
{
	struct gil_opts o = { { { KEY_THREAD, KEY_THREAD }, 1, NULL, 0 }, 20, TABLE_TEXT, PART_BOTH };
	struct rules_opts ropts = { 0 };
	char msg[256];
	struct recording tr = { 0 }, gr = { 0 };
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first, named = 0, dumps = 0;
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
			if (agg_parse_keys(value, &o.keys, msg, sizeof msg) != 0)
				cli_usage_error(&spec, "%s", msg);
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_ONLY: o.only = cli_choice(&spec, "--only", value, part_names); break;
		case OPT_DUMPS: dumps = 1; break;
		default:
			if (!rules_opts_handle(&ropts, key, value) &&
			    !profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	o.keys.inclusive = ropts.inclusive;
	int operands = argc - first;
	if (dumps) {
		if (named || tr.seconds > 0 || gr.seconds > 0 || rate > 0 || tr.rate > 0 || gr.rate > 0)
			cli_usage_error(&spec, "--dumps takes dump files only: no profiles, seconds or rates");
		int st = run_dumps(argv + first, (size_t)operands, &o, &errs, lopts.from);
		err_close_stdout();
		profopt_free(&lopts);
		rules_free(o.keys.rules);
		rules_opts_free(&ropts);
		return st;
	}
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

	/* Rules are read (and checked) before any input. */
	if (ropts.nfiles || agg_spec_needs_rules(&o.keys))
		o.keys.rules = rules_opts_load(&ropts);

	int status = EXIT_OK;
	agg *total = load_side(&tr, &lopts, &o.keys, &errs, &status, &tr.samples);
	agg *gil = load_side(&gr, &lopts, &o.keys, &errs, &status, &gr.samples);
	err_lines_finish(&errs);
	if (tr.samples == 0)
		err_exit(EXIT_DATA, "the all-threads profile (%s) has no samples", tr.files[0]);
	if (timed && (double)gr.samples > gr.seconds * gr.rate * 1.05)
		err_exit(EXIT_DATA,
			 "the GIL profile has %llu samples, more than %g s at %g Hz allow: only one thread "
			 "holds the GIL at a time (wrong seconds or rate, or not a --gil profile?)",
			 (unsigned long long)gr.samples, gr.seconds, gr.rate);
	if (gr.samples == 0 && status == EXIT_OK) /* an unreadable file was named already */
		err_warn("the GIL profile (%s) has no samples: no thread held the GIL, or py-spy could "
			 "not tell (py-spy before 0.4 on Python 3.12+, or a free-threaded build)", gr.files[0]);
	if (gr.samples > tr.samples && !timed)
		err_warn("the GIL profile has more samples than the all-threads one: recordings of "
			 "different length or rate? give --total-seconds/--gil-seconds");

	char note[160];
	snprintf(note, sizeof note, "%s", timed ? (rate_assumed ? "rate not given: 100 Hz assumed" : "")
		 : "no seconds given: both recordings assumed of the same duration and rate");
	double active = per_wall_second(tr.samples, &tr), util = per_wall_second(gr.samples, &gr);
	const struct summary_row summary[] = {
		{ "total_samples", 0, 0, NULL, 1, tr.samples },
		{ "gil_samples", 0, 0, NULL, 1, gr.samples },
		{ "total_seconds", timed ? tr.seconds : NAN, 2, NULL, 0, 0 },
		{ "gil_seconds", timed ? gr.seconds : NAN, 2, NULL, 0, 0 },
		{ "total_rate_hz", timed ? tr.rate : NAN, 2, NULL, 0, 0 },
		{ "gil_rate_hz", timed ? gr.rate : NAN, 2, NULL, 0, 0 },
		{ "mean_active_threads", active, 2, NULL, 0, 0 },
		{ "gil_utilization_pct", 100.0 * util, 1, NULL, 0, 0 },
		{ "gil_share_of_active_pct", timed ? 100.0 * util / active : NAN, 1, NULL, 0, 0 },
		{ "gil_to_total_ratio_pct", timed ? NAN : 100.0 * (double)gr.samples / (double)tr.samples, 2, NULL, 0, 0 },
		{ "note", NAN, 0, note[0] ? note : NULL, 0, 0 },
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
	agg_free(total);
	agg_free(gil);
	free(tr.files);
	free(gr.files);
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	return status;
}
