/* intern: distinct strings stored once, each known by a dense 32-bit id. */
#ifndef SIFT_INTERN_H
#define SIFT_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct intern intern;

#define INTERN_NONE UINT32_MAX

intern *intern_new(void);
void intern_free(intern *in);
/* The id of s, adding it when new. */
uint32_t intern_add(intern *in, const char *s, size_t len);
/* The id of s, or INTERN_NONE. */
uint32_t intern_find(const intern *in, const char *s, size_t len);
/* The string of id (NUL-terminated) and its length. */
const char *intern_str(const intern *in, uint32_t id, size_t *len);
size_t intern_count(const intern *in);

/* The hash every sift table uses. */
uint64_t intern_hash(const void *data, size_t len);

#endif
