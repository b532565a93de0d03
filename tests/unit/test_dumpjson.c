/* test_dumpjson: py-spy dump --json arrays into threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lines.h"

#include "dumpjson.h"
#include "xalloc.h"

struct seen { char out[4096]; size_t used; };

static void take_json(void *j, struct in_line *line) { dumpjson_line(j, line); }

static void record(void *ctx, const struct dump_thread *t)
{
	struct seen *s = ctx;
	s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "%llu|", (unsigned long long)t->snapshot);
	for (size_t i = 0; i < t->nprocs; i++)
		s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "%s,", t->procs[i].frame.s);
	s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "|%s|%s|", t->thread_frame.s,
				    dump_status_names[t->status]);
	for (size_t i = 0; i < t->nframes; i++)
		s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "%s;", t->frames[i].s);
	s->used += (size_t)snprintf(s->out + s->used, sizeof s->out - s->used, "\n");
}

static void feed(const char *text, struct seen *s, struct err_lines *errs, struct dump_stats *st)
{
	dumpjson *j = dumpjson_new(errs, record, s);
	feed_lines(text, "j", take_json, j);
	dumpjson_finish(j);
	*st = *dumpjson_get_stats(j);
	dumpjson_free(j);
}

static const char snap[] =
	"[\n  {\n    \"pid\": 42,\n    \"thread_id\": 140245,\n    \"thread_name\": \"MainThread\",\n"
	"    \"os_thread_id\": 43,\n    \"active\": true,\n    \"owns_gil\": true,\n"
	"    \"frames\": [\n      {\"name\": \"leaf\", \"filename\": \"/x/a.py\", \"module\": null,\n"
	"       \"short_filename\": \"a.py\", \"line\": 3, \"locals\": null},\n"
	"      {\"name\": \"main ]{\", \"filename\": \"/x/a.py\", \"module\": null, \"short_filename\": null,\n"
	"       \"line\": 0, \"locals\": null}\n    ],\n    \"process_info\": null\n  },\n"
	"  {\"pid\": 42, \"thread_id\": 255, \"thread_name\": null, \"os_thread_id\": null, \"active\": false,\n"
	"   \"owns_gil\": false, \"frames\": [], \"process_info\": {\"pid\": 42, \"command_line\": \"python a.py\",\n"
	"   \"parent\": {\"pid\": 1, \"command_line\": \"torchrun\", \"parent\": null}}}\n]\n";

static void test_snapshots_and_noise(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	char text[4096];
	snprintf(text, sizeof text, "$ py-spy dump --json --pid 42\n%s[INFO] noise\n\n%s", snap, snap);
	feed(text, &s, &errs, &st);
	const char *one =
		"process 42:\"\",|thread (43): MainThread|active+gil|leaf (a.py:3);main ]{ (/x/a.py);\n";
	const char *two = "process 1:\"torchrun\",process 42:\"python a.py\",|thread (0xff)|idle|\n";
	char want[2048];
	snprintf(want, sizeof want, "1|%s1|%s2|%s2|%s", one, two, one, two);
	assert_string_equal(s.out, want);
	assert_int_equal(st.snapshots, 2);
	assert_int_equal(st.threads, 4);
	assert_int_equal(errs.bad, 0);
	assert_int_equal(errs.skipped, 3);
}

static void test_cut_off_and_bad(void **state)
{
	(void)state;
	struct seen s = { "", 0 };
	struct err_lines errs;
	struct dump_stats st;
	err_lines_init(&errs);
	errs.limit = 0;
	feed("[ {\"pid\": 1}, 1 ]\n[\n  {\"pid\": 42, \"thread_id\": 1,\n", &s, &errs, &st);
	assert_string_equal(s.out, "");
	assert_int_equal(st.snapshots, 1);
	assert_int_equal(st.cut_off, 1);
	assert_int_equal(errs.bad, 3);  /* not an object, no thread_id, cut off */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snapshots_and_noise),
		cmocka_unit_test(test_cut_off_and_bad),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
