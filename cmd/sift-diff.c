/* sift-diff: what moved between two profiles, per key: shares before and after, delta in points, ratio. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/table.h"
#include "../lib/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	OPT_BY = 'b', OPT_N = 'n', OPT_FORMAT = 'f', OPT_BEFORE = 0x2000, OPT_AFTER, OPT_PER_WORK,
	OPT_FOLDED, OPT_FAIL, OPT_TOTAL,
};

static const struct cli_option options[] = {
	{ "by", OPT_BY, "KEY", "frame (default), function, file, lib, line, root, thread, process" },
	{ "top", OPT_N, "N", "show the first N rows (default 20; 0 shows all)" },
	{ "total", OPT_TOTAL, NULL, "compare total (inclusive) samples instead of self samples" },
	{ "before", OPT_BEFORE, "FILES...", "the before profile: every file up to the next option" },
	{ "after", OPT_AFTER, "FILES...", "the after profile: every file up to the next option" },
	{ "per-work", OPT_PER_WORK, "B A", "normalize by work done: samples per 1,000 units (B before, A after)" },
	{ "folded", OPT_FOLDED, NULL, "write `stack before after` lines (difffolded) instead of a table" },
	{ "fail-if-grows", OPT_FAIL, "KEY:POINTS", "exit 1 when KEY's share grows by more than POINTS (repeatable)" },
	{ "format", OPT_FORMAT, "FMT", "text (default), tsv, csv, json, md" },
	PROFOPT_FILTER_ROWS,
	PROFOPT_REWRITE_ROWS,
	PROFOPT_INPUT_ROWS,
	{ 0, 0, 0, 0 },
};

static const struct cli_spec spec = {
	"[OPTION]... BEFORE AFTER\n   or: sift-diff [OPTION]... --before FILE... --after FILE...",
	"Compare two folded-stack profiles per key: each key's share of its own profile before\n"
	"and after, the change in percentage points, and their ratio; sorted by the size of the change.",
	options,
	"Shares are of all samples read in each profile, before filters.\n"
	"Exit status: 0 ok, 1 unreadable input, bad lines with --strict, or a --fail-if-grows\n"
	"limit passed, 2 usage error.\n",
};

/* A CI gate: KEY may itself hold ':' (frames do), so POINTS is after the last one. */
struct diff_gate {
	const char *key;
	size_t key_len;
	double points;
};

struct diff_opts {
	enum frame_key by;
	unsigned long long limit;
	int total;            /* inclusive samples instead of self */
	int folded;
	enum table_format format;
	double work[2];       /* units of work before and after; 0 when not normalizing */
	struct diff_gate *gates;
	size_t ngates;
	char **files[2];      /* before, after */
	size_t nfiles[2];
};

/* One key of either profile: its samples before and after. */
struct diff_row {
	uint32_t key;
	uint64_t count[2];
	double share[2];      /* percent of the profile's samples, or per 1,000 units of work */
	double delta;
};

static int is_option(const char *arg) { return arg[0] == '-' && arg[1] != '\0'; }

/* getopt takes one value per option: --before/--after take every file up to the next
 * option, and --per-work two numbers, so they are taken out of argv before it runs. */
static int take_groups(int argc, char **argv, struct diff_opts *o)
{
	int out = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		int side = strcmp(a, "--before") == 0 ? 0 : strcmp(a, "--after") == 0 ? 1 : -1;
		if (strcmp(a, "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (side >= 0) {
			while (i + 1 < argc && !is_option(argv[i + 1])) {
				o->files[side] = xrealloc(o->files[side], (o->nfiles[side] + 1) * sizeof(char *));
				o->files[side][o->nfiles[side]++] = argv[++i];
			}
			if (o->nfiles[side] == 0)
				cli_usage_error(&spec, "%s needs at least one file", a);
			continue;
		}
		if (strcmp(a, "--per-work") == 0) {
			if (i + 2 >= argc)
				cli_usage_error(&spec, "--per-work needs two numbers: BEFORE_UNITS AFTER_UNITS");
			for (int s = 0; s < 2; s++) {
				o->work[s] = cli_double(&spec, "--per-work", argv[++i]);
				if (o->work[s] <= 0)
					cli_usage_error(&spec, "invalid value for --per-work: '%s' (must be above 0)", argv[i]);
			}
			continue;
		}
		argv[out++] = argv[i];
	}
	argv[out] = NULL;
	return out;
}

static void add_gate(struct diff_opts *o, const char *value)
{
	const char *colon = strrchr(value, ':');
	if (!colon || colon == value)
		cli_usage_error(&spec, "invalid value for --fail-if-grows: '%s' (KEY:POINTS)", value);
	double points = cli_double(&spec, "--fail-if-grows", colon + 1);
	o->gates = xrealloc(o->gates, (o->ngates + 1) * sizeof *o->gates);
	o->gates[o->ngates++] = (struct diff_gate){ value, (size_t)(colon - value), points };
}

/* Sum one profile by key into the shared key table; rows are indexed by key id. */
static void add_side(const prof *p, const struct diff_opts *o, int side, intern *keys,
		     struct diff_row **rows, size_t *cap)
{
	agg *a = agg_new(p, o->by);
	const struct agg_row *ar = agg_rows(a);
	for (size_t i = 0; i < agg_row_count(a); i++) {
		size_t len;
		const char *text = intern_str(agg_keys(a), ar[i].key, &len);
		uint32_t id = intern_add(keys, text, len);
		if (id >= *cap) {
			size_t old = *cap;
			*rows = xgrow(*rows, cap, (size_t)id + 1, sizeof **rows);
			memset(*rows + old, 0, (*cap - old) * sizeof **rows);
		}
		(*rows)[id].key = id;
		(*rows)[id].count[side] += o->total ? ar[i].total : ar[i].self;
	}
	agg_free(a);
}

struct sort_ctx { const intern *keys; };

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff_row *x = pa, *y = pb;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	uint64_t sx = x->count[0] + x->count[1], sy = y->count[0] + y->count[1];
	if (sx != sy)
		return sx < sy ? 1 : -1;
	const struct sort_ctx *ctx = arg;
	return strcmp(intern_str(ctx->keys, x->key, NULL), intern_str(ctx->keys, y->key, NULL));
}

static double share(const struct diff_opts *o, int side, uint64_t count, uint64_t all)
{
	if (o->work[side] > 0)
		return 1000.0 * (double)count / o->work[side];
	return table_pct(count, all);
}

static void print_table(const struct diff_row *rows, size_t n, const intern *keys,
			const struct diff_opts *o)
{
	int per_work = o->work[0] > 0;
	const struct table_column cols[] = {
		{ frame_key_names[o->by], TABLE_STR, 0 },
		{ "before", TABLE_UINT, 0 },
		{ "after", TABLE_UINT, 0 },
		{ per_work ? "before_rate" : "before_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "after_rate" : "after_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "delta_rate" : "delta_pts", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ "ratio", TABLE_REAL, 2 },
		{ "flag", TABLE_STR, 0 },
	};
	table *t = table_new(cols, sizeof cols / sizeof cols[0]);
	for (size_t i = 0; i < n && (o->limit == 0 || i < o->limit); i++) {
		const struct diff_row *r = &rows[i];
		size_t len;
		const char *key = intern_str(keys, r->key, &len);
		table_add_row(t);
		table_set_str(t, 0, key, len);
		table_set_uint(t, 1, r->count[0]);
		table_set_uint(t, 2, r->count[1]);
		table_set_real(t, 3, r->share[0]);
		table_set_real(t, 4, r->share[1]);
		table_set_real(t, 5, r->delta);
		table_set_real(t, 6, r->share[0] > 0 ? r->share[1] / r->share[0] : NAN);
		if (r->count[0] == 0)
			table_set_str(t, 7, "NEW", 3);
		else if (r->count[1] == 0)
			table_set_str(t, 7, "GONE", 4);
	}
	table_write(t, stdout, o->format, TABLE_TEXT_KEY_LAST);
	table_free(t);
}

/* A stack's text, frames joined by ';' as folded lines write them. */
static size_t stack_text(const prof *p, size_t s, uint64_t *count, char **buf, size_t *cap)
{
	size_t n, used = 0;
	const uint32_t *ids = prof_stack(p, s, &n, count);
	for (size_t f = 0; f < n; f++) {
		size_t len;
		const char *fr = intern_str(prof_frames_const(p), ids[f], &len);
		*buf = xgrow(*buf, cap, used + len + 2, 1);
		if (f)
			(*buf)[used++] = ';';
		memcpy(*buf + used, fr, len);
		used += len;
	}
	return used;
}

static int cmp_ids(const void *pa, const void *pb, void *arg)
{
	uint32_t x = *(const uint32_t *)pa, y = *(const uint32_t *)pb;
	return strcmp(intern_str(arg, x, NULL), intern_str(arg, y, NULL));
}

/* difffolded: "stack before after", every stack of either profile, sorted by text. */
static void write_folded(prof *const ps[2])
{
	intern *stacks = intern_new();
	uint64_t *counts = NULL;
	size_t cap = 0, bcap = 0;
	char *buf = NULL;
	for (int side = 0; side < 2; side++) {
		for (size_t s = 0; s < prof_stack_count(ps[side]); s++) {
			uint64_t count;
			size_t len = stack_text(ps[side], s, &count, &buf, &bcap);
			uint32_t id = intern_add(stacks, buf ? buf : "", len);
			if (2 * (size_t)id + 2 > cap) {
				size_t old = cap;
				counts = xgrow(counts, &cap, 2 * (size_t)id + 2, sizeof *counts);
				memset(counts + old, 0, (cap - old) * sizeof *counts);
			}
			counts[2 * id + (size_t)side] += count;
		}
	}
	size_t n = intern_count(stacks);
	uint32_t *order = xmalloc((n + 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, n, sizeof *order, cmp_ids, stacks);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *text = intern_str(stacks, order[i], &len);
		fwrite(text, 1, len, stdout);
		printf(" %llu %llu\n", (unsigned long long)counts[2 * order[i]],
		       (unsigned long long)counts[2 * order[i] + 1]);
	}
	free(order);
	free(buf);
	free(counts);
	intern_free(stacks);
}

/* Gates look at every key, shown or not; a key in neither profile has not grown. */
static int check_gates(const struct diff_opts *o, const struct diff_row *rows, size_t n,
		       const intern *keys)
{
	int failed = 0;
	for (size_t g = 0; g < o->ngates; g++) {
		const struct diff_gate *gate = &o->gates[g];
		uint32_t id = intern_find(keys, gate->key, gate->key_len);
		double delta = 0;
		for (size_t i = 0; i < n && id != INTERN_NONE; i++)
			if (rows[i].key == id)
				delta = rows[i].delta;
		if (delta > gate->points) {
			err_warn("%.*s grew by %.2f %s (limit %g)", (int)gate->key_len, gate->key, delta,
				 o->work[0] > 0 ? "samples per 1,000 units" : "points", gate->points);
			failed = 1;
		}
	}
	return failed;
}

int main(int argc, char **argv)
{
	struct diff_opts o = { .by = KEY_FRAME, .limit = 20, .format = TABLE_TEXT };
	struct load_opts lopts = { 0 };
	struct err_lines errs;
	const char *value;
	int key, first;

	err_set_prog(argv[0]);
	err_lines_init(&errs);
	argc = take_groups(argc, argv, &o);
	while ((key = cli_next(&spec, argc, argv, &value, &first)) != -1) {
		switch (key) {
		case OPT_BY:
			o.by = (enum frame_key)cli_choice(&spec, "--by", value, frame_key_names);
			if (o.by == KEY_CATEGORY) /* as sift-top: the rules arrive with issue 4 */
				cli_usage_error(&spec, "--by category needs the category rules, not built yet");
			break;
		case OPT_N: o.limit = cli_ulong(&spec, "--top", value); break;
		case OPT_TOTAL: o.total = 1; break;
		case OPT_FOLDED: o.folded = 1; break;
		case OPT_FAIL: add_gate(&o, value); break;
		case OPT_FORMAT:
			o.format = (enum table_format)cli_choice(&spec, "--format", value, table_format_names);
			break;
		case OPT_BEFORE: case OPT_AFTER: case OPT_PER_WORK: /* abbreviated: see take_groups */
			cli_usage_error(&spec, "write --before, --after and --per-work in full");
		default:
			if (!profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	int npos = argc - first;
	if (o.nfiles[0] || o.nfiles[1]) {
		if (!o.nfiles[0] || !o.nfiles[1] || npos != 0)
			cli_usage_error(&spec, "give both --before and --after, and no other files");
	} else if (npos != 2) {
		cli_usage_error(&spec, "need two profiles: BEFORE AFTER");
	} else {
		for (int s = 0; s < 2; s++) {
			o.files[s] = xmalloc(sizeof(char *));
			o.files[s][0] = argv[first + s];
			o.nfiles[s] = 1;
		}
	}

	prof *ps[2];
	struct load_stats st[2];
	int status = 0;
	for (int s = 0; s < 2; s++) {
		ps[s] = prof_new();
		status |= load_files(ps[s], o.files[s], o.nfiles[s], &lopts, &errs, &st[s]);
	}
	err_lines_finish(&errs);

	intern *keys = intern_new();
	struct diff_row *rows = NULL;
	size_t cap = 0;
	if (o.folded) {
		write_folded(ps);
	} else {
		for (int s = 0; s < 2; s++)
			add_side(ps[s], &o, s, keys, &rows, &cap);
	}
	size_t n = 0;
	for (size_t i = 0; i < intern_count(keys); i++) {
		struct diff_row r = rows[i];
		if (r.count[0] == 0 && r.count[1] == 0)
			continue; /* a key with only total samples, when comparing self */
		for (int s = 0; s < 2; s++)
			r.share[s] = share(&o, s, r.count[s], st[s].samples_read);
		r.delta = r.share[1] - r.share[0];
		rows[n++] = r;
	}
	struct sort_ctx ctx = { keys };
	if (n)
		qsort_r(rows, n, sizeof *rows, cmp_rows, &ctx);
	if (!o.folded) {
		if (o.format == TABLE_TEXT)
			printf("before %llu samples  after %llu samples\n",
			       (unsigned long long)st[0].samples_read, (unsigned long long)st[1].samples_read);
		print_table(rows, n, keys, &o);
	}
	if (!o.folded && check_gates(&o, rows, n, keys))
		status = 1;
	err_close_stdout();

	free(rows);
	intern_free(keys);
	for (int s = 0; s < 2; s++) {
		prof_free(ps[s]);
		free(o.files[s]);
	}
	free(o.gates);
	profopt_free(&lopts);
	return status;
}
