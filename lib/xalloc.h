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
/* A large buffer about to be filled through (a whole document, a very long line): ask the
 * kernel for transparent huge pages, faulted in 2 MB at a time rather than 4 KB, which
 * costs more than the copy itself on some machines. Only a hint; small buffers are left. */
void xalloc_hint_huge(void *ptr, size_t size);

#endif
