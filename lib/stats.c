/* stats: robust summaries and the two tests sift-tput's comparisons rest on. */
#include "stats.h"
#include "xalloc.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

void stats_summarize(double *x, size_t n, struct stats_summary *out)
{
	out->n = n;
	out->mean = out->median = out->p5 = out->p95 = NAN;
	out->stddev = out->cv_pct = out->min = out->max = NAN;
	if (n == 0)
		return;
	qsort(x, n, sizeof *x, cmp_double);
	/* Two passes: the mean first, then squared deviations, for accuracy. */
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / (double)n;
	out->median = stats_quantile_sorted(x, n, 0.5);
	out->p5 = stats_quantile_sorted(x, n, 0.05);
	out->p95 = stats_quantile_sorted(x, n, 0.95);
	out->min = x[0];
	out->max = x[n - 1];
	if (n >= 2) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (x[i] - out->mean) * (x[i] - out->mean);
		out->stddev = sqrt(ss / (double)(n - 1));
		out->cv_pct = out->mean != 0 ? 100.0 * out->stddev / fabs(out->mean) : NAN;
	}
}

/* k-th smallest by Wirth's selection; afterwards x[0..k) <= x[k] <= x(k..n). */
static double select_kth(double *x, size_t n, size_t k)
{
	ptrdiff_t l = 0, m = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;
	while (l < m) {
		double pivot = x[kk];
		ptrdiff_t i = l, j = m;
		do {
			while (x[i] < pivot)
				i++;
			while (pivot < x[j])
				j--;
			if (i <= j) {
				double t = x[i];
				x[i] = x[j];
				x[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			m = j;
	}
	return x[kk];
}

double stats_median_select(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double upper = select_kth(x, n, n / 2);
	if (n % 2)
		return upper;
	/* The lower middle is the largest value left of n/2 after selection. */
	double lower = x[0];
	for (size_t i = 1; i < n / 2; i++)
		if (x[i] > lower)
			lower = x[i];
	return (lower + upper) / 2;
}

void stats_rng_seed(struct stats_rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t stats_rng_next(struct stats_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t stats_rng_below(struct stats_rng *rng, size_t n)
{
	/* Rejection keeps indices exactly uniform. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t r;
	do
		r = stats_rng_next(rng);
	while (r >= limit);
	return (size_t)(r % n);
}

static double resample_median(struct stats_rng *rng, const double *x, size_t n, double *scratch)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = x[stats_rng_below(rng, n)];
	return stats_median_select(scratch, n);
}

int stats_bootstrap_median_ratio(const double *before, size_t nb, const double *after, size_t na,
				 unsigned resamples, uint64_t seed, double confidence,
				 struct stats_ratio_ci *out)
{
	if (nb == 0 || na == 0 || resamples == 0)
		return -1;
	double *scratch = xmalloc((nb > na ? nb : na) * sizeof *scratch);
	memcpy(scratch, before, nb * sizeof *scratch);
	double mb = stats_median_select(scratch, nb);
	memcpy(scratch, after, na * sizeof *scratch);
	double ma = stats_median_select(scratch, na);
	if (mb == 0) {
		free(scratch);
		return -1;
	}
	out->ratio = ma / mb;
	double *ratios = xmalloc(resamples * sizeof *ratios);
	struct stats_rng rng;
	stats_rng_seed(&rng, seed);
	size_t kept = 0;
	for (unsigned r = 0; r < resamples; r++) {
		double b = resample_median(&rng, before, nb, scratch);
		double a = resample_median(&rng, after, na, scratch);
		if (b != 0)
			ratios[kept++] = a / b;
	}
	qsort(ratios, kept, sizeof *ratios, cmp_double);
	double tail = (1 - confidence) / 2;
	out->low = stats_quantile_sorted(ratios, kept, tail);
	out->high = stats_quantile_sorted(ratios, kept, 1 - tail);
	free(ratios);
	free(scratch);
	return 0;
}

struct ranked {
	double v;
	int side;
};

static int cmp_ranked(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked *)a)->v, &((const struct ranked *)b)->v);
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct stats_mwu *out)
{
	if (na == 0 || nb == 0)
		return -1;
	size_t n = na + nb;
	struct ranked *all = xmalloc(n * sizeof *all);
	for (size_t i = 0; i < na; i++)
		all[i] = (struct ranked){ a[i], 0 };
	for (size_t i = 0; i < nb; i++)
		all[na + i] = (struct ranked){ b[i], 1 };
	qsort(all, n, sizeof *all, cmp_ranked);
	/* Midranks for ties; sum of t^3 - t over tie groups for the variance correction. */
	double rank_a = 0, ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && all[j].v == all[i].v)
			j++;
		double mid = ((double)i + 1 + (double)j) / 2;
		double t = (double)(j - i);
		ties += t * t * t - t;
		for (size_t k = i; k < j; k++)
			if (all[k].side == 0)
				rank_a += mid;
		i = j;
	}
	free(all);
	double n1 = (double)na, n2 = (double)nb, nn = (double)n;
	out->u = rank_a - n1 * (n1 + 1) / 2;
	double mu = n1 * n2 / 2;
	double var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));
	if (var <= 0) {
		out->z = 0;
		out->p = 1;
		return 0;
	}
	double d = fabs(out->u - mu) - 0.5;
	if (d < 0)
		d = 0;
	out->z = (out->u >= mu ? d : -d) / sqrt(var);
	out->p = erfc(fabs(out->z) / sqrt(2.0));
	if (out->p > 1)
		out->p = 1;
	return 0;
}

static double resample_mean(struct stats_rng *rng, const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[stats_rng_below(rng, n)];
	return sum / (double)n;
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

int stats_bootstrap_mean_diff(const double *before, size_t nb, const double *after, size_t na,
			      unsigned resamples, uint64_t seed, double confidence,
			      struct stats_diff_ci *out)
{
	if (nb == 0 || na == 0 || resamples == 0)
		return -1;
	out->diff = mean_of(after, na) - mean_of(before, nb);
	double *diffs = xmalloc(resamples * sizeof *diffs);
	struct stats_rng rng;
	stats_rng_seed(&rng, seed);
	for (unsigned r = 0; r < resamples; r++) {
		double b = resample_mean(&rng, before, nb);
		diffs[r] = resample_mean(&rng, after, na) - b;
	}
	qsort(diffs, resamples, sizeof *diffs, cmp_double);
	double tail = (1 - confidence) / 2;
	out->low = stats_quantile_sorted(diffs, resamples, tail);
	out->high = stats_quantile_sorted(diffs, resamples, 1 - tail);
	free(diffs);
	return 0;
}

/* The normal quantile of the interval: 1.959964 for 95%, by bisection on erfc. */
static double z_of(double confidence)
{
	double lo = 0, hi = 10;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / sqrt(2.0)) > 1 - confidence)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int stats_two_proportion(uint64_t c0, uint64_t n0, uint64_t c1, uint64_t n1, double confidence,
			 struct stats_diff_ci *ci, double *p)
{
	if (n0 == 0 || n1 == 0)
		return -1;
	double x0 = (double)c0, x1 = (double)c1, m0 = (double)n0, m1 = (double)n1;
	double p0 = x0 / m0, p1 = x1 / m1;
	double se = sqrt(p0 * (1 - p0) / m0 + p1 * (1 - p1) / m1);
	double z = z_of(confidence);
	ci->diff = p1 - p0;
	ci->low = ci->diff - z * se;
	ci->high = ci->diff + z * se;
	double pooled = (x0 + x1) / (m0 + m1);
	double se0 = sqrt(pooled * (1 - pooled) * (1 / m0 + 1 / m1));
	*p = se0 > 0 ? erfc(fabs(ci->diff) / se0 / sqrt(2.0)) : 1;
	if (*p > 1)
		*p = 1;
	return 0;
}

int stats_two_rate(uint64_t c0, double w0, uint64_t c1, double w1, double confidence,
		   struct stats_diff_ci *ci, double *p)
{
	if (w0 <= 0 || w1 <= 0)
		return -1;
	double x0 = (double)c0, x1 = (double)c1;
	double se = sqrt(x0 / (w0 * w0) + x1 / (w1 * w1));
	double z = z_of(confidence);
	ci->diff = x1 / w1 - x0 / w0;
	ci->low = ci->diff - z * se;
	ci->high = ci->diff + z * se;
	/* Given c0 + c1 events, c1 is binomial with the after side's share of the work. */
	double n = x0 + x1, share = w1 / (w0 + w1);
	double sd = sqrt(n * share * (1 - share));
	*p = sd > 0 ? erfc(fabs(x1 - n * share) / sd / sqrt(2.0)) : 1;
	if (*p > 1)
		*p = 1;
	return 0;
}

struct ranked_p {
	double p;
	size_t at;
};

static int cmp_ranked_p(const void *a, const void *b)
{
	return cmp_double(&((const struct ranked_p *)a)->p, &((const struct ranked_p *)b)->p);
}

void stats_bh(const double *p, size_t n, double *q)
{
	if (n == 0)
		return;
	struct ranked_p *r = xmalloc(n * sizeof *r);
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked_p){ p[i], i };
	qsort(r, n, sizeof *r, cmp_ranked_p);
	double running = 1;
	for (size_t k = n; k-- > 0;) {
		double v = r[k].p * (double)n / (double)(k + 1);
		if (v < running)
			running = v;
		q[r[k].at] = running;
	}
	free(r);
}
