/* stacks.h: a test's stacks written as folded text ("a;b;c"), added to a profile. */
#ifndef SIFT_TEST_STACKS_H
#define SIFT_TEST_STACKS_H

#include <string.h>

#include "prof.h"

/* Add the stack "a;b;c" (at most 32 frames) with count samples. */
static void add(prof *p, const char *stack, uint64_t count)
{
	uint32_t ids[32];
	size_t n = 0;
	for (const char *s = stack;; s++) {
		const char *semi = strchr(s, ';');
		size_t len = semi ? (size_t)(semi - s) : strlen(s);
		assert_true(n < 32);
		ids[n++] = intern_add(prof_frames(p), s, len);
		if (!semi)
			break;
		s = semi;
	}
	assert_int_equal(prof_add(p, ids, n, count), 0);
}

#endif
