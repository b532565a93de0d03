/* timewin: spans are cut at the window's bounds and at each window of the series; counts go
 * by covered time, so a window's samples are the time the stack was held in it. */
#include "timewin.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* Windows are found by division: 0.3 / 0.1 is 2.9999999999999996, and is window 3. */
#define TIMEWIN_SLACK 1e-9

int timewin_active(const struct timewin *w)
{
	return w->has_from || w->has_to || w->width > 0;
}

int timewin_parse_seconds(const char *text, double *seconds)
{
	if (!text || !(isdigit((unsigned char)text[0]) || (text[0] == '.' && isdigit((unsigned char)text[1]))))
		return -1;  /* no sign, no "inf" or "nan", no hex float by a leading 0x either */
	char *end;
	errno = 0;
	double d = strtod(text, &end);
	if (errno || *end || !isfinite(d) || d < 0 || (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')))
		return -1;
	*seconds = d;
	return 0;
}

double timewin_start(double width, double t)
{
	return floor(t / width + TIMEWIN_SLACK) * width;
}

static uint64_t share(uint64_t count, double frac, double *carry)
{
	double v = (double)count * frac + *carry;
	uint64_t n = v > 0 && v < 1.8e19 ? (uint64_t)llround(v) : 0;
	*carry = v - (double)n;
	return n;
}

void timewin_split(const struct timewin *w, double at, double len, uint64_t count,
		   double *carry, timewin_piece_fn *fn, void *ctx)
{
	double lo = at, hi = at + len;
	if (w->has_from && lo < w->from)
		lo = w->from;
	if (w->has_to && hi > w->to)
		hi = w->to;
	if (!(len > 0)) {  /* an instant */
		if ((w->has_from && at < w->from) || (w->has_to && at >= w->to) || count == 0)
			return;
		fn(ctx, w->width > 0 ? timewin_start(w->width, at) : 0, count);
		return;
	}
	if (!(hi > lo))
		return;
	if (!(w->width > 0)) {
		uint64_t n = lo == at && hi == at + len ? count : share(count, (hi - lo) / len, carry);
		if (n)
			fn(ctx, 0, n);
		return;
	}
	double k = floor(lo / w->width + TIMEWIN_SLACK);
	if (hi <= (k + 1) * w->width && lo == at && hi == at + len) {
		fn(ctx, k * w->width, count);  /* one window holds it all */
		return;
	}
	while (lo < hi) {
		double end = (k + 1) * w->width;
		if (end > hi)
			end = hi;
		if (end > lo) {
			uint64_t n = share(count, (end - lo) / len, carry);
			if (n)
				fn(ctx, k * w->width, n);
			lo = end;
		}
		k++;
	}
}
