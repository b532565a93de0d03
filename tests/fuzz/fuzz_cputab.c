/* fuzz_cputab: top -H -b, ps -eLo and pidstat -t tables, then every lookup. */
#include "fuzz.h"

#include "cputab.h"
#include "err.h"

static void on_line(void *ctx, struct in_line *line) { cpu_line(ctx, line); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err_lines errs;
	err_lines_init(&errs);
	errs.limit = 0;
	cpu_table *t = cpu_new(&errs);
	fuzz_lines(data, size, "cpu", on_line, t);
	(void)cpu_source_names[cpu_source(t)];
	for (size_t i = 0; i < cpu_count(t); i++) {
		const struct cpu_thread *th = cpu_at(t, i);
		if (cpu_find(t, th->tid) == NULL || (th->name && strlen(th->name) > size))
			abort(); /* every thread listed is found again by its tid */
	}
	cpu_find(t, 0);
	cpu_free(t);
	return 0;
}
