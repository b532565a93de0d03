/* tputpreset: the framework presets, each a hint naming a framework's lines (its literals)
 * and how to read them (a PCRE2 pattern, or the key/value reader). */
#ifndef SIFT_TPUTPRESET_H
#define SIFT_TPUTPRESET_H

#include <stddef.h>

/* How a preset reads a line: its PCRE2 pattern, or the built-in key/value reader. */
enum tput_reader { TPUT_READ_REGEX, TPUT_READ_KV };

struct tput_preset {
	const char *name;
	const char *source;        /* the framework, as the docs table names it */
	const char *literals[6];   /* prefilter: the line must hold one of these (NULL-ended) */
	const char *pattern;       /* PCRE2, named groups tput, unit, step, time, loss, rank */
	const char *unit;          /* unit text when the pattern has no unit group */
	double time_scale;         /* the time group times this is seconds */
	const char *example;
	enum tput_reader reader;   /* TPUT_READ_KV: pattern is NULL; literals NULL: the reader's own,
				    * else they name the framework's lines, read by the reader */
	int per_device;            /* the other figures of this preset's lines are per device;
				    * -1: its bare "tps" is for the whole job */
	int prefix_step;           /* a line's "N: " prefix, which srun -l writes for a rank, is
				    * this preset's step (darknet's iteration) */
};
extern const struct tput_preset tputpreset_table[];
extern const size_t tputpreset_count;
/* Index of a preset by name, or -1. */
int tputpreset_find(const char *name);

#endif
