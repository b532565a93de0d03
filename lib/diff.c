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

/* Each row's interval, p and q. With replicates on both sides, each input's share is one
 * observation: Mann-Whitney for p (no normality assumed), a bootstrap of the difference of
 * mean shares for the interval. Otherwise the counts: two proportions (or two rates per
 * work), which treats autocorrelated samples as independent: optimistic. */
static void diff_test(diff *d)
{
	const struct diff_base *b = &d->base;
	d->spread = b->ninputs[0] >= 2 && b->ninputs[1] >= 2;
	d->replicates = d->spread && b->work[0] <= 0;
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
		struct stats_diff_ci ci = { 0, 0, 0 };
		double p = 1, scale = 100;
		for (int s = 0; d->spread && s < 2; s++) {
			const struct agg_row *row = r->key.side[s];
			size_t at = row ? (size_t)(row - agg_rows(d->sides[s])) : 0;
			for (size_t k = 0; k < b->ninputs[s]; k++)
				shares[s][k] = row ? table_pct((uint64_t)counts[s][at * b->ninputs[s] + k],
							       b->input_samples[s][k]) : 0;
			struct stats_summary sum; /* of a copy: the shares keep their input order */
			memcpy(scratch, shares[s], b->ninputs[s] * sizeof *scratch);
			stats_summarize(scratch, b->ninputs[s], &sum);
			r->spread[s][0] = sum.min;
			r->spread[s][1] = sum.median;
			r->spread[s][2] = sum.max;
		}
		if (d->replicates) {
			struct stats_mwu mw;
			stats_bootstrap_mean_diff(shares[0], b->ninputs[0], shares[1], b->ninputs[1],
						  STATS_RESAMPLES, STATS_SEED, 0.95, &ci);
			p = stats_mann_whitney(shares[0], b->ninputs[0], shares[1], b->ninputs[1], &mw) == 0 ? mw.p : 1;
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
		r->p = ps[i] = p;
	}
	/* Rows without a p-value are not tested and take no part in the correction. */
	size_t ntested = 0;
	for (size_t i = 0; i < d->nrows; i++)
		if (!isnan(ps[i]))
			ps[ntested++] = ps[i];
	stats_bh(ps, ntested, qs);
	for (size_t i = 0, t = 0; i < d->nrows; i++) {
		d->rows[i].q = isnan(d->rows[i].p) ? NAN : qs[t++];
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
int diff_has_spread(const diff *d) { return d->spread; }

const char *diff_method(const diff *d)
{
	if (d->replicates)
		return "Mann-Whitney over inputs";
	return d->base.work[0] > 0 ? "two-rate test, optimistic" : "two-proportion test, optimistic";
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
		struct diff_row r = { joined[i], { 0, 0 }, { 0, 0 }, 0, 0, 0, 1, 1, 0, { { 0 } } };
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

table *diff_table(const diff *d, unsigned long long limit)
{
	int per_work = d->base.work[0] > 0;
	size_t nk = d->base.nkeys;
	const struct table_column cols[] = {
		{ frame_key_names[d->base.keys[0]], TABLE_STR, 0 },
		{ frame_key_names[d->base.keys[1]], TABLE_STR, 0 },
		{ d->base.total ? "before_total" : "before", TABLE_UINT, 0 },
		{ d->base.total ? "after_total" : "after", TABLE_UINT, 0 },
		{ per_work ? "before_rate" : "before_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "after_rate" : "after_pct", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ per_work ? "delta_rate" : "delta_pts", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ "ratio", TABLE_REAL, 2 },
		{ "flag", TABLE_STR, 0 },
		{ "delta_ci_low", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ "delta_ci_high", per_work ? TABLE_REAL : TABLE_PCT, 3 },
		{ "p_value", TABLE_REAL, 4 },
		{ "q_value", TABLE_REAL, 4 },
		{ "sig", TABLE_STR, 0 },
		{ "before_min", TABLE_PCT, 3 },
		{ "before_median", TABLE_PCT, 3 },
		{ "before_max", TABLE_PCT, 3 },
		{ "after_min", TABLE_PCT, 3 },
		{ "after_median", TABLE_PCT, 3 },
		{ "after_max", TABLE_PCT, 3 },
	};
	/* One column per key: with one key, the second column is left out; the spread only
	 * with inputs to spread over. */
	enum { NCOLS = sizeof cols / sizeof cols[0] };
	struct table_column used[NCOLS];
	size_t nc = 0;
	for (size_t c = 0; c < NCOLS - (d->spread ? 0 : 6); c++)
		if (c != 1 || nk == 2)
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
		for (size_t c = 0; d->spread && c < 6; c++)
			table_set_real(t, nk + 12 + c, r->spread[c / 3][c % 3]);
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
		if (d->rows[i].ci_low > points) { /* NAN (untested) rows never pass */
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

void diff_base_replicates(struct diff_base *base, agg **const inputs[2], uint64_t *const samples[2],
			  const size_t nfiles[2])
{
	for (int s = 0; s < 2; s++) {
		base->inputs[s] = (const agg *const *)inputs[s];
		base->ninputs[s] = nfiles[s];
		base->input_samples[s] = samples[s];
	}
}
