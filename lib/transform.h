/* transform: frame transforms that reshape each kept stack and keep all its samples
 * (--hide, --show-from, --prune-from, --collapse-recursion, --hide-wrappers). */
#ifndef SIFT_TRANSFORM_H
#define SIFT_TRANSFORM_H

#include <stddef.h>
#include <stdint.h>

#include "intern.h"
#include "rx.h"

/* What to do; every field zero does nothing. Patterns match frames after rewriting. */
struct xform_opts {
	rx *hide;                /* drop matching frames; their self goes to the frame above */
	rx *show_from;           /* drop the frames above the first match; no match drops the stack */
	rx *prune_from;          /* drop the frames below the first match */
	int collapse_recursion;  /* back-to-back repeats of one frame become one */
	int hide_wrappers;       /* drop the frames of xform_wrappers */
};

/* The built-in wrapper frames: NAME in a file whose path ends with FILE. */
struct xform_wrapper {
	const char *name;
	const char *file;
};
extern const struct xform_wrapper xform_wrappers[];  /* ends with a { NULL, NULL } row */

/* Non-zero when a frame (as written) is one of xform_wrappers. */
int xform_is_wrapper(const char *frame, size_t len);

int xform_opts_active(const struct xform_opts *opts);
/* to gets its own compiled copies of from's patterns (one rx per thread). */
void xform_opts_clone(struct xform_opts *to, const struct xform_opts *from);
void xform_opts_free(struct xform_opts *opts);

/* The frame a stack is left with when every frame of it was hidden. */
#define XFORM_HIDDEN "[hidden]"

/* A transformer of stacks over one frame table; each distinct frame is matched once. */
typedef struct xform xform;

xform *xform_new(const struct xform_opts *opts, intern *frames);
void xform_free(xform *x);

enum { XFORM_KEPT = 0, XFORM_DROPPED = 1, XFORM_ERROR = -1 };
/* Transform stack (frame ids, root first, *n of them, room for at least one) in place.
 * Leading process and thread pseudo-frames (and a dump status after them) are kept as they
 * are and never matched. Order: --show-from, --prune-from, --hide, --hide-wrappers,
 * --collapse-recursion. Returns XFORM_KEPT, XFORM_DROPPED (--show-from matched no frame),
 * or XFORM_ERROR with the reason in err (a pattern hit its match limit). */
int xform_apply(xform *x, uint32_t *stack, size_t *n, char *err, size_t errlen);

#endif
