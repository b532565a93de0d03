/* xalloc: allocation that ends the program with a message when memory runs out. */
#ifndef SIFT_XALLOC_H
#define SIFT_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grow an array of `*cap` elements of `size` bytes to hold at least `need`. */
void *xgrow(void *ptr, size_t *cap, size_t need, size_t size);
char *xstrndup(const char *s, size_t len);

#endif
