/* tputunit: the unit table and the number reader every tput stage shares. */
#include "tputunit.h"
#include "tputbyte.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const tputunit_names[] = {
	"tokens/s", "tokens/s/gpu", "src-tokens/s", "tgt-tokens/s", "tps", "samples/s", "samples/s/gpu", "images/s", "it/s",
	"TFLOP/s", "TFLOP/s/gpu", "ms/step", "MFU%", "value", NULL,
};

int tputunit_lower_is_better(enum tput_unit unit) { return unit == TPUT_MS_STEP; }

#define UA(t) t, sizeof t - 1
static const struct {
	const char *text;
	unsigned char len;    /* written down: every match with a unit group looks it up */
	enum tput_unit unit;
	double scale;
	int invert;
} unit_aliases[] = {
	{ UA("tok/s"), TPUT_TOKENS_S, 1, 0 }, { UA("tokens/s"), TPUT_TOKENS_S, 1, 0 },
	{ UA("tok/sec"), TPUT_TOKENS_S, 1, 0 }, { UA("tokens/sec"), TPUT_TOKENS_S, 1, 0 },
	{ UA("tokens per second"), TPUT_TOKENS_S, 1, 0 }, { UA("tokens_per_sec"), TPUT_TOKENS_S, 1, 0 },
	{ UA("wps"), TPUT_TOKENS_S, 1, 0 },
	{ UA("tokens/s/gpu"), TPUT_TOKENS_S_GPU, 1, 0 }, { UA("tok/s/gpu"), TPUT_TOKENS_S_GPU, 1, 0 },
	{ UA("tokens/s/device"), TPUT_TOKENS_S_GPU, 1, 0 }, { UA("tps"), TPUT_TPS, 1, 0 },
	{ UA("src-tokens/s"), TPUT_TOKENS_S_SRC, 1, 0 }, { UA("src tok/s"), TPUT_TOKENS_S_SRC, 1, 0 },
	{ UA("tgt-tokens/s"), TPUT_TOKENS_S_TGT, 1, 0 }, { UA("tgt tok/s"), TPUT_TOKENS_S_TGT, 1, 0 },
	{ UA("tokens_per_sec_per_gpu"), TPUT_TOKENS_S_GPU, 1, 0 },
	{ UA("samples/s"), TPUT_SAMPLES_S, 1, 0 }, { UA("samples/sec"), TPUT_SAMPLES_S, 1, 0 },
	{ UA("samples per second"), TPUT_SAMPLES_S, 1, 0 }, { UA("SamplesPerSec"), TPUT_SAMPLES_S, 1, 0 },
	{ UA("samples/s/gpu"), TPUT_SAMPLES_S_GPU, 1, 0 }, { UA("samples/s/device"), TPUT_SAMPLES_S_GPU, 1, 0 },
	{ UA("images/s"), TPUT_IMAGES_S, 1, 0 }, { UA("images/sec"), TPUT_IMAGES_S, 1, 0 },
	{ UA("img/sec"), TPUT_IMAGES_S, 1, 0 },
	{ UA("it/s"), TPUT_IT_S, 1, 0 }, { UA("steps/s"), TPUT_IT_S, 1, 0 }, { UA("ups"), TPUT_IT_S, 1, 0 },
	{ UA("s/it"), TPUT_IT_S, 1, 1 },
	{ UA("TFLOP/s"), TPUT_TFLOPS, 1, 0 }, { UA("TFLOPs"), TPUT_TFLOPS, 1, 0 },
	{ UA("GFLOP/s"), TPUT_TFLOPS, 1e-3, 0 }, { UA("GFLOPS"), TPUT_TFLOPS, 1e-3, 0 },
	{ UA("TFLOP/s/gpu"), TPUT_TFLOPS_GPU, 1, 0 }, { UA("TFLOP/s/device"), TPUT_TFLOPS_GPU, 1, 0 },
	{ UA("TFLOPS_per_GPU"), TPUT_TFLOPS_GPU, 1, 0 }, { UA("tflops/gpu"), TPUT_TFLOPS_GPU, 1, 0 },
	{ UA("ms"), TPUT_MS_STEP, 1, 0 }, { UA("ms/step"), TPUT_MS_STEP, 1, 0 }, { UA("ms/it"), TPUT_MS_STEP, 1, 0 },
	{ UA("s"), TPUT_MS_STEP, 1000, 0 }, { UA("s/step"), TPUT_MS_STEP, 1000, 0 }, { UA("seconds"), TPUT_MS_STEP, 1000, 0 },
	{ UA("%"), TPUT_MFU, 1, 0 }, { UA("MFU%"), TPUT_MFU, 1, 0 }, { UA("mfu"), TPUT_MFU, 1, 0 },
	{ UA("value"), TPUT_VALUE, 1, 0 },
};
#undef UA

int tputunit_parse(const char *text, size_t len, enum tput_unit *unit, double *scale, int *invert)
{
	for (size_t i = 0; i < sizeof unit_aliases / sizeof unit_aliases[0]; i++) {
		if (unit_aliases[i].len == len && strncasecmp(unit_aliases[i].text, text, len) == 0) {
			*unit = unit_aliases[i].unit;
			*scale = unit_aliases[i].scale;
			*invert = unit_aliases[i].invert;
			return 1;
		}
	}
	return 0;
}

static const double pow10_exact[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* Most figures are plain ("7.3233", "301.20"): digits, perhaps a point and more, and
 * nothing after; the same mantissa and power of ten as number_full, without its pass.
 * 1 with the value of s[i, len) in *value, 0 when the figure is not plain. */
static int number_plain(const char *s, size_t len, size_t i, double *value)
{
	unsigned long long pm = 0;
	size_t j = i, pd = 0, pf = 0, group = 0;
	int commas = 0;
	for (; j < len; j++) {  /* "6,233": groups of three after the first, as below */
		if (tputbyte_digit(s[j])) {
			pm = pm * 10 + (unsigned)(s[j] - '0');
			pd++;
			group++;
		} else if (s[j] == ',' && group > 0 && (commas ? group == 3 : group <= 3)) {
			commas = 1;
			group = 0;
		} else {
			break;
		}
	}
	if (commas && group != 3)
		j = len + 1;  /* not plain: the pass below says why */
	else if (j < len && s[j] == '.')
		for (j++; j < len && tputbyte_digit(s[j]); j++, pd++, pf++)
			pm = pm * 10 + (unsigned)(s[j] - '0');
	if (j == len && pd > 0 && pd <= 15) {
		*value = (double)pm / pow10_exact[pf];
		return 1;
	}
	return 0;
}

/* The exponent of a figure at s[i] ("e-05"), into buf[*n...] for strtod: where it ends, 0
 * when it is no exponent; *e10 its value when plain (a sign and 1-3 digits), else *plain 0. */
static size_t number_exponent(const char *s, size_t len, size_t i, char *buf, size_t cap, size_t *n, int *e10,
			      int *plain)
{
	size_t j = i + 1;
	if (j < len && (s[j] == '-' || s[j] == '+'))
		j++;
	if (j >= len || !tputbyte_digit(s[j]))
		return 0;
	buf[(*n)++] = 'e';
	size_t e_at = *n;
	for (i++; i < len && (tputbyte_digit(s[i]) || s[i] == '-' || s[i] == '+') && *n < cap - 2; i++)
		buf[(*n)++] = s[i];
	size_t k = e_at + (buf[e_at] == '-' || buf[e_at] == '+');
	*plain = *n - k >= 1 && *n - k <= 3;
	for (size_t d = k; d < *n && *plain; d++) {
		*plain = tputbyte_digit(buf[d]);
		*e10 = *e10 * 10 + (buf[d] - '0');
	}
	if (buf[e_at] == '-')
		*e10 = -*e10;
	return i;
}

/* Any other figure: separators, exponents, K/M/G/T suffixes; s[i, len) unsigned. */
static enum tput_num number_full(const char *s, size_t len, size_t i, double *value)
{
	/* One pass: the digits without separators ("12,345": groups of three) go to buf for
	 * strtod, and to a mantissa m for the common case that needs no strtod. */
	char buf[64];
	size_t n = 0, digits = 0, group = 0;
	int commas = 0, frac = 0;
	unsigned long long m = 0;
	for (; i < len && (tputbyte_digit(s[i]) || s[i] == ','); i++) {
		if (s[i] == ',') {
			if (digits == 0 || (commas && group != 3) || (!commas && group > 3))
				return TPUT_NUM_BAD;
			commas = 1;
			group = 0;
			continue;
		}
		if (n >= sizeof buf - 16)
			return TPUT_NUM_BAD;
		buf[n++] = s[i];
		m = m * 10 + (unsigned)(s[i] - '0');
		digits++;
		group++;
	}
	if (commas && group != 3)
		return TPUT_NUM_BAD;
	if (i < len && s[i] == '.') {
		buf[n++] = s[i++];
		for (; i < len && tputbyte_digit(s[i]) && n < sizeof buf - 8; i++, digits++, frac++) {
			buf[n++] = s[i];
			m = m * 10 + (unsigned)(s[i] - '0');
		}
	}
	if (digits == 0)
		return TPUT_NUM_BAD;
	int exponent = 0, e10 = 0, e10_plain = 0;  /* e10: the exponent when plain (a sign, 1-3 digits) */
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		if ((i = number_exponent(s, len, i, buf, sizeof buf, &n, &e10, &e10_plain)) == 0)
			return TPUT_NUM_BAD;
		exponent = 1;
	}
	buf[n] = '\0';
	double mult = 1;
	if (i < len) {
		switch (s[i]) {
		case 'k': case 'K': mult = 1e3; break;
		case 'M': mult = 1e6; break;
		case 'G': mult = 1e9; break;
		case 'T': mult = 1e12; break;
		default: return TPUT_NUM_BAD;
		}
		i++;
	}
	if (i != len)
		return TPUT_NUM_BAD;
	double v;
	/* Clinger's fast path: a mantissa below 2^53 over an exact power of ten rounds once,
	 * as strtod does. Anything else goes to strtod. */
	int e = e10 - frac;
	if (!exponent && digits <= 15 && m < (1ULL << 53) && frac <= 22) {
		v = (double)m / pow10_exact[frac];
	} else if (exponent && e10_plain && digits <= 15 && m < (1ULL << 53) && e >= -22 && e <= 22) {
		/* "7.214923E+00": m times or over an exact power of ten, one rounding as well */
		v = e < 0 ? (double)m / pow10_exact[-e] : (double)m * pow10_exact[e];
	} else {
		char *end;
		v = strtod(buf, &end);
		if (*end != '\0')
			return TPUT_NUM_BAD;
	}
	if (!isfinite(v))
		return TPUT_NUM_BAD;
	*value = v * mult;
	return TPUT_NUM_OK;
}

enum tput_num tputunit_number(const char *s, size_t len, double *value)
{
	while (len > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		len--;
	}
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == ',' || s[len - 1] == ';'))
		len--;
	size_t i = 0;
	int neg = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		neg = s[i++] == '-';
	if (len - i == 3 && strncasecmp(s + i, "nan", 3) == 0) {
		*value = NAN;
		return TPUT_NUM_NAN;
	}
	double v;
	enum tput_num r = number_plain(s, len, i, &v) ? TPUT_NUM_OK : number_full(s, len, i, &v);
	if (r == TPUT_NUM_OK)
		*value = neg ? -v : v;
	return r;
}

size_t tputunit_clock(const char *s, size_t len, size_t at, int min_parts, double *seconds)
{
	double v = 0;
	size_t i = at;
	int part = 0;
	for (;;) {
		size_t st = i;
		double x = 0;
		while (i < len && tputbyte_digit(s[i]) && i - st < 3)
			x = x * 10 + (s[i++] - '0');
		if (i == st || (part > 0 && i - st != 2))
			return 0;
		v = v * 60 + x;
		if (++part == 3 || i + 1 >= len || s[i] != ':' || !tputbyte_digit(s[i + 1]))
			break;
		i++;
	}
	if (part < min_parts || (i < len && (tputbyte_alnum(s[i]) || s[i] == ':' || s[i] == '.')))
		return 0;
	*seconds = v;
	return i;
}
