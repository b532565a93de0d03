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

#endif
