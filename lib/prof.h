/* prof: a profile: distinct frames interned once, distinct stacks as frame-id arrays with summed counts. */
#ifndef SIFT_PROF_H
#define SIFT_PROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "intern.h"

typedef struct prof prof;

prof *prof_new(void);
void prof_free(prof *p);

/* The frame table: ids index every per-frame cache a tool keeps. */
intern *prof_frames(prof *p);
const intern *prof_frames_const(const prof *p);

/* Add count samples of the stack (root first). Returns 0, or -1 when a count would
 * pass 2^64 (nothing is added then). */
int prof_add(prof *p, const uint32_t *frames, size_t nframes, uint64_t count);

size_t prof_stack_count(const prof *p);
/* Stack i: its frames (root first), their number and its count. */
const uint32_t *prof_stack(const prof *p, size_t i, size_t *nframes, uint64_t *count);
uint64_t prof_total(const prof *p);

/* Order stacks by their frames' text, frame by frame: deterministic output. */
void prof_sort(prof *p);
/* "frame;frame;leaf COUNT" lines; returns -1 on a write error. */
int prof_write_folded(const prof *p, FILE *out);

#endif
