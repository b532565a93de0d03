/* speedscan: speedscope JSON of sampled profiles scanned in place, without a JSON tree: a
 * py-spy recording of hundreds of MB holds tens of millions of frame indices, each of which
 * a tree would allocate. Samples are counted by their text, so each distinct stack is
 * parsed once. */
#ifndef SIFT_SPEEDSCAN_H
#define SIFT_SPEEDSCAN_H

#include <stddef.h>
#include <stdint.h>

typedef struct speedscan speedscan;

/* A shared frame: name (NULL when not a string), file (NULL when absent or not a
 * string), line (-1 when absent or not an integer). Strings are decoded, NUL-terminated. */
struct speedscan_frame {
	const char *name, *file;
	long line;
};

/* A profile's type, name and unit (NULL when absent or not strings). */
struct speedscan_profile {
	const char *type, *name, *unit;
	size_t samples, weights;  /* offsets of their arrays' '[' in the document, 0 when absent */
};

/* Scan text, a whole JSON document. NULL when it is not plain speedscope JSON this scanner
 * takes (anything unusual: not JSON, an evented profile, a key given twice, nesting
 * deeper than arrays of arrays...): the caller then parses it with a JSON library, which
 * names the fault. */
speedscan *speedscan_new(const char *text, size_t len);
/* Up to cap bytes of a document into buf; 0 at its end. */
typedef size_t speedscan_read_fn(void *ctx, char *buf, size_t cap);
/* As speedscan_new, the document read as a stream: memory holds the distinct frames and
 * sample texts, a 4-byte id and a weight (one, when all are the same) a sample, and a
 * window of window bytes (0: SPEEDSCAN_WINDOW), or of the longest token, not the document. */
enum { SPEEDSCAN_WINDOW = 1 << 20 };
speedscan *speedscan_stream(speedscan_read_fn *read, void *ctx, size_t window);
void speedscan_free(speedscan *sc);

size_t speedscan_frame_count(const speedscan *sc);
const struct speedscan_frame *speedscan_frames(const speedscan *sc);
/* The document's "exporter" string, or NULL. */
const char *speedscan_exporter(const speedscan *sc);
size_t speedscan_profile_count(const speedscan *sc);
const struct speedscan_profile *speedscan_profile(const speedscan *sc, size_t i);

/* A distinct stack of frame indices (each below the frame count, its frame named), root
 * first, and its count. */
typedef void speedscan_stack_fn(void *ctx, const uint32_t *idx, size_t n, uint64_t count);

/* Profile i's samples in order, each with its distinct stack (as speedscan_stacks gives
 * them) and its weight (1 without a weights array): for readers that time each sample.
 * Memory grows with the distinct stacks. With fn NULL, only checked. -1, with nothing
 * given, when a stack is not one of named frames; -1 too when a weight is missing or not a
 * number, with the samples before it given (check first). */
typedef void speedscan_sample_fn(void *ctx, const uint32_t *idx, size_t n, double weight);
int speedscan_samples(speedscan *sc, size_t i, speedscan_sample_fn *fn, void *ctx);

/* 1 with the weight in *weight when profile i has one weight per sample, all the same (as
 * py-spy writes 1/rate seconds); 0 when it has none, they differ or one is not a number. */
int speedscan_weight(speedscan *sc, size_t i, double *weight);

/* Count profile i's samples (a "sampled" profile with a samples array): each sample
 * counts 1 when weighted is 0 or there is no weights array, else llround of its weight
 * times scale plus the fraction carried from the samples before it (as sift's tree
 * reader counts). Each distinct stack is given to fn once, in order of first sample,
 * unless its count is 0; with fn NULL, only checked. -1, with nothing given, when a
 * sample or weight is not what that reader takes (the caller then uses it, to name the
 * fault). */
int speedscan_stacks(speedscan *sc, size_t i, int weighted, double scale, speedscan_stack_fn *fn,
		     void *ctx);

#endif
