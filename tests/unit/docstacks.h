/* docstacks.h: a doc_stack_fn that prints each stack as a folded line into a string, so reader
 * tests compare whole outputs. For unit tests. */
#ifndef SIFT_TEST_DOCSTACKS_H
#define SIFT_TEST_DOCSTACKS_H

#include <stdio.h>
#include <string.h>

#include "docread.h"

struct stacks_out { char text[8192]; size_t used; };

static inline void stacks_take(void *ctx, const char *file, unsigned long lineno,
			       const struct doc_frame *frames, size_t n, uint64_t count)
{
	struct stacks_out *o = ctx;
	(void)file;
	(void)lineno;
	for (size_t i = 0; i < n; i++)
		o->used += (size_t)snprintf(o->text + o->used, sizeof o->text - o->used, "%s%.*s",
					    i ? ";" : "", (int)frames[i].len, frames[i].s);
	o->used += (size_t)snprintf(o->text + o->used, sizeof o->text - o->used, " %llu\n",
				    (unsigned long long)count);
}

/* A doc_time_fn for the same stacks_out: "@AT+LEN " before the stack it times. */
static inline void stacks_time(void *ctx, const struct doc_time *when)
{
	struct stacks_out *o = ctx;
	o->used += (size_t)snprintf(o->text + o->used, sizeof o->text - o->used, "@%g+%g ", when->at,
				    when->len);
}

/* A document from a string, as doc_add_line would gather it. */
static inline struct doc_buf stacks_doc(const char *text)
{
	struct doc_buf d = { 0 };
	d.text = (char *)text;
	d.len = strlen(text);
	d.file = "t";
	d.lineno = 1;
	return d;
}

#endif
