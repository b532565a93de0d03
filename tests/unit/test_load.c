/* test_load: folded files into a profile with filters and rewrites, the frame-by-frame
 * sink, bad lines, merged files and the stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture.h"
#include "err.h"
#include "load.h"
#include "rx.h"

static char paths_buf[4][512];

static char *fixture(int slot, const char *name)
{
	const char *root = getenv("SIFT_TESTDATA");
	snprintf(paths_buf[slot], sizeof paths_buf[slot], "%s/%s", root ? root : "testdata", name);
	return paths_buf[slot];
}

static rx *re(const char *pattern)
{
	char msg[256];
	rx *r = rx_compile(pattern, strlen(pattern), msg, sizeof msg);
	assert_non_null(r);
	return r;
}

struct run {
	struct load_opts opts;
	char *paths[4];
	size_t npaths;
	int strict;
};

/* Child: load, then print the sorted folded profile and the figures. */
static void load_and_print(void *arg)
{
	struct run *r = arg;
	err_set_prog("test_load");
	struct err_lines errs;
	err_lines_init(&errs);
	errs.strict = r->strict;
	prof *p = prof_new();
	struct load_stats st;
	int status = load_files(p, r->paths, r->npaths, &r->opts, &errs, &st);
	err_lines_finish(&errs);
	prof_sort(p);
	prof_write_folded(p, stdout);
	printf("status=%d read=%llu kept=%llu stacks_read=%lu bad=%lu skipped=%lu\n", status,
	       (unsigned long long)st.samples_read, (unsigned long long)st.samples_kept,
	       st.stacks_read, errs.bad, errs.skipped);
	prof_free(p);
}

#define HEX "thread (0x100850580)"

static void test_zoo_filters(void **state)
{
	(void)state;
	struct run r = { .paths = { fixture(0, "raw/zoo.txt") }, .npaths = 1 };
	r.opts.thread = re("^thread \\(0x");
	r.opts.focus = re("wait");
	r.opts.ignore = re("bare");
	r.opts.no_lines = 1;
	struct captured c;
	capture_run(load_and_print, &r, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	assert_string_equal(c.out,
		HEX ";wait (threading.py);[...more user code...];recurse (r.py);recurse (r.py);recurse (r.py) 4\n"
		"status=0 read=31 kept=4 stacks_read=6 bad=0 skipped=0\n");
	rx_free(r.opts.thread);
	rx_free(r.opts.focus);
	rx_free(r.opts.ignore);
}

static void test_merge_files(void **state)
{
	(void)state;
	/* Repeated stacks add across files, zstd or not, with blank lines skipped. */
	struct run r = { .paths = { fixture(0, "raw/merge-a.txt"), fixture(1, "raw/merge-multiframe.txt.zst"),
				    fixture(2, "raw/crlf.txt") }, .npaths = 3 };
	struct captured c;
	capture_run(load_and_print, &r, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	assert_string_equal(c.out,
		"main (a.py:1);other (a.py:3) 9\n"
		"main (a.py:1);work (a.py:2) 26\n"
		"main (a.py:1);work (a.py:2);deeper (b.py:9) 1\n"
		"status=0 read=36 kept=36 stacks_read=10 bad=0 skipped=1\n");
}

static void test_bad_lines(void **state)
{
	(void)state;
	struct run r = { .paths = { fixture(0, "raw/bad-lines.txt"), fixture(1, "raw/cut-off-last-line.txt") },
			 .npaths = 2 };
	struct captured c;
	capture_run(load_and_print, &r, &c);
	assert_int_equal(c.status, 0);
	char want[8192];
	const char *b = paths_buf[0];
	snprintf(want, sizeof want,
		 "test_load: %s:2: no count after the stack\n"
		 "test_load: %s:3: no count after the stack\n"
		 "test_load: %s:4: negative count\n"
		 "test_load: %s:5: count overflows 64 bits\n"
		 "test_load: %s:6: count is not an integer\n"
		 "test_load: %s:7: NUL byte in line\n"
		 "test_load: %s:8: invalid UTF-8\n"
		 "test_load: %s:9: no count after the stack\n"
		 "test_load: %s:10: NUL byte in line\n"
		 "test_load: %s:11: empty frame\n"
		 "test_load: 4 more bad lines not shown\n", b, b, b, b, b, b, b, b, b, b);
	assert_string_equal(c.err, want);
	assert_string_equal(c.out,
		"main (a.py:1);other (a.py:3) 4\n"
		"main (a.py:1);work (a.py:2) 10\n"
		"status=0 read=14 kept=14 stacks_read=4 bad=14 skipped=0\n");

	r.strict = 1;
	capture_run(load_and_print, &r, &c);
	assert_int_equal(c.status, 1);
	snprintf(want, sizeof want, "test_load: %s:2: no count after the stack\n", b);
	assert_string_equal(c.err, want);
	assert_string_equal(c.out, "");
}

static void test_missing_file_status(void **state)
{
	(void)state;
	struct run r = { .paths = { "/nonexistent/x", fixture(0, "raw/merge-a.txt"),
				    fixture(1, "raw/zoo-corrupt.txt.zst") }, .npaths = 3 };
	struct captured c;
	capture_run(load_and_print, &r, &c);
	char want[2048];
	snprintf(want, sizeof want,
		 "test_load: /nonexistent/x: No such file or directory\n"
		 "test_load: %s: corrupt zstd stream: Data corruption detected\n", paths_buf[1]);
	assert_string_equal(c.err, want);
	assert_string_equal(c.out,
		"main (a.py:1);other (a.py:3) 2\n"
		"main (a.py:1);work (a.py:2) 5\n"
		"status=1 read=7 kept=7 stacks_read=2 bad=0 skipped=0\n");
}

static char *folded(const prof *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	prof_write_folded(p, out);
	fclose(out);
	return text;
}

static void push(load_sink *s, const char *const *frames, uint64_t count)
{
	load_stack_begin(s, "f", 1);
	for (; *frames; frames++)
		load_stack_frame(s, *frames, strlen(*frames));
	assert_int_equal(load_stack_end(s, count), 0);
}

static void test_sink_collapse_runs(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	o.collapse_addrs = o.lib_basename = 1;
	struct err_lines errs;
	err_lines_init(&errs);
	prof *p = prof_new();
	load_sink *s = load_sink_new(p, &o, &errs);
	const char *a[] = { "0x1 (libc.so.6)", "0x2 (libc.so.6)", "0x3 (nvidia/lib/libcudart.so.12)",
			    "0x4 (libc.so.6)", "memcpy (libc.so.6)", "0x5 (libc.so.6)", "0x6 (libc.so)", NULL };
	push(s, a, 3);
	/* An address frame without a library stays as written. */
	const char *b[] = { "0x7", "f (x.py:1)", NULL };
	push(s, b, 1);
	/* A "library" that is no library name would read back as a [tag]: perf's spelling. */
	const char *c[] = { "0x8 ([vdso])", "0x9 ([vdso])", "0xa (?)", "0xb (python3.12)", NULL };
	push(s, c, 4);
	const char *none[] = { NULL };
	push(s, none, 2);
	char *text = folded(p);
	assert_string_equal(text, "[libc.so];[libcudart.so];[libc.so];memcpy (libc.so);[libc.so] 3\n"
				  "0x7;f (x.py:1) 1\n"
				  "[unknown] ([vdso]);[unknown] (?);[unknown] (python3.12) 4\n 2\n");
	free(text);
	const struct load_stats *st = load_sink_stats(s);
	assert_int_equal(st->samples_read, 10);
	assert_int_equal(st->samples_kept, 10);
	assert_int_equal(st->stacks_read, 4);
	assert_int_equal(errs.bad, 0);
	load_sink_free(s);
	prof_free(p);
}

/* --no-tids, --no-pids: ids written as 0, once per distinct frame; filters see the frame
 * as written. */
static void test_sink_identity(void **state)
{
	(void)state;
	struct load_opts o = { 0 };
	o.no_tids = o.no_pids = 1;
	rx *tid = re("\\(4242\\)");
	o.thread = tid;
	struct err_lines errs;
	err_lines_init(&errs);
	prof *p = prof_new();
	load_sink *s = load_sink_new(p, &o, &errs);
	const char *a[] = { "process 17:\"python a.py; b\"", "thread (4242): Thread-1 (worker)", "f (a.py:1)", NULL };
	push(s, a, 2);
	const char *b[] = { "process 18:\"python a.py; b\"", "thread (4243): Thread-1 (worker)", "f (a.py:1)", NULL };
	push(s, b, 5); /* left out by --thread: it matches the TID as written */
	o.thread = NULL;
	const char *c[] = { "thread (0x7f3a00001000)", "0x10 (libc.so.6)", NULL };
	push(s, c, 1);
	char *text = folded(p);
	assert_string_equal(text, "process 0:\"python a.py; b\";thread (0): Thread-1 (worker);f (a.py:1) 2\n"
				  "thread (0);0x10 (libc.so.6) 1\n");
	free(text);
	assert_int_equal(load_sink_stats(s)->samples_read, 8);
	assert_int_equal(load_sink_stats(s)->samples_kept, 3);
	load_sink_free(s);
	prof_free(p);
	rx_free(tid);
}

/* The consumer and window_fn of test_sink_window: "W@START COUNT" per piece. */
struct pieces { char text[256]; size_t used; double window; };

static void piece_window(void *ctx, double start)
{
	((struct pieces *)ctx)->window = start;
}

static void piece_stack(void *ctx, const uint32_t *frames, size_t n, uint64_t count)
{
	struct pieces *pc = ctx;
	(void)frames;
	pc->used += (size_t)snprintf(pc->text + pc->used, sizeof pc->text - pc->used, "%zu@%g %llu\n", n,
				     pc->window, (unsigned long long)count);
}

/* --from/--to and --by window: a timed stack's part in the window, cut per window of the
 * series; read counts every sample, kept only those in the window; untimed stacks pass. */
static void test_sink_window(void **state)
{
	(void)state;
	struct pieces pc = { "", 0, -1 };
	struct load_opts o = { 0 };
	o.win = (struct timewin){ .from = 0.5, .to = 2.5, .has_from = 1, .has_to = 1, .width = 1 };
	o.consumer = piece_stack;
	o.window_fn = piece_window;
	o.consumer_ctx = &pc;
	struct err_lines errs;
	err_lines_init(&errs);
	prof *p = prof_new();
	load_sink *s = load_sink_new(p, &o, &errs);
	const char *a[] = { "f (a.py:1)", NULL };
	const char *b[] = { "f (a.py:1)", "g (a.py:2)", NULL };
	load_stack_time(s, 0, 3);
	push(s, a, 300);             /* 0.5..1, 1..2, 2..2.5 */
	load_stack_time(s, 1.2, 0);
	push(s, b, 4);               /* an instant in window 1 */
	load_stack_time(s, 2.5, 0);
	push(s, b, 9);               /* at --to: out */
	push(s, a, 1);               /* untimed (no time given): kept whole, no window told */
	assert_string_equal(pc.text, "1@0 50\n1@1 100\n1@2 50\n2@1 4\n1@1 1\n");
	assert_int_equal(load_sink_stats(s)->samples_read, 314);
	assert_int_equal(load_sink_stats(s)->samples_kept, 205);
	load_sink_free(s);
	prof_free(p);
}

static void test_sink_thread_filter_with_no_threads(void **state)
{
	(void)state;
	/* --thread still selects when --no-threads drops the pseudo-frame from the output. */
	struct load_opts o = { 0 };
	o.no_threads = 1;
	o.thread = re("Main");
	struct err_lines errs;
	err_lines_init(&errs);
	prof *p = prof_new();
	load_sink *s = load_sink_new(p, &o, &errs);
	const char *a[] = { "thread (1): MainThread", "f (a.py:1)", NULL };
	const char *b[] = { "thread (2): Other", "f (a.py:1)", NULL };
	const char *c[] = { "f (a.py:1)", NULL };
	push(s, a, 1);
	push(s, b, 2);
	push(s, c, 4);
	push(s, a, 8);
	char *text = folded(p);
	assert_string_equal(text, "f (a.py:1) 9\n");
	free(text);
	assert_int_equal(load_sink_stats(s)->samples_read, 15);
	assert_int_equal(load_sink_stats(s)->samples_kept, 9);
	load_sink_free(s);
	prof_free(p);
	rx_free(o.thread);
}

static void empty_frame_child(void *arg)
{
	(void)arg;
	err_set_prog("test_load");
	struct load_opts o = { 0 };
	struct err_lines errs;
	err_lines_init(&errs);
	prof *p = prof_new();
	load_sink *s = load_sink_new(p, &o, &errs);
	load_stack_begin(s, "in.txt", 7);
	load_stack_frame(s, "a", 1);
	load_stack_frame(s, "", 0);
	load_stack_frame(s, "b", 1);
	printf("end=%d bad=%lu stacks=%zu read=%llu\n", load_stack_end(s, 5), errs.bad,
	       prof_stack_count(p), (unsigned long long)load_sink_stats(s)->samples_read);
	/* Totals past 2^64 are refused and reported. */
	load_stack_begin(s, "in.txt", 8);
	load_stack_frame(s, "a", 1);
	printf("end=%d\n", load_stack_end(s, UINT64_MAX));
	load_stack_begin(s, "in.txt", 9);
	load_stack_frame(s, "b", 1);
	printf("end=%d total=%llu\n", load_stack_end(s, 1), (unsigned long long)prof_total(p));
	load_sink_free(s);
	prof_free(p);
}

static void test_sink_empty_frame_and_overflow(void **state)
{
	(void)state;
	struct captured c;
	capture_run(empty_frame_child, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "end=0 bad=1 stacks=0 read=0\nend=0\nend=-1 total=18446744073709551615\n");
	assert_string_equal(c.err, "test_load: in.txt:7: empty frame\n"
				   "test_load: in.txt:9: sample counts add up past 2^64\n");
}

static void test_format_names(void **state)
{
	(void)state;
	assert_string_equal(load_format_names[LOAD_AUTO], "auto");
	assert_string_equal(load_format_names[LOAD_RAW], "raw");
	assert_string_equal(load_format_names[LOAD_DUMP], "dump");
	assert_string_equal(load_format_names[LOAD_JSON], "json");
	assert_string_equal(load_format_names[LOAD_SPEEDSCOPE], "speedscope");
	assert_string_equal(load_format_names[LOAD_CHROME], "chrometrace");
	assert_string_equal(load_format_names[LOAD_SVG], "svg");
	assert_string_equal(load_format_names[LOAD_AUSTIN], "austin");
	assert_null(load_format_names[8]);
}

/* An input's name: its --label (the first given for it), else its basename. */
static void test_label_and_base_name(void **state)
{
	(void)state;
	char *labels[] = { "r0=runs/a/rank0.txt", "x", "r1=rank1.txt", "again=runs/a/rank0.txt" };
	size_t len = 0;
	const char *name = load_label(labels, 4, "runs/a/rank0.txt", &len);
	assert_non_null(name);
	assert_int_equal(len, 2);
	assert_memory_equal(name, "r0", 2);
	name = load_label(labels, 4, "rank1.txt", &len);
	assert_true(name && len == 2 && memcmp(name, "r1", 2) == 0);
	assert_null(load_label(labels, 4, "runs/a/rank1.txt", &len));  /* as written, not by basename */
	assert_null(load_label(NULL, 0, "x", &len));
	assert_string_equal(load_base_name("runs/a/rank0.txt"), "rank0.txt");
	assert_string_equal(load_base_name("rank0.txt"), "rank0.txt");
	assert_string_equal(load_base_name("-"), "stdin");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoo_filters),
		cmocka_unit_test(test_merge_files),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_label_and_base_name),
		cmocka_unit_test(test_missing_file_status),
		cmocka_unit_test(test_sink_collapse_runs),
		cmocka_unit_test(test_sink_identity),
		cmocka_unit_test(test_sink_window),
		cmocka_unit_test(test_sink_thread_filter_with_no_threads),
		cmocka_unit_test(test_sink_empty_frame_and_overflow),
		cmocka_unit_test(test_format_names),
	};
	return cmocka_run_group_tests_name("load", tests, NULL, NULL);
}
