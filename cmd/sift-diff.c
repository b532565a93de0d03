/* sift-diff: what moved between two profiles, per key: shares before and after, delta in points, ratio. */
#include "../lib/agg.h"
#include "../lib/cli.h"
#include "../lib/err.h"
#include "../lib/intern.h"
#include "../lib/load.h"
#include "../lib/prof.h"
#include "../lib/profopt.h"
#include "../lib/rules.h"
#include "../lib/sum.h"
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
	{ "by", OPT_BY, "KEY", "frame (default), function, file, lib, line, root, thread, process,\n"
	  "                            category, or two of them: KEY,KEY" },
	RULES_FILE_ROW,
	RULES_INCLUSIVE_ROW,
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
	struct agg_spec keys;
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
	struct agg_join_row key;  /* the key's rows in the before and after sums */
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

struct sort_ctx { const agg *sides[2]; size_t nkeys; };

/* Key k of a row, from whichever profile has it. */
static const char *key_text(const struct sort_ctx *ctx, const struct diff_row *r, size_t k, size_t *len)
{
	return agg_join_key(ctx->sides[0], ctx->sides[1], &r->key, k, len);
}

static int cmp_keys(const struct sort_ctx *ctx, const struct diff_row *x, const struct diff_row *y)
{
	for (size_t k = 0; k < ctx->nkeys; k++) {
		size_t lx, ly;
		const char *sx = key_text(ctx, x, k, &lx), *sy = key_text(ctx, y, k, &ly);
		int c = memcmp(sx, sy, lx < ly ? lx : ly);
		if (c || lx != ly)
			return c ? c : (lx > ly) - (lx < ly);
	}
	return 0;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff_row *x = pa, *y = pb;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	uint64_t sx = x->count[0] + x->count[1], sy = y->count[0] + y->count[1];
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return cmp_keys(arg, x, y);
}

static double share(const struct diff_opts *o, int side, uint64_t count, uint64_t all)
{
	if (o->work[side] > 0)
		return 1000.0 * (double)count / o->work[side];
	return table_pct(count, all);
}

static void print_table(const struct diff_row *rows, size_t n, const struct sort_ctx *ctx,
			const struct diff_opts *o)
{
	int per_work = o->work[0] > 0;
	size_t nk = o->keys.nkeys;
	const struct table_column cols[] = {
		{ frame_key_names[o->keys.keys[0]], TABLE_STR, 0 },
		{ frame_key_names[o->keys.keys[1]], TABLE_STR, 0 },
		{ "before", TABLE_UINT, 0 },
		{ "after", TABLE_UINT, 0 },
		{ per_work ? "before_rate" : "before_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "after_rate" : "after_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "delta_rate" : "delta_pts", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ "ratio", TABLE_REAL, 2 },
		{ "flag", TABLE_STR, 0 },
	};
	/* One column per key: with one key, the second column is left out. */
	struct table_column used[9];
	size_t nc = 0;
	for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
		if (c != 1 || nk == 2)
			used[nc++] = cols[c];
	table *t = table_new(used, nc);
	for (size_t i = 0; i < n && (o->limit == 0 || i < o->limit); i++) {
		const struct diff_row *r = &rows[i];
		table_add_row(t);
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *key = key_text(ctx, r, k, &len);
			table_set_str(t, k, key, len);
		}
		table_set_uint(t, nk, r->count[0]);
		table_set_uint(t, nk + 1, r->count[1]);
		table_set_real(t, nk + 2, r->share[0]);
		table_set_real(t, nk + 3, r->share[1]);
		table_set_real(t, nk + 4, r->delta);
		table_set_real(t, nk + 5, r->share[0] > 0 ? r->share[1] / r->share[0] : NAN);
		if (r->count[0] == 0)
			table_set_str(t, nk + 6, "NEW", 3);
		else if (r->count[1] == 0)
			table_set_str(t, nk + 6, "GONE", 4);
	}
	table_write(t, stdout, o->format, nk == 1 ? TABLE_TEXT_KEY_LAST : 0);
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
/* A gate names a key as written, or a pair as FIRST,SECOND. */
static int gate_names(const struct sort_ctx *ctx, const struct diff_gate *gate, const struct diff_row *r)
{
	size_t l1, l2 = 0;
	const char *k1 = key_text(ctx, r, 0, &l1);
	const char *k2 = ctx->nkeys == 2 ? key_text(ctx, r, 1, &l2) : "";
	if (ctx->nkeys == 1)
		return gate->key_len == l1 && memcmp(gate->key, k1, l1) == 0;
	return gate->key_len == l1 + 1 + l2 && memcmp(gate->key, k1, l1) == 0 &&
	       gate->key[l1] == ',' && memcmp(gate->key + l1 + 1, k2, l2) == 0;
}

static int check_gates(const struct diff_opts *o, const struct diff_row *rows, size_t n,
		       const struct sort_ctx *ctx)
{
	int failed = 0;
	for (size_t g = 0; g < o->ngates; g++) {
		const struct diff_gate *gate = &o->gates[g];
		double delta = 0;
		for (size_t i = 0; i < n; i++)
			if (gate_names(ctx, gate, &rows[i]))
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
	struct diff_opts o = { .keys = { { KEY_FRAME, KEY_FRAME }, 1, NULL, 0 }, .limit = 20, .format = TABLE_TEXT };
	struct rules_opts ropts = { 0 };
	char msg[256];
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
			if (agg_parse_keys(value, &o.keys, msg, sizeof msg) != 0)
				cli_usage_error(&spec, "%s", msg);
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
			if (!rules_opts_handle(&ropts, key, value) &&
			    !profopt_handle(&spec, key, value, &lopts, &errs))
				cli_usage_error(&spec, NULL);
		}
	}
	o.keys.inclusive = ropts.inclusive;
	if (ropts.nfiles || agg_spec_needs_rules(&o.keys))
		o.keys.rules = rules_opts_load(&ropts); /* read (and checked) before any input */
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

	/* The difffolded lines need every stack; the table needs only the sums. */
	prof *ps[2] = { NULL, NULL };
	struct load_stats st[2];
	struct sort_ctx ctx = { { NULL, NULL }, o.keys.nkeys };
	int status = 0;
	for (int s = 0; s < 2; s++) {
		if (o.folded) {
			ps[s] = prof_new();
			status |= load_files(ps[s], o.files[s], o.nfiles[s], &lopts, &errs, &st[s]);
		} else {
			struct sum_result sum;
			status |= sum_files(o.files[s], o.nfiles[s], &lopts, &o.keys, 0, &errs, &sum);
			ctx.sides[s] = sum.table;
			st[s] = sum.stats;
		}
	}
	err_lines_finish(&errs);

	struct diff_row *rows = NULL;
	size_t n = 0;
	if (o.folded) {
		write_folded(ps);
	} else {
		struct agg_join_row *joined;
		size_t nj = agg_join(ctx.sides[0], ctx.sides[1], &joined);
		rows = xcalloc(nj + 1, sizeof *rows);
		for (size_t i = 0; i < nj; i++) {
			struct diff_row r = { joined[i], { 0, 0 }, { 0, 0 }, 0 };
			for (int s = 0; s < 2; s++)
				if (joined[i].side[s])
					r.count[s] = o.total ? joined[i].side[s]->total : joined[i].side[s]->self;
			if (r.count[0] == 0 && r.count[1] == 0)
				continue; /* a key with only total samples, when comparing self */
			for (int s = 0; s < 2; s++)
				r.share[s] = share(&o, s, r.count[s], st[s].samples_read);
			r.delta = r.share[1] - r.share[0];
			rows[n++] = r;
		}
		free(joined);
		if (n)
			qsort_r(rows, n, sizeof *rows, cmp_rows, &ctx);
		if (o.format == TABLE_TEXT)
			printf("before %llu samples  after %llu samples\n",
			       (unsigned long long)st[0].samples_read, (unsigned long long)st[1].samples_read);
		print_table(rows, n, &ctx, &o);
		if (check_gates(&o, rows, n, &ctx))
			status = 1;
	}
	err_close_stdout();

	free(rows);
	for (int s = 0; s < 2; s++) {
		agg_free((agg *)ctx.sides[s]);
		prof_free(ps[s]);
		free(o.files[s]);
	}
	free(o.gates);
	profopt_free(&lopts);
	rules_free(o.keys.rules);
	rules_opts_free(&ropts);
	return status;
}
