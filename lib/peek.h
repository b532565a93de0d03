/* peek: the callers and callees of the keys a pattern matches (pprof's -peek), counted once
 * per stack so that they add up to the key's total. */
#ifndef SIFT_PEEK_H
#define SIFT_PEEK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "agg.h"
#include "frame.h"
#include "intern.h"
#include "rx.h"
#include "table.h"

enum peek_role { PEEK_CALLER, PEEK_SELF, PEEK_CALLEE };
extern const char *const peek_role_names[];  /* "caller", ".", "callee" */

struct peek_row {
	uint32_t key;        /* id in peek_keys() */
	enum peek_role role;
	uint32_t other;      /* the caller or callee (the key itself for PEEK_SELF) */
	uint64_t self;       /* caller and .: of samples, those whose leaf has the key;
			      * callee: those whose leaf has the callee */
	uint64_t samples;    /* caller, callee: stacks through it; .: the key's total */
};

typedef struct peek peek;

/* Keys by key (frame, function, file, lib, line, thread or process: frame-level keys),
 * those whose text match selects. Non-zero from peek_key_ok when key is one of them. */
int peek_key_ok(enum frame_key key);
peek *peek_new(enum frame_key key, rx *match);
void peek_free(peek *pk);

/* Add a kept stack (frame ids of frames, root first). Each matching key is counted once per
 * stack at its outermost occurrence: its caller is the key value before it ("(root)" when
 * none), its callee the one after it, or none when the stack's leaf has the key (self). Frames
 * without a value for the key are passed over; a leaf without one is the callee "(no KEY)".
 * Returns 0, or -1 with the reason in err when the pattern hit its match limit. */
int peek_add(peek *pk, const intern *frames, const uint32_t *ids, size_t n, uint64_t count,
	     char *err, size_t errlen);

/* The rows of the first limit keys (0: all) by order, ties by the other figure then text:
 * each key's callers, its . row, its callees (by samples, then text). *rows is the caller's. */
size_t peek_rows(const peek *pk, enum agg_order order, size_t limit, struct peek_row **rows);
const intern *peek_keys(const peek *pk);

/* Write rows with percentages of base: pprof -peek's look for TABLE_TEXT, else columns
 * key role other self samples pct. Returns 0, or -1 on a write error. */
int peek_write(const peek *pk, const struct peek_row *rows, size_t nrows, uint64_t base,
	       enum table_format format, FILE *out);

#endif
