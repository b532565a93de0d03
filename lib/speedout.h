/* speedout: a profile written as speedscope JSON (https://www.speedscope.app/file-format-schema.json),
 * the viewer's own format: one sampled profile per thread and one for all threads. */
#ifndef SIFT_SPEEDOUT_H
#define SIFT_SPEEDOUT_H

#include <stdio.h>

#include "prof.h"

/* Frames carry name, file and line (NAME (FILE:LINE) split; pseudo-frames whole, as names).
 * Each thread's profile (named by its thread pseudo-frame, "no thread" without one) has the
 * distinct stacks: with rate > 0 (samples per second) their weights are seconds (count /
 * rate, unit "seconds", as py-spy writes them, so viewers show time) and the exporter is
 * "sift, RATE samples/s"; else counts, unit "none", exporter "sift". The stacks keep their
 * pseudo-frames, so reading the file back gives the same folded stacks. The last profile,
 * SPEEDSCOPE_ALL_THREADS, holds every stack and is left out when read back. Returns 0, or
 * -1 on a write error. */
int speedout_write(const prof *p, double rate, FILE *out);

#endif
