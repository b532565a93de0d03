/* fuzz: what the harnesses share: an input cut into lines as the input module gives them,
 * and an input as a file path (memfd) for the code that reads paths. */
#ifndef SIFT_FUZZ_H
#define SIFT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef void fuzz_line_fn(void *ctx, struct in_line *line);

/* Each line in its own exactly-sized, writable, NUL-terminated copy (so ASan sees any read
 * past it), without "\n" or "\r\n", numbered from 1, the last one flagged when unterminated. */
static inline void fuzz_lines(const uint8_t *data, size_t size, const char *file,
			      fuzz_line_fn *fn, void *ctx)
{
	const char *p = (const char *)data, *end = p + size;
	unsigned long lineno = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)((nl ? nl : end) - p);
		char *text = malloc(len + 1);
		if (!text)
			abort();
		memcpy(text, p, len);
		size_t keep = len > 0 && text[len - 1] == '\r' ? len - 1 : len;
		text[keep] = '\0';
		struct in_line line = { text, keep, file, ++lineno, nl == NULL, NULL, 0 };
		fn(ctx, &line);
		free(text);
		p = nl ? nl + 1 : end;
	}
}

/* Write data to an in-memory file; *fd gets it, path its /proc name. -1 on failure. */
static inline int fuzz_file(const void *data, size_t size, int *fd, char *path, size_t cap)
{
	*fd = memfd_create("fuzz", 0);
	if (*fd < 0)
		return -1;
	if (write(*fd, data, size) != (ssize_t)size) {
		close(*fd);
		return -1;
	}
	snprintf(path, cap, "/proc/self/fd/%d", *fd);
	return 0;
}

#endif
