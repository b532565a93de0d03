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
