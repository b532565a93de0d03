/* austin: austin's collapsed sample lines (`P<pid>;T<iid>:<tid>;file:function:line;... N`)
 * read into py-spy's frames: `process PID:""`, `thread (TID)`, `function (file:line)`. */
#ifndef SIFT_AUSTIN_H
#define SIFT_AUSTIN_H

#include <stddef.h>
#include <stdint.h>

#include "docread.h"

enum austin_result { AUSTIN_OK, AUSTIN_SKIP, AUSTIN_BAD };

/* Does the line start like an austin sample (P<digits>;T<id>)? */
int austin_is_sample(const char *text, size_t len);

/* Parse one line into st (cleared first) and *count. `# key: value` metadata and blank
 * lines are AUSTIN_SKIP; AUSTIN_BAD sets *reason. Austin 3.4+ writes T<iid>:<tid>, earlier
 * versions T<tid>; in full mode the metric is "time,idle,memory" and time counts. */
enum austin_result austin_line(const char *text, size_t len, struct doc_stack *st,
			       uint64_t *count, const char **reason);

/* What a file's metadata lines (`# interval: 100`, `# mode: wall`) say its metric is. */
enum austin_mode { AUSTIN_MODE_UNSAID, AUSTIN_MODE_TIME, AUSTIN_MODE_MEMORY };
struct austin_meta {
	enum austin_mode mode;  /* wall, cpu and full are microseconds; memory is bytes */
	double interval;        /* microseconds between samples, 0 when not said */
	double carry;           /* the fraction of a sample left by rounding, carried on */
};

/* Forget a file's metadata (a new file begins). */
void austin_meta_reset(struct austin_meta *meta);
/* Take a `# key: value` line's interval or mode; other lines are left alone. */
void austin_meta_line(struct austin_meta *meta, const char *text, size_t len);
/* The samples a metric stands for. In wall, cpu or full mode it is microseconds: turned into
 * samples at the file's interval (at 1e6/rate microseconds when it states none), rounded
 * with the carry so a file's samples add up. Memory mode (bytes) and files that state no
 * mode keep the metric as written. */
uint64_t austin_samples(struct austin_meta *meta, uint64_t metric, double rate);
/* Samples per second the file records (1e6/interval in a mode of time), 0 when unsaid. */
double austin_rate(const struct austin_meta *meta);

#endif
