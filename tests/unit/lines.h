/* lines.h: feed a string to a line parser as the input module would, one in_line a line
 * (split on \n; a missing final \n marks the last line unterminated). For unit tests. */
#ifndef SIFT_TEST_LINES_H
#define SIFT_TEST_LINES_H

#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "xalloc.h"

static inline void feed_lines(const char *text, const char *file,
			      void (*take)(void *ctx, struct in_line *line), void *ctx)
{
	unsigned long lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *copy = xstrndup(p, len); /* parsers may rewrite a line in place */
		struct in_line line = { copy, len, file, ++lineno, nl == NULL, NULL, 0 };
		take(ctx, &line);
		free(copy);
		p += len + (nl != NULL);
	}
}

#endif
