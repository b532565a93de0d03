/* fuzz_load: whole files through the loader with every rewrite, then every table key;
 * the input is also tried zstd-framed when it starts with the magic number. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "agg.h"
#include "err.h"
#include "load.h"
#include "prof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The loader reads paths: give it an in-memory file. */
	int fd = memfd_create("fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	char *paths[1] = { path };
	struct load_opts opts = { 0 };
	opts.no_lines = size & 1;
	opts.collapse_addrs = (size >> 1) & 1;
	opts.lib_basename = (size >> 2) & 1;
	opts.no_threads = (size >> 3) & 1;
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	prof *p = prof_new();
	load_files(p, paths, 1, &opts, &errs, NULL);
	prof_sort(p);
	for (int key = KEY_FRAME; key <= KEY_PROCESS; key++) {
		agg *a = agg_new(p, (enum frame_key)key);
		agg_sort(a, key & 1 ? AGG_BY_TOTAL : AGG_BY_SELF);
		agg_free(a);
	}
	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		prof_write_folded(p, sink);
		fclose(sink);
	}
	prof_free(p);
	close(fd);
	return 0;
}
