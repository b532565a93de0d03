/* test_frame: frame parts for every shape py-spy writes, keys, library basenames. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "frame.h"

struct want {
	const char *frame;
	enum frame_kind kind;
	const char *name, *file, *line, *id;
	int native, address;
};

static void check(const struct want *w)
{
	struct frame_parts p;
	frame_split(w->frame, strlen(w->frame), &p);
	if (p.kind != w->kind || p.name_len != strlen(w->name) || memcmp(p.name, w->name, p.name_len) ||
	    p.file_len != strlen(w->file) || memcmp(p.file, w->file, p.file_len) ||
	    p.line_len != strlen(w->line) || memcmp(p.line, w->line, p.line_len) ||
	    p.id_len != strlen(w->id) || memcmp(p.id, w->id, p.id_len) || p.native != w->native ||
	    p.address != w->address)
		fail_msg("frame_split(\"%s\"): kind %d name '%.*s' file '%.*s' line '%.*s' id '%.*s' "
			 "native %d address %d", w->frame, p.kind, (int)p.name_len, p.name,
			 (int)p.file_len, p.file, (int)p.line_len, p.line, (int)p.id_len, p.id,
			 p.native, p.address);
}

static void test_split(void **state)
{
	(void)state;
	static const struct want cases[] = {
		{ "step (train.py:12)", FRAME_CODE, "step", "train.py", "12", "", 0, 0 },
		{ "wait (threading.py)", FRAME_CODE, "wait", "threading.py", "", "", 0, 0 },
		{ "bare_native_name", FRAME_CODE, "bare_native_name", "", "", "", 0, 0 },
		{ "<module> (<string>:1)", FRAME_CODE, "<module>", "<string>", "1", "", 0, 0 },
		{ "_run_code (<frozen runpy>:88)", FRAME_CODE, "_run_code", "<frozen runpy>", "88", "", 0, 0 },
		{ "main (torchrun:6)", FRAME_CODE, "main", "torchrun", "6", "", 0, 0 },
		{ "0x7f0248000d90 (libc.so.6)", FRAME_CODE, "0x7f0248000d90", "libc.so.6", "", "", 1, 1 },
		{ "0xffff8a2b1c00 (libc.so.6)", FRAME_CODE, "0xffff8a2b1c00", "libc.so.6", "", "", 1, 1 },
		{ "cuLaunchKernel (libcuda.so.580.126.20)", FRAME_CODE, "cuLaunchKernel",
		  "libcuda.so.580.126.20", "", "", 1, 0 },
		{ "cudaLaunchKernel (nvidia/cuda_runtime/lib/libcudart.so.12)", FRAME_CODE,
		  "cudaLaunchKernel", "nvidia/cuda_runtime/lib/libcudart.so.12", "", "", 1, 0 },
		{ "(anonymous namespace)::launch (libtorch_cuda.so)", FRAME_CODE,
		  "(anonymous namespace)::launch", "libtorch_cuda.so", "", "", 1, 0 },
		{ "operator() (libtorch_cpu.so)", FRAME_CODE, "operator()", "libtorch_cpu.so", "", "", 1, 0 },
		{ "operator()", FRAME_CODE, "operator()", "", "", "", 0, 0 },
		{ "{lambda(int)#2}::operator()(int) const (libtorch_cpu.so)", FRAME_CODE,
		  "{lambda(int)#2}::operator()(int) const", "libtorch_cpu.so", "", "", 1, 0 },
		{ "{lambda(int)#2}", FRAME_CODE, "{lambda(int)#2}", "", "", "", 0, 0 },
		{ "f (a (b).py:3)", FRAME_CODE, "f", "a (b).py", "3", "", 0, 0 },
		{ "gemm (kernel.cu:120)", FRAME_CODE, "gemm", "kernel.cu", "120", "", 1, 0 },
		{ "PyThread_acquire_lock_timed (python3.12)", FRAME_CODE, "PyThread_acquire_lock_timed",
		  "python3.12", "", "", 1, 0 },
		{ "empty ()", FRAME_CODE, "empty ()", "", "", "", 0, 0 },
		{ "x (", FRAME_CODE, "x (", "", "", "", 0, 0 },
		{ "unbalanced)", FRAME_CODE, "unbalanced)", "", "", "", 0, 0 },
		{ "f (a.py:)", FRAME_CODE, "f", "a.py:", "", "", 1, 0 }, /* odd, but no line: native */
		{ "thread (3732041): MainThread", FRAME_THREAD, "MainThread", "", "", "3732041", 0, 0 },
		{ "thread (781211): Thread-2 (process_output_sockets)", FRAME_THREAD,
		  "Thread-2 (process_output_sockets)", "", "", "781211", 0, 0 },
		{ "thread (0x100850580)", FRAME_THREAD, "", "", "", "0x100850580", 0, 0 },
		{ "thread ()", FRAME_CODE, "thread ()", "", "", "", 0, 0 },
		{ "thread (12) x", FRAME_CODE, "thread (12) x", "", "", "", 0, 0 },
		{ "process 3732039:\"\"", FRAME_PROCESS, "", "", "", "3732039", 0, 0 },
		{ "process 12:\"python -c import a; a.run()\"", FRAME_PROCESS,
		  "python -c import a; a.run()", "", "", "12", 0, 0 },
		{ "process x:\"y\"", FRAME_CODE, "process x:\"y\"", "", "", "", 0, 0 },
		{ "[...more user code...]", FRAME_PSEUDO, "[...more user code...]", "", "", "", 0, 0 },
		{ "[libcuda.so]", FRAME_CODE, "[libcuda.so]", "libcuda.so", "", "", 1, 1 },
		{ "[libc.so.6]", FRAME_CODE, "[libc.so.6]", "libc.so.6", "", "", 1, 1 },
		{ "", FRAME_CODE, "", "", "", "", 0, 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check(&cases[i]);
}

static void test_thread_name_with_close_paren_in_id_part(void **state)
{
	(void)state;
	/* "thread (12) x": not "thread (TID): NAME", so a bare name whose FILE parse fails. */
	struct frame_parts p;
	frame_split("thread (12) x", 13, &p);
	assert_int_equal(p.kind, FRAME_CODE);
}

static void key(enum frame_key k, const char *frame, const char *want)
{
	char *buf = NULL;
	size_t cap = 0;
	long n = frame_key_text(k, frame, strlen(frame), &buf, &cap);
	if (!want) {
		if (n != -1)
			fail_msg("key %s of '%s': got '%s', want none", frame_key_names[k], frame, buf);
	} else if (n != (long)strlen(want) || memcmp(buf, want, (size_t)n) != 0 || buf[n] != '\0') {
		fail_msg("key %s of '%s': got %ld '%s', want '%s'", frame_key_names[k], frame, n,
			 n >= 0 ? buf : "", want);
	}
	free(buf);
}

static void test_keys(void **state)
{
	(void)state;
	key(KEY_FRAME, "step (train.py:12)", "step (train.py:12)");
	key(KEY_FUNCTION, "step (train.py:12)", "step (train.py)");
	key(KEY_FILE, "step (train.py:12)", "train.py");
	key(KEY_LIB, "step (train.py:12)", NULL);
	key(KEY_LINE, "step (train.py:12)", "train.py:12");

	key(KEY_FUNCTION, "poll (libc.so.6)", "poll (libc.so.6)");
	key(KEY_FILE, "poll (libc.so.6)", "libc.so.6");
	key(KEY_LIB, "poll (libc.so.6)", "libc.so.6");
	key(KEY_LINE, "poll (libc.so.6)", "libc.so.6");
	key(KEY_LIB, "gemm (kernel.cu:120)", "kernel.cu");
	key(KEY_LIB, "0x7f0248000d90 (libc.so.6)", "libc.so.6");

	key(KEY_FRAME, "bare_native_name", "bare_native_name");
	key(KEY_FUNCTION, "bare_native_name", "bare_native_name");
	key(KEY_FILE, "bare_native_name", NULL);
	key(KEY_LIB, "bare_native_name", NULL);
	key(KEY_LINE, "bare_native_name", NULL);

	key(KEY_FUNCTION, "[libcuda.so]", "[libcuda.so]");
	key(KEY_LIB, "[libcuda.so]", "libcuda.so");
	key(KEY_FUNCTION, "(anonymous namespace)::launch (libtorch_cuda.so)",
	    "(anonymous namespace)::launch (libtorch_cuda.so)");

	/* Pseudo-frames have no per-frame key. */
	key(KEY_FRAME, "thread (1): MainThread", NULL);
	key(KEY_FRAME, "process 1:\"\"", NULL);
	key(KEY_FRAME, "[...more user code...]", NULL);
	key(KEY_ROOT, "step (train.py:12)", NULL);
	key(KEY_THREAD, "thread (1): MainThread", NULL);
}

static void test_key_names(void **state)
{
	(void)state;
	const char *names[] = { "frame", "function", "file", "lib", "line", "root", "thread",
				"process", "category", "source", "window" };
	for (int i = 0; i < KEY_COUNT; i++)
		assert_string_equal(frame_key_names[i], names[i]);
	assert_null(frame_key_names[KEY_COUNT]);
	for (int i = 0; i < KEY_COUNT; i++)
		assert_int_equal(frame_key_is_stack_level((enum frame_key)i),
				 i == KEY_ROOT || i == KEY_THREAD || i == KEY_PROCESS || i == KEY_SOURCE ||
				 i == KEY_WINDOW);
}

static void basename_is(const char *lib, const char *want)
{
	const char *base;
	size_t len;
	frame_lib_basename(lib, strlen(lib), &base, &len);
	if (len != strlen(want) || memcmp(base, want, len) != 0)
		fail_msg("basename of '%s': '%.*s', want '%s'", lib, (int)len, base, want);
}

static void test_lib_basename(void **state)
{
	(void)state;
	basename_is("nvidia/cuda_runtime/lib/libcudart.so.12", "libcudart.so");
	basename_is("libcuda.so.580.126.20", "libcuda.so");
	basename_is("libc.so.6", "libc.so");
	basename_is("libtorch_cpu.so", "libtorch_cpu.so");
	basename_is("zmq/backend/cython/_zmq.abi3.so", "_zmq.abi3.so");
	basename_is("libzmq-7b073b3d.so.5.2.5", "libzmq-7b073b3d.so");
	basename_is("libsonic.so.1", "libsonic.so");
	basename_is("/usr/bin/python3.12", "python3.12");
	basename_is("python3.12", "python3.12");
	basename_is("[vdso]", "[vdso]");
	basename_is("dir/", "");
}

static void check_short(const char *in, size_t max, const char *want)
{
	char buf[256];
	size_t n = frame_shorten(in, strlen(in), max, buf, sizeof buf);
	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

static void test_shorten(void **state)
{
	(void)state;
	check_short("forward (torch/nn/modules/linear.py:134)", 48, "forward (torch/nn/modules/linear.py:134)");
	check_short("forward (torch/nn/modules/linear.py:134)", 30, "forward (linear.py:134)");
	check_short("get_hidden_states_packed (train_dflash_pipeline.py:230)", 48,
		    "get_hidden_states_packed (...sh_pipeline.py:230)");
	check_short("a very long name with no file at all in it", 20, "a very lo...ll in it");
	check_short("x (abcdefghijklmnop)", 12, "x (...lmnop)");
	check_short("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 7,
		    "\xc3\xa9\xc3\xa9...\xc3\xa9\xc3\xa9");
	check_short("abcdefgh", 4, "abcd");
	/* A C++ frame keeps its function: the namespaces go first. */
	check_short("torch::utils::(anonymous namespace)::pack_args(int, long) (libtorch_python.so)", 40,
		    "...::pack_args(int, long) (...python.so)");
	check_short("at::native::(anonymous namespace)::copy_kernel_cuda (libtorch_cuda.so)", 30,
		    "...::copy_kernel_cuda");  /* no room for enough of the file */
	check_short("std::vector<std::pair<int, c10::IValue>>::push_back (libfoo.so)", 28,
		    "...::push_back (libfoo.so)");
	char tiny[6];
	assert_int_equal(frame_shorten("abcdefgh", 8, 100, tiny, sizeof tiny), 5);
	assert_string_equal(tiny, "abcde");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shorten),
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_thread_name_with_close_paren_in_id_part),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_key_names),
		cmocka_unit_test(test_lib_basename),
	};
	return cmocka_run_group_tests_name("frame", tests, NULL, NULL);
}
