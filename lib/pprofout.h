/* pprofout: a profile written as pprof's gzipped profile.proto, the format go tool pprof,
 * Grafana and Pyroscope read (callers, peek, source and tag views). */
#ifndef SIFT_PPROFOUT_H
#define SIFT_PPROFOUT_H

#include <stdio.h>

#include "prof.h"
#include "rules.h"

/* Two sample types, samples/count and cpu/nanoseconds (count * 1e9 / rate, rounded; rate is
 * samples per second, > 0), the period type cpu/nanoseconds with period 1e9 / rate, and one
 * sample per distinct stack, its locations leaf first. Each distinct code or [tag] frame is one Location with one Function of the same id
 * (ids from 1, in order of first appearance over the stacks, root first): function name
 * NAME, filename FILE, line LINE (a frame that does not split has its whole text as name).
 * Thread and process pseudo-frames are no locations but labels "thread" and "process" of
 * the sample, valued by their whole text, so pprof's -tagfocus selects them. With rules r
 * (may be NULL: none), each sample also has a label "category": the stack's category by
 * r, as sift-top --by category decides it. String table: "", samples, count, thread,
 * process, cpu, nanoseconds, category, then each string at its first use. The encoded
 * message is gzip-compressed (zlib) onto out. Returns 0, or -1 on a write error. */
int pprofout_write(const prof *p, rules *r, double rate, FILE *out);

#endif
