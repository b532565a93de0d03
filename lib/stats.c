/* stats: robust summaries, Student's t tests (Welch and paired) with their intervals, the count
 * tests and Benjamini-Hochberg. */
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

static double mean_of(const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/* Sample variance (n - 1 in the denominator), two passes for accuracy. */
static double variance_of(const double *x, size_t n, double mean)
{
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return ss / (double)(n - 1);
}

/* The continued fraction of the regularized incomplete beta function I_x(a, b), by the
 * modified Lentz method; it converges fast for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double f = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		for (int half = 0; half < 2; half++) {
			double num = half == 0 ? m * (b - m) * x / ((a + m2 - 1) * (a + m2))
					       : -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
			d = 1 + num * d;
			c = 1 + num / c;
			d = 1 / (fabs(d) < tiny ? tiny : d);
			c = fabs(c) < tiny ? tiny : c;
			f *= d * c;
			if (half == 1 && fabs(d * c - 1) < 1e-15)
				return f;
		}
	}
	return f;
}

/* I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1. */
static double incomplete_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_two_sided_p(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0;
	/* P(|T| >= |t|) = I_{df / (df + t^2)}(df / 2, 1 / 2) */
	double p = incomplete_beta(df / 2, 0.5, df / (df + t * t));
	return p > 1 ? 1 : p;
}

double stats_t_critical(double df, double confidence)
{
	if (!(df > 0) || !(confidence > 0 && confidence < 1))
		return NAN;
	/* Bisection on the two-sided tail, which falls as t rises. */
	double alpha = 1 - confidence, lo = 0, hi = 1;
	while (stats_t_two_sided_p(hi, df) > alpha && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (stats_t_two_sided_p(mid, df) > alpha)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The interval and p of out->diff with standard error se on out->df degrees of freedom.
 * A zero se (every replicate equal) is no noise: the difference is certain. */
static void t_finish(struct stats_t_test *out, double se, double confidence)
{
	out->se = se;
	if (!(se > 0)) {
		out->t = out->diff == 0 ? 0 : copysign(INFINITY, out->diff);
		out->p = out->diff == 0 ? 1 : 0;
		out->low = out->high = out->diff;
		return;
	}
	out->t = out->diff / se;
	out->p = stats_t_two_sided_p(out->t, out->df);
	double half = stats_t_critical(out->df, confidence) * se;
	out->low = out->diff - half;
	out->high = out->diff + half;
}

int stats_welch(const double *before, size_t nb, const double *after, size_t na, double confidence,
		struct stats_t_test *out)
{
	if (nb < 2 || na < 2)
		return -1;
	double mb = mean_of(before, nb), ma = mean_of(after, na);
	double vb = variance_of(before, nb, mb) / (double)nb, va = variance_of(after, na, ma) / (double)na;
	out->paired = 0;
	out->diff = ma - mb;
	/* Welch-Satterthwaite degrees of freedom; with no spread on one side, the other's. */
	double den = vb * vb / (double)(nb - 1) + va * va / (double)(na - 1);
	out->df = den > 0 ? (vb + va) * (vb + va) / den : (double)(nb + na - 2);
	t_finish(out, sqrt(vb + va), confidence);
	return 0;
}

int stats_paired_t(const double *before, const double *after, size_t n, double confidence,
		   struct stats_t_test *out)
{
	if (n < 2)
		return -1;
	double *d = xmalloc(n * sizeof *d);
	for (size_t i = 0; i < n; i++)
		d[i] = after[i] - before[i];
	out->paired = 1;
	out->diff = mean_of(d, n);
	out->df = (double)(n - 1);
	double se = sqrt(variance_of(d, n, out->diff) / (double)n);
	free(d);
	t_finish(out, se, confidence);
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
