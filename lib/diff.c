/* diff: the comparison of two profiles apart from sift-diff's options, so each figure is
 * tested on its own and other tools can compare sums the same way. */
#include "diff.h"
#include "err.h"
#include "intern.h"
#include "stats.h"
#include "sum.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct diff {
	const agg *sides[2];
	struct diff_base base;
	struct diff_row *rows;
	size_t nrows;
	size_t nsig;
	size_t ntested;      /* rows tested: share >= base.min_share on either side */
	int replicates;      /* p from inputs as replicates, not from counts */
	int spread;          /* rows have a spread over inputs */
};

const char *diff_key(const diff *d, const struct diff_row *row, size_t k, size_t *len)
{
	return agg_join_key(d->sides[0], d->sides[1], &row->key, k, len);
}

static int cmp_keys(const diff *d, const struct diff_row *x, const struct diff_row *y)
{
	for (size_t k = 0; k < d->base.nkeys; k++) {
		size_t lx, ly;
		const char *sx = diff_key(d, x, k, &lx), *sy = diff_key(d, y, k, &ly);
		int c = memcmp(sx, sy, lx < ly ? lx : ly);
		if (c || lx != ly)
			return c ? c : (lx > ly) - (lx < ly);
	}
	return 0;
}

static int cmp_rows(const void *pa, const void *pb, void *arg)
{
	const struct diff_row *x = pa, *y = pb;
	const diff *d = arg;
	if (!d->base.sort_delta && x->significant != y->significant)
		return x->significant ? -1 : 1;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	if (dx != dy)
		return dx < dy ? 1 : -1;
	uint64_t sx = x->count[0] + x->count[1], sy = y->count[0] + y->count[1];
	if (sx != sy)
		return sx < sy ? 1 : -1;
	return cmp_keys(arg, x, y);
}

static double share(const struct diff_base *b, int side, uint64_t count)
{
	if (b->work[side] > 0)
		return 1000.0 * (double)count / b->work[side];
	return table_pct(count, b->samples[side]);
}

/* Each input's count of each row of side s's sum: counts[row * n + input]. */
static double *input_counts(const diff *d, int s)
{
	size_t n = d->base.ninputs[s], nrows = agg_row_count(d->sides[s]);
	const struct agg_row *base = agg_rows(d->sides[s]);
	double *counts = xcalloc(nrows * n + 1, sizeof *counts);
	for (size_t i = 0; i < n; i++) {
		struct agg_join_row *j;
		size_t nj = agg_join(d->sides[s], d->base.inputs[s][i], &j);
		for (size_t r = 0; r < nj; r++)
			if (j[r].side[0] && j[r].side[1])
				counts[(size_t)(j[r].side[0] - base) * n + i] =
					(double)(d->base.total ? j[r].side[1]->total : j[r].side[1]->self);
		free(j);
	}
	return counts;
}

/* Each input's share of row r of side s, in input order (after: in pairing order). */
static void input_shares(const diff *d, const struct diff_row *r, int s, const double *counts, double *out)
{
	const struct diff_base *b = &d->base;
	const struct agg_row *row = r->key.side[s];
	size_t at = row ? (size_t)(row - agg_rows(d->sides[s])) : 0;
	for (size_t k = 0; k < b->ninputs[s]; k++) {
		size_t in = s == 1 && b->pair ? b->pair[k] : k;
		out[k] = row ? table_pct((uint64_t)counts[at * b->ninputs[s] + in], b->input_samples[s][in]) : 0;
	}
}

/* A row is tested when its share of the samples (not of work) reaches min_share on either side. */
static int row_tested(const diff *d, const struct diff_row *r)
{
	for (int s = 0; s < 2; s++)
		if (table_pct(r->count[s], d->base.samples[s]) >= d->base.min_share)
			return 1;
	return 0;
}

/* Row r's interval and p. With replicates on both sides, each input's share is one
 * observation and one t statistic gives both: paired over matched inputs, else Welch's.
 * Otherwise the counts: two proportions (or two rates per work), which covers sampling
 * noise only, as if samples were independent. */
static void row_test(diff *d, struct diff_row *r, double *const counts[2], double *const shares[2], double *scratch)
{
	const struct diff_base *b = &d->base;
	struct stats_diff_ci ci = { 0, 0, 0 };
	double p = 1, scale = 100;
	for (int s = 0; d->spread && s < 2; s++) {
		input_shares(d, r, s, counts[s], shares[s]);
		struct stats_summary sum; /* of a copy: the shares keep their input order */
		memcpy(scratch, shares[s], b->ninputs[s] * sizeof *scratch);
		stats_summarize(scratch, b->ninputs[s], &sum);
		r->spread[s][0] = sum.min;
		r->spread[s][1] = sum.median;
		r->spread[s][2] = sum.max;
	}
	if (d->replicates) {
		struct stats_t_test t;
		if (b->pair)
			stats_paired_t(shares[0], shares[1], b->ninputs[0], 0.95, &t);
		else
			stats_welch(shares[0], b->ninputs[0], shares[1], b->ninputs[1], 0.95, &t);
		ci = (struct stats_diff_ci){ t.diff, t.low, t.high };
		p = t.p;
		scale = 1;
	} else if (b->work[0] > 0) {
		stats_two_rate(r->count[0], b->work[0], r->count[1], b->work[1], 0.95, &ci, &p);
		scale = 1000;
	} else if (stats_two_proportion(r->count[0], b->samples[0], r->count[1], b->samples[1],
					0.95, &ci, &p) != 0) {
		ci.low = ci.high = p = NAN; /* a side with no samples: nothing to test */
	}
	r->ci_low = scale * ci.low;
	r->ci_high = scale * ci.high;
	r->p = p;
}

/* Every row's interval and p; q over the tested rows (Benjamini-Hochberg). */
static void diff_test(diff *d)
{
	const struct diff_base *b = &d->base;
	d->spread = b->ninputs[0] >= 2 && b->ninputs[1] >= 2;
	d->replicates = d->spread && b->work[0] <= 0;
	if (!d->spread)
		d->base.pair = NULL;
	double *counts[2] = { NULL, NULL }, *shares[2] = { NULL, NULL }, *scratch = NULL;
	if (d->spread) {
		for (int s = 0; s < 2; s++) {
			counts[s] = input_counts(d, s);
			shares[s] = xmalloc(b->ninputs[s] * sizeof *shares[s]);
		}
		scratch = xmalloc((b->ninputs[0] > b->ninputs[1] ? b->ninputs[0] : b->ninputs[1]) * sizeof *scratch);
	}
	double *ps = xmalloc((d->nrows + 1) * sizeof *ps), *qs = xmalloc((d->nrows + 1) * sizeof *qs);
	for (size_t i = 0; i < d->nrows; i++) {
		struct diff_row *r = &d->rows[i];
		row_test(d, r, counts, shares, scratch);
		r->tested = !isnan(r->p) && row_tested(d, r);
		if (r->tested)
			ps[d->ntested++] = r->p;
	}
	/* Untested rows keep their interval and p but take no part in the correction. */
	stats_bh(ps, d->ntested, qs);
	for (size_t i = 0, t = 0; i < d->nrows; i++) {
		d->rows[i].q = d->rows[i].tested ? qs[t++] : NAN;
		d->rows[i].significant = d->rows[i].q < DIFF_ALPHA;
		d->nsig += (size_t)d->rows[i].significant;
	}
	free(ps);
	free(qs);
	free(scratch);
	for (int s = 0; s < 2; s++) {
		free(counts[s]);
		free(shares[s]);
	}
}

size_t diff_significant_count(const diff *d) { return d->nsig; }
size_t diff_tested_count(const diff *d) { return d->ntested; }
int diff_has_spread(const diff *d) { return d->spread; }
int diff_paired(const diff *d) { return d->replicates && d->base.pair != NULL; }

const char *diff_method(const diff *d)
{
	if (d->replicates)
		return d->base.pair ? "paired t test over inputs"
		       : d->base.time_blocks ? "Welch t test over blocks of time" : "Welch t test over inputs";
	return d->base.work[0] > 0 ? "two-rate test of counts: sampling noise only"
				   : "two-proportion test of counts: sampling noise only";
}

const char *diff_test_name(const diff *d)
{
	if (d->replicates)
		return d->base.pair ? "paired-t" : d->base.time_blocks ? "welch-t-time-blocks" : "welch-t";
	return "counts-sampling-noise-only";
}

diff *diff_new(const agg *before, const agg *after, const struct diff_base *base)
{
	diff *d = xcalloc(1, sizeof *d);
	d->sides[0] = before;
	d->sides[1] = after;
	d->base = *base;
	struct agg_join_row *joined;
	size_t nj = agg_join(before, after, &joined);
	d->rows = xcalloc(nj + 1, sizeof *d->rows);
	for (size_t i = 0; i < nj; i++) {
		struct diff_row r = { .key = joined[i], .p = 1, .q = 1 };
		for (int s = 0; s < 2; s++)
			if (joined[i].side[s])
				r.count[s] = base->total ? joined[i].side[s]->total : joined[i].side[s]->self;
		if (r.count[0] == 0 && r.count[1] == 0)
			continue; /* a key with only total samples, when comparing self */
		for (int s = 0; s < 2; s++)
			r.share[s] = share(base, s, r.count[s]);
		r.delta = r.share[1] - r.share[0];
		d->rows[d->nrows++] = r;
	}
	free(joined);
	diff_test(d);
	if (d->nrows)
		qsort_r(d->rows, d->nrows, sizeof *d->rows, cmp_rows, d);
	return d;
}

void diff_free(diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d);
}

size_t diff_row_count(const diff *d) { return d->nrows; }
const struct diff_row *diff_rows(const diff *d) { return d->rows; }

const char *const diff_columns[DIFF_NCOLS] = {
	"before", "after", "before_pct", "after_pct", "delta_pts", "ratio", "flag", "delta_ci_low",
	"delta_ci_high", "p_value", "q_value", "sig", "test", "before_min", "before_median",
	"before_max", "after_min", "after_median", "after_max",
};
const char *const diff_columns_alt[DIFF_NCOLS] = {
	[DIFF_COL_BEFORE] = "before_total", [DIFF_COL_AFTER] = "after_total",
	[DIFF_COL_BEFORE_SHARE] = "before_rate", [DIFF_COL_AFTER_SHARE] = "after_rate",
	[DIFF_COL_DELTA] = "delta_rate",
};

table *diff_table(const diff *d, unsigned long long limit, unsigned flags)
{
	int per_work = d->base.work[0] > 0;
	size_t nk = d->base.nkeys;
	const char *const *counts = d->base.total ? diff_columns_alt : diff_columns;
	const char *const *shares = per_work ? diff_columns_alt : diff_columns;
	enum table_type share = per_work ? TABLE_REAL : TABLE_PCT;
	struct table_column cols[2 + DIFF_NCOLS] = {
		{ frame_key_names[d->base.keys[0]], TABLE_STR, 0 },
		{ frame_key_names[d->base.keys[1]], TABLE_STR, 0 },
		{ counts[DIFF_COL_BEFORE], TABLE_UINT, 0 },
		{ counts[DIFF_COL_AFTER], TABLE_UINT, 0 },
		{ shares[DIFF_COL_BEFORE_SHARE], share, 3 },
		{ shares[DIFF_COL_AFTER_SHARE], share, 3 },
		{ shares[DIFF_COL_DELTA], share, 3 },
		{ NULL, TABLE_REAL, 2 },
		{ NULL, TABLE_STR, 0 },
		{ NULL, share, 3 },
		{ NULL, share, 3 },
		{ NULL, TABLE_REAL, 4 },
		{ NULL, TABLE_REAL, 4 },
		{ NULL, TABLE_STR, 0 },
		{ NULL, TABLE_STR, 0 },
		{ NULL, TABLE_PCT, 3 }, { NULL, TABLE_PCT, 3 }, { NULL, TABLE_PCT, 3 },
		{ NULL, TABLE_PCT, 3 }, { NULL, TABLE_PCT, 3 }, { NULL, TABLE_PCT, 3 },
	};
	for (size_t c = DIFF_COL_RATIO; c < DIFF_NCOLS; c++)
		cols[2 + c].name = diff_columns[c];
	/* One column per key: with one key, the second column is left out; the test's name
	 * when asked; the spread only with inputs to spread over. */
	enum { NCOLS = 2 + DIFF_NCOLS, TEST_COL = 2 + DIFF_COL_TEST };
	struct table_column used[NCOLS];
	size_t nc = 0, with_test = (flags & DIFF_TABLE_TEST) != 0;
	for (size_t c = 0; c < NCOLS - (d->spread ? 0 : DIFF_NCOLS - DIFF_COL_BEFORE_MIN); c++)
		if ((c != 1 || nk == 2) && (c != TEST_COL || with_test))
			used[nc++] = cols[c];
	table *t = table_new(used, nc);
	for (size_t i = 0; i < d->nrows && (limit == 0 || i < limit); i++) {
		const struct diff_row *r = &d->rows[i];
		table_add_row(t);
		for (size_t k = 0; k < nk; k++) {
			size_t len;
			const char *key = diff_key(d, r, k, &len);
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
		table_set_real(t, nk + 7, r->ci_low);
		table_set_real(t, nk + 8, r->ci_high);
		table_set_real(t, nk + 9, r->p);
		table_set_real(t, nk + 10, r->q);
		if (r->significant)
			table_set_str(t, nk + 11, "*", 1);
		if (with_test) {
			const char *name = diff_test_name(d);
			table_set_str(t, nk + 12, name, strlen(name));
		}
		for (size_t c = 0; d->spread && c < 6; c++)
			table_set_real(t, nk + 12 + with_test + c, r->spread[c / 3][c % 3]);
	}
	return t;
}

/* A gate names a key as written, or a pair as FIRST,SECOND. */
static int gate_names(const diff *d, const struct diff_gate *gate, const struct diff_row *r)
{
	size_t l1, l2 = 0;
	const char *k1 = diff_key(d, r, 0, &l1);
	const char *k2 = d->base.nkeys == 2 ? diff_key(d, r, 1, &l2) : "";
	if (d->base.nkeys == 1)
		return gate->key_len == l1 && memcmp(gate->key, k1, l1) == 0;
	return gate->key_len == l1 + 1 + l2 && memcmp(gate->key, k1, l1) == 0 &&
	       gate->key[l1] == ',' && memcmp(gate->key + l1 + 1, k2, l2) == 0;
}

const struct diff_row *diff_gate_row(const diff *d, const struct diff_gate *gate)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (gate_names(d, gate, &d->rows[i]))
			return &d->rows[i];
	return NULL;
}

double diff_gate_delta(const diff *d, const struct diff_gate *gate)
{
	const struct diff_row *r = diff_gate_row(d, gate);
	return r ? r->delta : 0;
}

const struct diff_gate *diff_gate_unknown(const diff *d, const struct diff_gate *gates, size_t ngates)
{
	for (size_t g = 0; g < ngates; g++) {
		size_t i = 0;
		while (i < d->nrows && !gate_names(d, &gates[g], &d->rows[i]))
			i++;
		if (i == d->nrows)
			return &gates[g];
	}
	return NULL;
}

/* Warn that r passed a gate of points, naming it as the table does (FIRST,SECOND). */
static void warn_grew(const diff *d, const struct diff_row *r, double points)
{
	size_t l1, l2 = 0;
	const char *k1 = diff_key(d, r, 0, &l1);
	const char *k2 = d->base.nkeys == 2 ? diff_key(d, r, 1, &l2) : "";
	err_warn("%.*s%s%.*s grew by %.2f %s (95%% interval %.2f to %.2f; limit %g)",
		 (int)l1, k1, d->base.nkeys == 2 ? "," : "", (int)l2, k2, r->delta,
		 d->base.work[0] > 0 ? "samples per 1,000 units" : "points",
		 r->ci_low, r->ci_high, points);
}

int diff_check_gates(const diff *d, const struct diff_gate *gates, size_t ngates)
{
	int failed = 0;
	for (size_t g = 0; g < ngates; g++) {
		const struct diff_row *r = diff_gate_row(d, &gates[g]);
		if (r && r->ci_low > gates[g].points) { /* beyond noise, not just the point estimate */
			warn_grew(d, r, gates[g].points);
			failed = 1;
		}
	}
	return failed;
}

int diff_check_any(const diff *d, double points)
{
	int failed = 0;
	for (size_t i = 0; !isnan(points) && i < d->nrows; i++)
		if (d->rows[i].significant && d->rows[i].ci_low > points) {
			warn_grew(d, &d->rows[i], points);
			failed = 1;
		}
	return failed;
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

void diff_write_folded(const prof *before, const prof *after, FILE *out)
{
	const prof *const ps[2] = { before, after };
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
		fwrite(text, 1, len, out);
		fprintf(out, " %llu %llu\n", (unsigned long long)counts[2 * order[i]],
			(unsigned long long)counts[2 * order[i] + 1]);
	}
	free(order);
	free(buf);
	free(counts);
	intern_free(stacks);
}

/* Standard input cannot be read a second time. */
int diff_replicates_apply(const size_t nfiles[2], const struct agg_spec *keys)
{
	if (nfiles[0] < 2 || nfiles[1] < 2)
		return 0;
	for (size_t k = 0; k < keys->nkeys; k++)
		if (keys->keys[k] == KEY_SOURCE)
			return 0;
	return 1;
}

/* The part of each name that differs within one side: names[i] less the *cut_front bytes
 * of prefix and *cut_back bytes of suffix that all share. */
static void distinct_part(const char *const *names, size_t n, size_t *cut_front, size_t *cut_back)
{
	size_t len0 = strlen(names[0]), front = len0, back = len0;
	for (size_t i = 1; i < n; i++) {
		size_t len = strlen(names[i]), k = 0;
		while (k < front && k < len && names[i][k] == names[0][k])
			k++;
		front = k;
		for (k = 0; k < back && k < len && names[i][len - 1 - k] == names[0][len0 - 1 - k];)
			k++;
		back = k;
	}
	/* Digits next to the distinct part belong to it: rank10..rank15 keep "10".."15", so
	 * that they pair with rank8..rank15 cut to "8".."15". */
	while (front > 0 && names[0][front - 1] >= '0' && names[0][front - 1] <= '9')
		front--;
	while (back > 0 && names[0][len0 - back] >= '0' && names[0][len0 - back] <= '9')
		back--;
	*cut_front = front;
	*cut_back = back;
}

/* Pair names[0][i] with the one name[1][j] whose key equals it; -1 unless one to one. */
static int pair_keys(const char *const *keys[2], const size_t *lens[2], size_t n, size_t *pair)
{
	for (size_t i = 0; i < n; i++) {
		size_t found = n;
		for (size_t j = 0; j < n; j++) {
			if (lens[0][i] != lens[1][j] || memcmp(keys[0][i], keys[1][j], lens[0][i]) != 0)
				continue;
			if (found != n)
				return -1; /* two after inputs with one name */
			found = j;
		}
		for (size_t k = 0; k < i && found != n; k++)
			if (pair[k] == found)
				return -1; /* two before inputs with one name */
		if (found == n)
			return -1;
		pair[i] = found;
	}
	return 0;
}

const char *diff_pair_inputs(char **const files[2], const size_t nfiles[2], char *const *labels,
			     size_t nlabels, size_t *pair)
{
	size_t n = nfiles[0];
	if (n < 2 || nfiles[1] != n)
		return NULL;
	const char **keys[2];
	size_t *lens[2];
	int labelled = 1;
	for (int s = 0; s < 2; s++) {
		keys[s] = xmalloc(n * sizeof *keys[s]);
		lens[s] = xmalloc(n * sizeof *lens[s]);
		for (size_t i = 0; i < n; i++)
			if (!(keys[s][i] = load_label(labels, nlabels, files[s][i], &lens[s][i])))
				labelled = 0;
	}
	const char *how = "label";
	if (!labelled || pair_keys((const char *const **)keys, (const size_t **)lens, n, pair) != 0) {
		how = "file name";
		for (int s = 0; s < 2; s++) {
			size_t front, back;
			for (size_t i = 0; i < n; i++)
				keys[s][i] = load_base_name(files[s][i]);
			distinct_part(keys[s], n, &front, &back);
			for (size_t i = 0; i < n; i++) {
				size_t len = strlen(keys[s][i]);
				size_t f = front < len ? front : len;
				lens[s][i] = len - f > back ? len - f - back : 0;
				keys[s][i] += f;
			}
		}
		if (pair_keys((const char *const **)keys, (const size_t **)lens, n, pair) != 0)
			how = NULL;
	}
	for (int s = 0; s < 2; s++) {
		free(keys[s]);
		free(lens[s]);
	}
	return how;
}

void diff_base_replicates(struct diff_base *base, agg **const inputs[2], uint64_t *const samples[2],
			  const size_t nfiles[2])
{
	for (int s = 0; s < 2; s++) {
		base->inputs[s] = (const agg *const *)inputs[s];
		base->ninputs[s] = nfiles[s];
		base->input_samples[s] = samples[s];
	}
}
