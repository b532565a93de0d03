/* folded: one line of folded stacks ("frame;frame;leaf COUNT") and its frames. */
#ifndef SIFT_FOLDED_H
#define SIFT_FOLDED_H

#include <stddef.h>
#include <stdint.h>

struct folded_line {
	const char *stack;  /* frames root first, without indentation; may be empty */
	size_t len;
	uint64_t count;
};

enum folded_result { FOLDED_OK, FOLDED_BLANK, FOLDED_BAD };

/* Parse a line; on FOLDED_BAD *reason says why (a static string). */
enum folded_result folded_parse(const char *line, size_t len, struct folded_line *out,
				const char **reason);

/* Step through the frames of a stack: start with *pos = 0; returns 0 at the end.
 * A ';' inside a process pseudo-frame's quoted command line does not split. */
int folded_next_frame(const char *stack, size_t len, size_t *pos, const char **frame,
		      size_t *frame_len);

/* As folded_next_frame, and the frame's intern_hash found in the same pass. */
int folded_next_frame_hashed(const char *stack, size_t len, size_t *pos, const char **frame,
			     size_t *frame_len, uint64_t *hash);


#endif
