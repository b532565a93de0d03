/* tput: throughput extraction from training logs: presets, number and unit normalization, prefixes. */
#ifndef SIFT_TPUT_H
#define SIFT_TPUT_H

#include <stddef.h>

/* Canonical units; per-GPU figures are units of their own, never mixed with global ones. */
enum tput_unit {
	TPUT_TOKENS_S, TPUT_TOKENS_S_GPU, TPUT_SAMPLES_S, TPUT_SAMPLES_S_GPU, TPUT_IT_S,
	TPUT_TFLOPS, TPUT_TFLOPS_GPU, TPUT_MS_STEP, TPUT_MFU, TPUT_VALUE, TPUT_NUNITS
};
extern const char *const tput_unit_names[];  /* indexed by enum tput_unit */
/* Times per step: a smaller figure is faster. */
int tput_unit_lower_is_better(enum tput_unit unit);
/* Map unit text as logs write it ("tok/sec", "s/it", "TFLOPS_per_GPU") to a canonical unit;
 * *scale multiplies the value, *invert asks for 1/value (s/it). 0 when unknown. */
int tput_unit_parse(const char *text, size_t len, enum tput_unit *unit, double *scale, int *invert);

struct tput_preset {
	const char *name;
	const char *source;        /* the framework, as the docs table names it */
	const char *literals[4];   /* prefilter: the line must hold one of these (NULL-ended) */
	const char *pattern;       /* PCRE2, named groups tput, unit, step, time, loss, rank */
	const char *unit;          /* unit text when the pattern has no unit group */
	double time_scale;         /* the time group times this is seconds */
	const char *example;
};
extern const struct tput_preset tput_presets[];
extern const size_t tput_npresets;
/* Index of a preset by name, or -1. */
int tput_preset_find(const char *name);

enum tput_num { TPUT_NUM_OK, TPUT_NUM_NAN, TPUT_NUM_BAD };
/* "5,856", "43.2K", "1.249e+03", "nan": thousands separators, K/M/G/T suffixes, exponents. */
enum tput_num tput_parse_number(const char *text, size_t len, double *value);

/* Remove ANSI escape sequences in place; returns the new length. */
size_t tput_strip_ansi(char *text, size_t len);
/* A rank prefix at the start ("[rank3]:", "[default7]:", "0: ", "worker-0:"): bytes it
 * takes (0 when none), rank in *rank. */
size_t tput_rank_prefix(const char *text, size_t len, long *rank);
/* A timestamp at the start (ISO 8601, "2024-05-01 12:00:00,123", glog "I0501 12:00:00.123456",
 * "05/01/2024 12:00:00"), optionally after "[": bytes it takes (0 when none), seconds since
 * the epoch (UTC; glog has no year, 1970 is assumed) in *seconds. */
size_t tput_timestamp(const char *text, size_t len, double *seconds);

struct tput_point {
	long rank;             /* -1 when unknown */
	long long step;        /* -1 when unknown */
	double time;           /* seconds; NaN when unknown */
	double value;          /* in the canonical unit */
	enum tput_unit unit;
	double loss;           /* NaN when absent */
	int rule;              /* index of the rule that matched */
};

enum tput_result {
	TPUT_POINT,     /* a measurement */
	TPUT_NAN,       /* a throughput of nan: counted, not kept */
	TPUT_BAD,       /* matched but its value does not parse */
	TPUT_NOMATCH,   /* held a prefilter literal but no rule matched: noise */
	TPUT_ERROR,     /* a pattern hit its match or depth limit: no answer for the line */
};

typedef struct tput_ex tput_ex;
/* One call per result; lineno is the caller's number for the line it came from. */
typedef void tput_sink(void *ctx, unsigned long lineno, enum tput_result result,
		       const struct tput_point *point, const char *reason);

tput_ex *tput_ex_new(void);
void tput_ex_free(tput_ex *ex);
/* Rules are tried in the order added; the first that matches a frame wins. */
void tput_ex_add_preset(tput_ex *ex, size_t index);
/* A custom rule; returns -1 with a message in err on a bad pattern or no tput group. */
int tput_ex_add_regex(tput_ex *ex, const char *pattern, char *err, size_t errlen);
/* The same rules compiled again: one extractor runs on one thread at a time. */
tput_ex *tput_ex_clone(const tput_ex *ex);
size_t tput_ex_rules(const tput_ex *ex);
const char *tput_ex_rule_name(const tput_ex *ex, size_t rule);
/* One input line (modified in place): ANSI stripped, rank and timestamp prefixes read,
 * "\r"-joined frames split; sink gets one call per frame that yields something. */
void tput_ex_line(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink,
		  void *ctx);
/* A block of whole lines (in_next_block's: each ends in "\n" or "\r\n" but perhaps the
 * last), the first numbered lineno: each line as tput_ex_line takes it. Lines without a
 * rule's literal are skipped by a search over the whole block, not looked at one by one.
 * Returns the block's "\n" count (for in_block_lines). */
size_t tput_ex_block(tput_ex *ex, char *text, size_t len, unsigned long lineno, tput_sink *sink,
		   void *ctx);

#endif
