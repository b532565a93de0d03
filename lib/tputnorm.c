/* tputnorm: prefixes and timestamps of log lines, read without a regex. */
#include "tputnorm.h"
#include "tputbyte.h"

#include <string.h>

size_t tputnorm_strip_ansi(char *s, size_t len)
{
	size_t out = 0;
	for (size_t i = 0; i < len;) {
		if (s[i] == '\x1b' && i + 1 < len && s[i + 1] == '[') {
			/* CSI: parameters and intermediates, then one final byte in @..~ */
			size_t j = i + 2;
			while (j < len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x3f)
				j++;
			while (j < len && (unsigned char)s[j] >= 0x20 && (unsigned char)s[j] <= 0x2f)
				j++;
			i = j < len ? j + 1 : j;
			continue;
		}
		if (s[i] == '\x1b') {
			i += i + 1 < len ? 2 : 1;
			continue;
		}
		s[out++] = s[i++];
	}
	if (out < len)
		s[out] = '\0';
	return out;
}

static size_t read_uint(const char *s, size_t len, size_t i, long *v)
{
	size_t start = i;
	long x = 0;
	while (i < len && tputbyte_digit(s[i]) && i - start < 9)
		x = x * 10 + (s[i++] - '0');
	if (i == start || (i < len && tputbyte_digit(s[i])))
		return 0;
	*v = x;
	return i - start;
}

size_t tputnorm_rank_prefix(const char *s, size_t len, long *rank_out)
{
	size_t i = 0, n;
	long r = -1, *rank = &r;  /* written through only when a prefix is found */
	size_t took = 0;
	if (len > 0 && s[0] == '[') {
		/* [rankN]: and [defaultN]: (torchrun --tee / log prefixes), [Rank N] (Megatron) */
		static const char *const words[] = { "rank", "default", "Rank" };
		for (size_t w = 0; w < 3; w++) {
			size_t wl = strlen(words[w]), at = 1 + wl;
			if (len <= at || memcmp(s + 1, words[w], wl) != 0)
				continue;
			at += s[at] == ' ';
			if ((n = read_uint(s, len, at, rank)) > 0 && at + n < len && s[at + n] == ']') {
				at += n + 1;
				if (at < len && s[at] == ':')
					at++;
				else if (w < 2)
					break;  /* "[rank3]" alone is no torchrun prefix */
				took = at + (at < len && s[at] == ' ');
				break;
			}
		}
	} else if (len > 0 && s[0] == ' ') {
		/* srun -l pads "N: " to the widest rank: " 0: ", "  3: " */
		while (i < len && i < 4 && s[i] == ' ')
			i++;
		if ((n = read_uint(s, len, i, rank)) > 0 && i + n + 1 < len && s[i + n] == ':' && s[i + n + 1] == ' ')
			took = i + n + 2;
	} else if (len > 7 && memcmp(s, "worker", 6) == 0) {
		i = 6 + (s[6] == '-' || s[6] == '_');
		if ((n = read_uint(s, len, i, rank)) > 0 && i + n < len && s[i + n] == ':')
			took = i + n + 1 + (i + n + 1 < len && s[i + n + 1] == ' ');
	} else if ((n = read_uint(s, len, 0, rank)) > 0 && n + 1 < len && s[n] == ':' && s[n + 1] == ' ') {
		/* srun -l: "N: " (the space tells it from a clock "12:00:00") */
		took = n + 2;
	}
	if (took)
		*rank_out = r;
	return took;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static long days_from_civil(long y, long m, long d)
{
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Fixed-width digits at s[i..i+width). */
static int fixed(const char *s, size_t len, size_t i, size_t width, long *v)
{
	if (i + width > len)
		return 0;
	long x = 0;
	for (size_t k = 0; k < width; k++) {
		if (!tputbyte_digit(s[i + k]))
			return 0;
		x = x * 10 + (s[i + k] - '0');
	}
	*v = x;
	return 1;
}

/* "HH:MM:SS" then an optional fraction after '.' or ','. */
static size_t clock_at(const char *s, size_t len, size_t i, double *secs)
{
	long h, mi, se;
	if (!fixed(s, len, i, 2, &h) || i + 2 >= len || s[i + 2] != ':' || !fixed(s, len, i + 3, 2, &mi) ||
	    i + 5 >= len || s[i + 5] != ':' || !fixed(s, len, i + 6, 2, &se) || h > 23 || mi > 59 || se > 60)
		return 0;
	size_t j = i + 8;
	double frac = 0, scale = 0.1;
	if (j + 1 < len && (s[j] == '.' || s[j] == ',') && tputbyte_digit(s[j + 1]))
		for (j++; j < len && tputbyte_digit(s[j]); j++, scale /= 10)
			frac += (s[j] - '0') * scale;
	*secs = (double)(h * 3600 + mi * 60 + se) + frac;
	return j - i;
}

size_t tputnorm_timestamp(const char *s, size_t len, double *seconds)
{
	size_t i = len > 0 && s[0] == '[' ? 1 : 0;
	long y, mo, d;
	double clock;
	size_t n;
	if (fixed(s, len, i, 4, &y) && i + 10 < len && s[i + 4] == '-' && fixed(s, len, i + 5, 2, &mo) &&
	    s[i + 7] == '-' && fixed(s, len, i + 8, 2, &d) && (s[i + 10] == 'T' || s[i + 10] == ' ') &&
	    (n = clock_at(s, len, i + 11, &clock)) > 0) {
		size_t j = i + 11 + n;
		double offset = 0;
		long oh, om;
		if (j < len && s[j] == 'Z') {
			j++;
		} else if (j + 5 < len + 0 && (s[j] == '+' || s[j] == '-') && fixed(s, len, j + 1, 2, &oh)) {
			size_t k = j + 3 + (s[j + 3] == ':');
			if (fixed(s, len, k, 2, &om)) {
				offset = (s[j] == '-' ? -1 : 1) * (double)(oh * 3600 + om * 60);
				j = k + 2;
			}
		}
		*seconds = (double)days_from_civil(y, mo, d) * 86400 + clock - offset;
		return j;
	}
	/* glog: [IWEF]MMDD HH:MM:SS.uuuuuu */
	if (i < len && strchr("IWEF", s[i]) && s[i] && fixed(s, len, i + 1, 2, &mo) &&
	    fixed(s, len, i + 3, 2, &d) && i + 5 < len && s[i + 5] == ' ' &&
	    (n = clock_at(s, len, i + 6, &clock)) > 0) {
		*seconds = (double)days_from_civil(1970, mo, d) * 86400 + clock;
		return i + 6 + n;
	}
	/* MM/DD/YYYY HH:MM:SS (nanotron's logger) */
	if (fixed(s, len, i, 2, &mo) && i + 10 < len && s[i + 2] == '/' && fixed(s, len, i + 3, 2, &d) &&
	    s[i + 5] == '/' && fixed(s, len, i + 6, 4, &y) && s[i + 10] == ' ' &&
	    (n = clock_at(s, len, i + 11, &clock)) > 0) {
		*seconds = (double)days_from_civil(y, mo, d) * 86400 + clock;
		return i + 11 + n;
	}
	return 0;
}

/* MM-DD HH:MM:SS (vLLM) and MM/DD/YY HH:MM:SS (rich's logging): no year, 1970 assumed. */
static size_t yearless_at(const char *s, size_t len, size_t i, double *seconds)
{
	long mo, d, y = 1970;
	double clock;
	size_t n, at;
	if (!fixed(s, len, i, 2, &mo) || i + 5 >= len || !fixed(s, len, i + 3, 2, &d) || mo < 1 || mo > 12 ||
	    d < 1 || d > 31)
		return 0;
	if (s[i + 2] == '-' && s[i + 5] == ' ') {
		at = i + 6;
	} else if (s[i + 2] == '/' && s[i + 5] == '/' && fixed(s, len, i + 6, 2, &y) && i + 8 < len &&
		   s[i + 8] == ' ' && !(i + 9 < len && tputbyte_digit(s[i + 9]) && i + 10 < len && s[i + 10] == '/')) {
		y += 2000;
		at = i + 9;
	} else {
		return 0;
	}
	if ((n = clock_at(s, len, at, &clock)) == 0)
		return 0;
	*seconds = (double)days_from_civil(y, mo, d) * 86400 + clock;
	return at + n - i;
}


/* Bytes a timestamp may start with, looked up for every byte of a line's head: a digit,
 * '[', and glog's severity letters I W E F (before a digit). */
enum { TS_DIGIT = 1, TS_BRACKET, TS_GLOG };
static const unsigned char ts_start[256] = {
	['0'] = TS_DIGIT, ['1'] = TS_DIGIT, ['2'] = TS_DIGIT, ['3'] = TS_DIGIT, ['4'] = TS_DIGIT,
	['5'] = TS_DIGIT, ['6'] = TS_DIGIT, ['7'] = TS_DIGIT, ['8'] = TS_DIGIT, ['9'] = TS_DIGIT,
	['['] = TS_BRACKET, ['I'] = TS_GLOG, ['W'] = TS_GLOG, ['E'] = TS_GLOG, ['F'] = TS_GLOG,
};

size_t tputnorm_timestamp_end(const char *s, size_t len, double *seconds)
{
	size_t end = len < 96 ? len : 96, n;
	for (size_t i = 0; i < end; i++) {
		/* what may start one first: most bytes are not that */
		unsigned char k = ts_start[(unsigned char)s[i]];
		if (!k || (k == TS_GLOG && !(i + 1 < len && tputbyte_digit(s[i + 1]))))
			continue;
		if (i > 0 && (tputbyte_alnum(s[i - 1]) || s[i - 1] == '.' || s[i - 1] == ',' || s[i - 1] == '-' ||
			      s[i - 1] == '/'))
			continue;
		if ((n = tputnorm_timestamp(s + i, len - i, seconds)) > 0 || (n = yearless_at(s, len, i, seconds)) > 0)
			return i + n;
	}
	return 0;
}

int tputnorm_find_timestamp(const char *s, size_t len, double *seconds) { return tputnorm_timestamp_end(s, len, seconds) > 0; }

size_t tputnorm_host_rank(const char *s, size_t len, long *rank)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == ']'))
		i++;
	size_t st = i;
	int hosty = 0;
	if (i >= len || !((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
		return 0;
	for (; i < len && (tputbyte_alnum(s[i]) || s[i] == '-' || s[i] == '.' || s[i] == '_'); i++)
		hosty |= tputbyte_digit(s[i]) || s[i] == '-' || s[i] == '.';
	/* a host's name has a digit, '-' or '.' ("node-3", "ip-10-0-0-1"), or is "host" or
	 * "localhost": "step:10 " and "iter:5 " are fields, not hosts */
	if (!hosty && !(i - st == 4 && memcmp(s + st, "host", 4) == 0) &&
	    !(i - st == 9 && memcmp(s + st, "localhost", 9) == 0))
		return 0;
	long r;
	size_t n;
	if (i >= len || s[i] != ':' || (n = read_uint(s, len, i + 1, &r)) == 0 || i + 1 + n >= len ||
	    (s[i + 1 + n] != ' ' && s[i + 1 + n] != '\t'))
		return 0;
	*rank = r;
	return i + 1 + n;
}
