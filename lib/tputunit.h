/* tputunit: throughput units as logs write them, and numbers as logs write them ("5,856",
 * "43.2K", "1.249e+03", "nan"): the meaning stage's one unit table. */
#ifndef SIFT_TPUTUNIT_H
#define SIFT_TPUTUNIT_H

#include <stddef.h>
#include <stdint.h>

/* Canonical units; per-GPU figures are units of their own, never mixed with global ones.
 * A translation model's source and target tokens ("N/M tok/s") are two units, and the word
 * "tps" when nothing says whether it is per GPU or for the whole job is one of its own.
 * (Every tput stage's vocabulary, so named for the family, not the module.) */
enum tput_unit {
	TPUT_TOKENS_S, TPUT_TOKENS_S_GPU, TPUT_TOKENS_S_SRC, TPUT_TOKENS_S_TGT, TPUT_TPS, TPUT_SAMPLES_S, TPUT_SAMPLES_S_GPU, TPUT_IMAGES_S, TPUT_IT_S,
	TPUT_TFLOPS, TPUT_TFLOPS_GPU, TPUT_MS_STEP, TPUT_MFU, TPUT_VALUE, TPUT_NUNITS
};
extern const char *const tputunit_names[];  /* indexed by enum tput_unit */
/* Times per step: a smaller figure is faster. */
int tputunit_lower_is_better(enum tput_unit unit);
/* Map unit text as logs write it ("tok/sec", "s/it", "TFLOPS_per_GPU") to a canonical unit;
 * *scale multiplies the value, *invert asks for 1/value (s/it). 0 when unknown. */
int tputunit_parse(const char *text, size_t len, enum tput_unit *unit, double *scale, int *invert);

enum tput_num { TPUT_NUM_OK, TPUT_NUM_NAN, TPUT_NUM_BAD };
/* "5,856", "43.2K", "1.249e+03", "nan": thousands separators, K/M/G/T suffixes, exponents. */
enum tput_num tputunit_number(const char *text, size_t len, double *value);

/* A measurement, as every stage after the reading hands it on. */
struct tput_point {
	long rank;             /* -1 when unknown */
	long long step;        /* -1 when unknown */
	double time;           /* seconds; NaN when unknown */
	double value;          /* in the canonical unit */
	enum tput_unit unit;
	double loss;           /* NaN when absent */
	int rule;              /* index of the rule that matched */
	uint64_t tmpl;         /* its record's template (tputtmpl_hash); 0 when unknown */
	int bar;               /* a progress bar's rate (N/M or Nit before its clock) */
	double total;          /* that bar's total (M of N/M); 0: none, or not said */
};

enum tput_result {
	TPUT_POINT,     /* a measurement */
	TPUT_NAN,       /* a throughput of nan: counted, not kept */
	TPUT_BAD,       /* matched but its value does not parse */
	TPUT_NOMATCH,   /* held a prefilter literal but no rule matched: noise */
	TPUT_ERROR,     /* a pattern hit its match or depth limit: no answer for the line */
	TPUT_LEFT,      /* a figure the reader left out (reason says why): --explain lists it,
			 * --take takes it */
};

/* One call per result; lineno is the caller's number for the line it came from. */
typedef void tput_sink(void *ctx, unsigned long lineno, enum tput_result result,
		       const struct tput_point *point, const char *reason);

/* Where a clock at s[at] ends ("1:53", "00:12:57": up to three parts, each after the first
 * of two digits, at least min_parts of them), its seconds in *seconds; 0 when none is
 * there, or when a letter, digit, ':' or '.' follows it. */
size_t tputunit_clock(const char *s, size_t len, size_t at, int min_parts, double *seconds);

#endif
