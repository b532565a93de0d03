/* tmpdir.h: a scratch directory for unit tests that read real files: made in the group
 * setup, removed with everything in it in the teardown. */
#ifndef SIFT_TEST_TMPDIR_H
#define SIFT_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

/* dir is a writable "/tmp/NAME-XXXXXX" template; 0 on success, as cmocka's setup wants. */
static inline int tmpdir_make(char *dir) { return mkdtemp(dir) ? 0 : -1; }

static inline int tmpdir_remove(const char *dir)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Write len bytes to dir/name; path (cap bytes) gets its name. NULL when it cannot. */
static inline const char *tmpdir_file(const char *dir, const char *name, const void *data, size_t len,
				      char *path, size_t cap)
{
	snprintf(path, cap, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	int ok = fwrite(data, 1, len, f) == len;
	ok &= fclose(f) == 0;
	return ok ? path : NULL;
}

#endif
