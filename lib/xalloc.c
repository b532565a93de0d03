/* xalloc: out of memory is a data-size problem: say so and exit 1. */
#include "xalloc.h"
#include "err.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static void *check(void *p)
{
	if (!p)
		err_exit(EXIT_DATA, "out of memory");
	return p;
}

void *xmalloc(size_t size) { return check(malloc(size ? size : 1)); }
void *xcalloc(size_t count, size_t size) { return check(calloc(count ? count : 1, size ? size : 1)); }
void *xrealloc(void *ptr, size_t size) { return check(realloc(ptr, size ? size : 1)); }

void *xgrow(void *ptr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return ptr;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > ((size_t)-1) / 2 / size)
			err_exit(EXIT_DATA, "out of memory");
		n *= 2;
	}
	*cap = n;
	return xrealloc(ptr, n * size);
}

char *xstrndup(const char *s, size_t len)
{
	char *d = xmalloc(len + 1);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

void xalloc_hint_huge(void *ptr, size_t size)
{
#ifdef MADV_HUGEPAGE
	if (size < (8u << 20))
		return;
	/* The whole pages the block touches: malloc maps a block this large on its own, and a
	 * mapping whose pages differ in flags is split, which would stop realloc growing it
	 * in place (mremap) and make it copy. */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)ptr & ~(page - 1);
	uintptr_t end = ((uintptr_t)ptr + size + page - 1) & ~(page - 1);
	madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
	(void)ptr;
	(void)size;
#endif
}
