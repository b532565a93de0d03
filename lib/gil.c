/* gil: the GIL figures apart from sift-gil's options, so each one is tested on its own. */
#include "gil.h"
#include "intern.h"
#include "xalloc.h"

#include <jansson.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const gil_part_names[] = { "both", "summary", "keys", NULL };

double gil_per_wall_second(uint64_t samples, const struct gil_side *side)
{
	return side->seconds > 0 ? (double)samples / (side->seconds * side->rate) : NAN;
}

static int timed(const struct gil_side *total, const struct gil_side *gil)
{
	return total->seconds > 0 && gil->seconds > 0;
}

static struct gil_figure count(const char *name, uint64_t n)
{
	return (struct gil_figure){ name, 0, 0, NULL, 1, n };
}

static struct gil_figure real(const char *name, double value, int decimals)
{
	return (struct gil_figure){ name, value, decimals, NULL, 0, 0 };
}

size_t gil_summary(const struct gil_side *total, const struct gil_side *gil, int rate_assumed,
		   struct gil_figure *out)
{
	int t = timed(total, gil);
	double active = gil_per_wall_second(total->samples, total);
	double util = gil_per_wall_second(gil->samples, gil);
	size_t n = 0;
	out[n++] = count("total_samples", total->samples);
	out[n++] = count("gil_samples", gil->samples);
	out[n++] = real("total_seconds", t ? total->seconds : NAN, 2);
	out[n++] = real("gil_seconds", t ? gil->seconds : NAN, 2);
	out[n++] = real("total_rate_hz", t ? total->rate : NAN, 2);
	out[n++] = real("gil_rate_hz", t ? gil->rate : NAN, 2);
	out[n++] = real("mean_active_threads", active, 2);
	out[n++] = real("gil_utilization_pct", 100.0 * util, 1);
	out[n++] = real("gil_share_of_active_pct", t ? 100.0 * util / active : NAN, 1);
	out[n++] = real("gil_to_total_ratio_pct",
			t ? NAN : 100.0 * (double)gil->samples / (double)total->samples, 2);
	const char *note = t ? (rate_assumed ? "rate not given: 100 Hz assumed" : NULL)
			     : "no seconds given: both recordings assumed of the same duration and rate";
	out[n++] = (struct gil_figure){ "note", NAN, 0, note, 0, 0 };
	return n;
}

static int more_gil_first(const void *pa, const void *pb)
{
	const struct gil_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->total != b->total)
		return a->total < b->total ? 1 : -1;
	return 0;
}

size_t gil_rows(const struct gil_side *total, const struct gil_side *gil, struct gil_row **out)
{
	int t = timed(total, gil);
	struct agg_join_row *joined;
	size_t n = agg_join(total->sum, gil->sum, &joined);
	struct gil_row *rows = xcalloc(n + 1, sizeof *rows);
	for (size_t i = 0; i < n; i++) {
		struct gil_row *r = &rows[i];
		r->join = joined[i];
		r->total = joined[i].side[0] ? joined[i].side[0]->total : 0;
		r->gil = joined[i].side[1] ? joined[i].side[1]->total : 0;
		double tn = t ? gil_per_wall_second(r->total, total) : (double)r->total;
		double gn = t ? gil_per_wall_second(r->gil, gil) : (double)r->gil;
		r->share = tn > 0 ? 100.0 * gn / tn : (gn > 0 ? INFINITY : 0);
	}
	free(joined);
	/* Most GIL first: that is what a user looks for here; then by total. */
	qsort(rows, n, sizeof *rows, more_gil_first);
	*out = rows;
	return n;
}

table *gil_keys_table(const struct gil_side *total, const struct gil_side *gil,
		      const struct agg_spec *keys, unsigned long long limit)
{
	struct gil_row *rows;
	size_t nrows = gil_rows(total, gil, &rows);
	size_t nk = keys->nkeys;
	struct table_column cols[8];
	for (size_t k = 0; k < nk; k++)
		cols[k] = (struct table_column){ frame_key_names[keys->keys[k]], TABLE_STR, 0 };
	cols[nk] = (struct table_column){ "total", TABLE_UINT, 0 };
	cols[nk + 1] = (struct table_column){ "gil", TABLE_UINT, 0 };
	cols[nk + 2] = (struct table_column){ "total_per_s", TABLE_REAL, 4 };
	cols[nk + 3] = (struct table_column){ "gil_per_s", TABLE_REAL, 4 };
	cols[nk + 4] = (struct table_column){ "gil_share_pct", TABLE_PCT, 0 };
	cols[nk + 5] = (struct table_column){ "flag", TABLE_STR, 0 };
	table *t = table_new(cols, nk + 6);
	for (size_t i = 0; i < nrows && (limit == 0 || i < limit); i++) {
		const struct gil_row *r = &rows[i];
		table_add_row(t);
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *text = agg_join_key(total->sum, gil->sum, &r->join, k, &len);
			table_set_str(t, k, text, len);
		}
		table_set_uint(t, nk, r->total);
		table_set_uint(t, nk + 1, r->gil);
		table_set_real(t, nk + 2, gil_per_wall_second(r->total, total));
		table_set_real(t, nk + 3, gil_per_wall_second(r->gil, gil));
		if (isfinite(r->share))
			table_set_real(t, nk + 4, r->share);
		const char *flag = !r->join.side[0] ? "GIL-ONLY" : r->share > 100.0 ? "OVER-100" : "";
		table_set_str(t, nk + 5, flag, strlen(flag));
	}
	free(rows);
	return t;
}

/* --dumps: the same questions answered from py-spy dump statuses. */
struct dump_row { uint32_t name; uint64_t seen, active, gil; };

struct gil_dumps {
	intern *ids;                    /* "PID TID" -> row */
	intern *names;                  /* thread frames, for display */
	struct dump_row *rows;
	size_t nrows, cap;
	uint64_t last_snapshot, snapshots_with_gil, active_threads;
	int snapshot_has_gil;
};

gil_dumps *gil_dumps_new(void)
{
	gil_dumps *d = xcalloc(1, sizeof *d);
	d->ids = intern_new();
	d->names = intern_new();
	return d;
}

void gil_dumps_free(gil_dumps *d)
{
	if (!d)
		return;
	intern_free(d->ids);
	intern_free(d->names);
	free(d->rows);
	free(d);
}

void gil_dumps_thread(void *ctx, const struct dump_thread *t)
{
	gil_dumps *d = ctx;
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
		d->rows[id] = (struct dump_row){ intern_add(d->names, t->thread_frame.s, t->thread_frame.len), 0, 0, 0 };
		d->nrows = (size_t)id + 1;
	}
	struct dump_row *r = &d->rows[id];
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

size_t gil_dumps_summary(const gil_dumps *d, uint64_t snapshots, struct gil_figure *out)
{
	double n = (double)snapshots;
	double active = (double)d->active_threads / n, util = (double)d->snapshots_with_gil / n;
	out[0] = count("snapshots", snapshots);
	out[1] = count("snapshots_with_gil", d->snapshots_with_gil);
	out[2] = real("mean_active_threads", active, 2);
	out[3] = real("gil_utilization_pct", 100.0 * util, 1);
	out[4] = real("gil_share_of_active_pct", active > 0 ? 100.0 * util / active : NAN, 1);
	return 5;
}

static int dump_rows_by_gil(const void *pa, const void *pb)
{
	const struct dump_row *a = pa, *b = pb;
	if (a->gil != b->gil)
		return a->gil < b->gil ? 1 : -1;
	if (a->active != b->active)
		return a->active < b->active ? 1 : -1;
	return (a->name > b->name) - (a->name < b->name);
}

table *gil_dumps_table(gil_dumps *d, uint64_t snapshots, unsigned long long limit)
{
	if (d->nrows > 1)
		qsort(d->rows, d->nrows, sizeof *d->rows, dump_rows_by_gil);
	const struct table_column cols[] = {
		{ "thread", TABLE_STR, 0 }, { "seen", TABLE_UINT, 0 }, { "active", TABLE_UINT, 0 },
		{ "gil", TABLE_UINT, 0 }, { "active_pct", TABLE_PCT, 0 }, { "gil_pct", TABLE_PCT, 0 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	for (size_t i = 0; i < d->nrows && (limit == 0 || i < limit); i++) {
		const struct dump_row *r = &d->rows[i];
		size_t len;
		const char *name = intern_str(d->names, r->name, &len);
		table_add_row(t);
		table_set_str(t, 0, name, len);
		table_set_uint(t, 1, r->seen);
		table_set_uint(t, 2, r->active);
		table_set_uint(t, 3, r->gil);
		table_set_real(t, 4, table_pct(r->active, snapshots));
		table_set_real(t, 5, table_pct(r->gil, snapshots));
	}
	return t;
}

static void write_json(const struct gil_figure *f, size_t n, FILE *out)
{
	json_t *obj = json_object();
	for (size_t i = 0; i < n; i++) {
		if (f[i].text)
			json_object_set_new(obj, f[i].name, json_string(f[i].text));
		else if (f[i].is_count) /* as table.c: past INT64_MAX only a real holds it */
			json_object_set_new(obj, f[i].name, f[i].count <= (uint64_t)INT64_MAX
				? json_integer((json_int_t)f[i].count) : json_real((double)f[i].count));
		else if (!isnan(f[i].value))
			json_object_set_new(obj, f[i].name, f[i].decimals == 0
				? json_integer((json_int_t)f[i].value)
				: json_real(round(f[i].value * pow(10, f[i].decimals)) / pow(10, f[i].decimals)));
	}
	json_dumpf(obj, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(obj);
}

/* The summary: "name value" lines in text, an object in JSON, a name/value table else. */
static void write_summary(const struct gil_figure *f, size_t n, FILE *out, enum table_format format)
{
	if (format == TABLE_TEXT) {
		for (size_t i = 0; i < n; i++) {
			if (f[i].text)
				fprintf(out, "%-26s %s\n", f[i].name, f[i].text);
			else if (f[i].is_count)
				fprintf(out, "%-26s %llu\n", f[i].name, (unsigned long long)f[i].count);
			else if (!isnan(f[i].value))
				fprintf(out, "%-26s %.*f\n", f[i].name, f[i].decimals, f[i].value);
		}
		return;
	}
	if (format == TABLE_JSON) {
		write_json(f, n, out);
		return;
	}
	const struct table_column cols[] = { { "name", TABLE_STR, 0 }, { "value", TABLE_STR, 0 } };
	table *t = table_new(cols, 2);
	for (size_t i = 0; i < n; i++) {
		char buf[64];
		const char *text = f[i].text;
		if (!text && f[i].is_count) {
			snprintf(buf, sizeof buf, "%llu", (unsigned long long)f[i].count);
			text = buf;
		} else if (!text) {
			if (isnan(f[i].value))
				continue;
			snprintf(buf, sizeof buf, "%.*f", f[i].decimals, f[i].value);
			text = buf;
		}
		table_add_row(t);
		table_set_str(t, 0, f[i].name, strlen(f[i].name));
		table_set_str(t, 1, text, strlen(text));
	}
	table_write(t, out, format, 0);
	table_free(t);
}

void gil_write(FILE *out, enum table_format format, enum gil_part part,
	       const struct gil_figure *figures, size_t nfigures, const table *keys, unsigned flags)
{
	int json = format == TABLE_JSON && part == GIL_BOTH;
	if (json)
		fputs("{\n\"summary\": ", out);
	if (part != GIL_KEYS)
		write_summary(figures, nfigures, out, format);
	if (part == GIL_BOTH)
		fputs(json ? ",\n\"keys\": " : "\n", out);
	if (part != GIL_SUMMARY)
		table_write(keys, out, format, flags);
	if (json)
		fputs("}\n", out);
	else if (format == TABLE_JSON && part == GIL_SUMMARY)
		putc('\n', out);
}
