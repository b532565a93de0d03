/* dumpjson: `py-spy dump --json` arrays, read line by line into the same threads as dump.h. */
#ifndef SIFT_DUMPJSON_H
#define SIFT_DUMPJSON_H

#include "dump.h"
#include "err.h"
#include "input.h"

typedef struct dumpjson dumpjson;

/* Each top-level JSON value (an array of threads, or one thread object) is a snapshot. */
dumpjson *dumpjson_new(struct err_lines *errs, dump_fn *fn, void *ctx);
void dumpjson_free(dumpjson *j);
/* Feed one line; lines outside any JSON value are skipped as noise. */
void dumpjson_line(dumpjson *j, struct in_line *line);
/* End of input: a value still open is reported as cut off. */
void dumpjson_finish(dumpjson *j);
const struct dump_stats *dumpjson_get_stats(const dumpjson *j);

#endif
