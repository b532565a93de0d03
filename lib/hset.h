/* hset: a set of 64-bit hashes, to count distinct things without keeping them. */
#ifndef SIFT_HSET_H
#define SIFT_HSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct hset hset;

hset *hset_new(void);
void hset_free(hset *s);
/* Add h; returns 1 when it was new. */
int hset_add(hset *s, uint64_t h);
/* Add h a few adds later: its slot is fetched now, so a large set's cache miss overlaps the
 * caller's work. Whatever reads the set (count, merge, add) adds the waiting ones first. */
void hset_add_later(hset *s, uint64_t h);
size_t hset_count(hset *s);
/* Add every hash of src to dst. */
void hset_merge(hset *dst, hset *src);

#endif
