/* test_rules: rules files, precedence, inclusive mode, the per-frame cache, the default set. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input.h"
#include "intern.h"
#include "rules.h"

static char errbuf[512];

static rules *parse(const char *text)
{
	rules *r = rules_new();
	assert_int_equal(rules_add_text(r, "t.rules", text, strlen(text), errbuf, sizeof errbuf), 0);
	return r;
}

static const char *match_name(rules *r, const char *frame)
{
	uint32_t c = rules_match(r, frame, strlen(frame));
	return c == RULES_NONE ? "(none)" : rules_category_name(r, c, NULL);
}

/* Intern frames and return their ids, root first. */
static size_t stack_of(intern *frames, const char *const *text, uint32_t *ids)
{
	size_t n = 0;
	for (; text[n]; n++)
		ids[n] = intern_add(frames, text[n], strlen(text[n]));
	return n;
}

static const char *stack_name(rules *r, rules_cache *c, intern *frames, const char *const *text)
{
	uint32_t ids[64];
	size_t n = stack_of(frames, text, ids);
	return rules_category_name(r, rules_stack(c, ids, n), NULL);
}

static void test_parse_file(void **state)
{
	(void)state;
	char path[1024];
	snprintf(path, sizeof path, "%s/rules/good.rules", getenv("SIFT_TESTDATA"));
	rules *r = rules_new();
	assert_int_equal(rules_add_file(r, path, errbuf, sizeof errbuf), 0);
	assert_int_equal(rules_count(r), 5);
	/* "other" first, then categories in order of first appearance. */
	assert_int_equal(rules_category_count(r), 5);
	size_t len;
	assert_string_equal(rules_category_name(r, 0, &len), "other");
	assert_int_equal(len, 5);
	assert_string_equal(rules_category_name(r, 1, NULL), "launch");
	assert_string_equal(rules_category_name(r, 2, NULL), "sync");
	assert_string_equal(rules_category_name(r, 3, NULL), "yield");
	assert_string_equal(rules_category_name(r, 4, NULL), "hash");
	assert_int_equal(rules_other(r), 0);
	/* Two lines for launch; the trailing comment is not part of the pattern. */
	assert_string_equal(match_name(r, "cuLaunchKernel (libcuda.so.1)"), "launch");
	assert_string_equal(match_name(r, "cudaLaunchKernel (libcudart.so.12)"), "launch");
	assert_string_equal(match_name(r, "cuStreamSynchronize (libcuda.so.1)"), "sync");
	assert_string_equal(match_name(r, "x # trailing comment"), "(none)");
	/* \# keeps a '#' in a pattern. */
	assert_string_equal(match_name(r, "{lambda(int)#2} (libtorch.so)"), "hash");
	assert_string_equal(match_name(r, "forward (model.py:3)"), "(none)");
	rules_free(r);
}

static void test_errors(void **state)
{
	(void)state;
	char path[1024];
	snprintf(path, sizeof path, "%s/rules/bad-pattern.rules", getenv("SIFT_TESTDATA"));
	rules *r = rules_new();
	assert_int_equal(rules_add_file(r, path, errbuf, sizeof errbuf), -1);
	char want[1200];
	snprintf(want, sizeof want, "%s:2: pattern error at offset 8: missing closing parenthesis", path);
	assert_string_equal(errbuf, want);
	rules_free(r);

	r = rules_new();
	assert_int_equal(rules_add_text(r, "x.rules", "\n\nlaunch   # only a comment\n", 27, errbuf, sizeof errbuf), -1);
	assert_string_equal(errbuf, "x.rules:3: no pattern after category 'launch'");
	assert_int_equal(rules_add_text(r, "y.rules", "a;b foo\n", 8, errbuf, sizeof errbuf), -1);
	assert_string_equal(errbuf, "y.rules:1: category 'a;b' may not hold ';', '[' or ']'");
	assert_int_equal(rules_add_text(r, "z.rules", "ok a\nok (?<n\n", 13, errbuf, sizeof errbuf), -1);
	assert_string_equal(errbuf, "z.rules:2: pattern error at offset 4: syntax error in subpattern name (missing terminator?)");
	rules_free(r);

	r = rules_new();
	errbuf[0] = 'x';
	assert_int_equal(rules_add_file(r, "no/such.rules", errbuf, sizeof errbuf), -1);
	assert_string_equal(errbuf, ""); /* the input module already said why */
	rules_free(r);
}

static void test_leaf_most_and_ties(void **state)
{
	(void)state;
	/* yield is listed first, so it wins ties on one frame; but a leaf-ward frame beats any
	 * rule order. */
	rules *r = parse("yield ^sched_yield\nlaunch ^cuLaunchKernel\nany yield|Launch\nlaunch forward\n");
	intern *frames = intern_new();
	rules_cache *c = rules_cache_new(r, frames, 0);
	const char *const leafward[] = { "forward (m.py:1)", "cuLaunchKernel (libcuda.so)", "sched_yield (libc.so.6)", NULL };
	assert_string_equal(stack_name(r, c, frames, leafward), "yield");
	const char *const unmatched_leaf[] = { "forward (m.py:1)", "cuLaunchKernel (libcuda.so)", "0x1 (libcuda.so)", NULL };
	assert_string_equal(stack_name(r, c, frames, unmatched_leaf), "launch");
	/* "sched_yield" matches yield and any: yield is first in the file. */
	assert_string_equal(match_name(r, "sched_yield (libc.so.6)"), "yield");
	/* "cuLaunchKernel" matches launch and any: launch is first. */
	assert_string_equal(match_name(r, "cuLaunchKernel (libcuda.so)"), "launch");
	const char *const none[] = { "main (m.py:1)", "leaf (m.py:2)", NULL };
	assert_string_equal(stack_name(r, c, frames, none), "other");
	assert_int_equal(rules_stack(c, NULL, 0), rules_other(r)); /* an empty stack */
	rules_cache_free(c);
	intern_free(frames);
	rules_free(r);
}

static void test_files_in_order(void **state)
{
	(void)state;
	/* A second file's rules come after the first's: the first wins ties. */
	rules *r = rules_new();
	assert_int_equal(rules_add_text(r, "a", "first ^x\n", 9, errbuf, sizeof errbuf), 0);
	assert_int_equal(rules_add_text(r, "b", "second ^x\nsecond ^y\n", 20, errbuf, sizeof errbuf), 0);
	assert_string_equal(match_name(r, "x (f.py:1)"), "first");
	assert_string_equal(match_name(r, "y (f.py:1)"), "second");
	rules_free(r);
}

static void test_inclusive(void **state)
{
	(void)state;
	rules *r = parse("a ^x\nb ^y\nc x|z\nb ^w\n");
	intern *frames = intern_new();
	rules_cache *c = rules_cache_new(r, frames, 1);
	uint32_t ids[8], out[8];
	const char *const text[] = { "w", "x", "y", "x", "q", NULL };
	size_t n = stack_of(frames, text, ids);
	assert_int_equal(rules_stack(c, ids, n), 1); /* the leaf q matches nothing; x above it: a */
	size_t k = rules_stack_all(c, ids, n, out);
	/* Root first, each once: w -> b; x -> a, c; y -> b (again). */
	assert_int_equal(k, 3);
	assert_string_equal(rules_category_name(r, out[0], NULL), "b");
	assert_string_equal(rules_category_name(r, out[1], NULL), "a");
	assert_string_equal(rules_category_name(r, out[2], NULL), "c");
	const char *const plain[] = { "q", "r", NULL };
	n = stack_of(frames, plain, ids);
	k = rules_stack_all(c, ids, n, out);
	assert_int_equal(k, 1);
	assert_int_equal(out[0], rules_other(r));
	rules_cache_free(c);
	intern_free(frames);
	rules_free(r);
}

/* Fuzz finding (tests/fuzz/regress/fuzz_rules/inclusive-no-match): an inclusive cache that
 * has matched nothing yet has no category list; a stack must not index into it. */
static void test_inclusive_nothing_matched_yet(void **state)
{
	(void)state;
	rules *r = parse("launch\t^cu(da)?LaunchKernel \\(\n");
	intern *frames = intern_new();
	rules_cache *c = rules_cache_new(r, frames, 1);
	uint32_t ids[8], out[8];
	const char *const text[] = { "main (m.py:1)", "sleep", NULL };
	size_t n = stack_of(frames, text, ids);
	assert_int_equal(rules_stack_all(c, ids, n, out), 1);
	assert_int_equal(out[0], rules_other(r));
	const char *const hit[] = { "main (m.py:1)", "cuLaunchKernel (libcuda.so)", NULL };
	n = stack_of(frames, hit, ids);
	assert_int_equal(rules_stack_all(c, ids, n, out), 1);
	assert_string_equal(rules_category_name(r, out[0], NULL), "launch");
	rules_cache_free(c);
	intern_free(frames);
	rules_free(r);
}

static void test_cache_once_per_frame(void **state)
{
	(void)state;
	rules *r = parse("a ^x\n");
	intern *frames = intern_new();
	rules_cache *c = rules_cache_new(r, frames, 0);
	const char *const s1[] = { "m", "n", "x", NULL };
	const char *const s2[] = { "m", "n", "o", NULL };
	for (int i = 0; i < 100; i++) {
		assert_string_equal(stack_name(r, c, frames, s1), "a");
		assert_string_equal(stack_name(r, c, frames, s2), "other");
	}
	/* s1 stops at its leaf x; s2 needs o, n and m: four distinct frames in all. */
	assert_int_equal(rules_cache_matched(c), 4);
	rules_cache_free(c);
	intern_free(frames);
	rules_free(r);
}

/* The seed's stack: thread target-0 spinning in sched_yield inside libcuda, under
 * cuLaunchKernel, under Python forward(). */
static void test_seed_stack_is_launch(void **state)
{
	(void)state;
	rules *r = rules_new();
	rules_add_default(r);
	intern *frames = intern_new();
	rules_cache *c = rules_cache_new(r, frames, 0);
	const char *const seed[] = {
		"thread (27303): target-0", "_bootstrap (threading.py:1032)", "run (threading.py:1012)",
		"forward (dflash/target.py:88)", "cuLaunchKernel (libcuda.so.595.71.05)",
		"0x70e58b1d7ba7 (libcuda.so.595.71.05)", "0x70e58b00c5d9 (libcuda.so.595.71.05)",
		"0x70e58b00ba20 (libcuda.so.595.71.05)", "0x70e58b00b105 (libcuda.so.595.71.05)",
		"0x70e58bfead48 (libcuda.so.595.71.05)", "0x70e58bfcd59f (libcuda.so.595.71.05)",
		"0x70e58b2a926e (libcuda.so.595.71.05)", "0x70e58b07890f (libcuda.so.595.71.05)",
		"0x70e58bff6798 (libcuda.so.595.71.05)", "sched_yield (libc.so.6)", NULL,
	};
	assert_string_equal(stack_name(r, c, frames, seed), "launch");
	/* The same spin under a stream sync is sync, under take_gil is gil. */
	const char *const sync[] = { "forward (m.py:1)", "cuStreamSynchronize (libcuda.so.1)",
				     "0x70e58b1d7ba7 (libcuda.so.595.71.05)", "sched_yield (libc.so.6)", NULL };
	assert_string_equal(stack_name(r, c, frames, sync), "sync");
	const char *const gil[] = { "step (m.py:9)", "take_gil (python3.12)", "pthread_cond_timedwait (libc.so.6)", NULL };
	assert_string_equal(stack_name(r, c, frames, gil), "gil");
	/* A bare spin with no caller that says why stays other. */
	const char *const bare[] = { "0x1 (libc.so.6)", "sched_yield (libc.so.6)", NULL };
	assert_string_equal(stack_name(r, c, frames, bare), "other");
	rules_cache_free(c);
	intern_free(frames);
	rules_free(r);
}

/* Every default category, hit by a real frame (from the example dumps and seeds) or a
 * constructed one. */
static void test_default_categories(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{ "cuLaunchKernel (libcuda.so.595.71.05)", "launch" },
		{ "cudaLaunchKernel (libcudart.so.12)", "launch" },
		{ "cuLaunchKernelEx (libcuda.so.580.126.20)", "launch" },
		{ "cudaGraphLaunch (libcudart.so.12)", "launch" },
		{ "_launch (tmp/abc/__triton_launcher.so)", "launch" },
		{ "__call__ (triton/backends/nvidia/driver.py:529)", "launch" },
		{ "run (triton/runtime/jit.py:617)", "launch" },
		{ "run (torch/_inductor/runtime/triton_heuristics.py:1093)", "launch" },
		{ "cuStreamSynchronize (libcuda.so.595.71.05)", "sync" },
		{ "cudaDeviceSynchronize (libcudart.so.12)", "sync" },
		{ "cuEventSynchronize (libcuda.so.1)", "sync" },
		{ "cudaStreamQuery (libcudart.so.12)", "sync" },
		{ "synchronize (torch/cuda/__init__.py:985)", "sync" },
		{ "cudaMemcpyAsync (libcudart.so.12)", "memcpy" },
		{ "cuMemcpyDtoHAsync_v2 (libcuda.so.1)", "memcpy" },
		{ "at::native::copy_kernel_cuda (libtorch_cuda.so)", "memcpy" },
		{ "c10::cuda::CUDACachingAllocator::Native::DeviceCachingAllocator::malloc (libc10_cuda.so)", "alloc" },
		{ "cudaMalloc (libcudart.so.12)", "alloc" },
		{ "cuMemFree_v2 (libcuda.so.1)", "alloc" },
		{ "malloc (libc.so.6)", "alloc" },
		{ "_int_free (libc.so.6)", "alloc" },
		{ "operator new (libstdc++.so.6)", "alloc" },
		{ "free (vllm/v1/core/block_pool.py:300)", "(none)" },
		{ "at::native::_local_scalar_dense_cuda (libtorch_cuda.so)", "scalar-sync" },
		{ "torch::autograd::THPVariable_item (libtorch_python.so)", "scalar-sync" },
		{ "at::native::is_nonzero (libtorch_cpu.so)", "scalar-sync" },
		{ "create_block_mask (torch/nn/attention/flex_attention.py:850)", "mask" },
		{ "create_block_mask (dflash/masks.py:10)", "mask" },
		{ "flex_attention (torch/nn/attention/flex_attention.py:1300)", "mask" },
		{ "take_gil (python3.12)", "gil" },
		{ "PyEval_RestoreThread (libpython3.10.so.1.0)", "gil" },
		{ "ncclAllReduce (libnccl.so.2)", "nccl" },
		{ "0x7f00 (libnccl.so.2)", "nccl" },
		{ "c10d::ProcessGroupNCCL::ncclCommWatchdog (libtorch_cuda.so)", "nccl" },
		{ "all_reduce (torch/distributed/distributed_c10d.py:2501)", "nccl" },
		{ "get (queue.py:171)", "queue" },
		{ "wait (threading.py:355)", "queue" },
		{ "PyThread_acquire_lock_timed (python3.12)", "queue" },
		{ "recv (multiprocessing/connection.py:250)", "queue" },
		{ "acquire_read (vllm/distributed/device_communicators/shm_broadcast.py:674)", "queue" },
		{ "run (threading.py:1012)", "(none)" },
		{ "_bootstrap_inner (threading.py:1075)", "(none)" },
		{ "__next__ (torch/utils/data/dataloader.py:631)", "data" },
		{ "open (PIL/Image.py:3247)", "data" },
		{ "deserialize (torch/_dynamo/aot_compile.py:285)", "compile" },
		{ "_fn (torch/_dynamo/eval_frame.py:632)", "(none)" },
		{ "pretty_print (torch/_inductor/pattern_matcher.py:697)", "compile" },
		{ "__call__ (torch/_inductor/output_code.py:460)", "(none)" },
		{ "meta_tensor (torch/_subclasses/meta_utils.py:947)", "compile" },
		{ "wrap_int (torch/fx/experimental/sym_node.py:279)", "compile" },
		{ "triton_key (triton/runtime/cache.py:297)", "compile" },
		{ "torch::autograd::Engine::thread_main (libtorch_cpu.so)", "autograd" },
		{ "torch::autograd::generated::MmBackward0::apply (libtorch_cpu.so)", "autograd" },
		{ "torch::autograd::THPVariable_empty_strided (libtorch_python.so)", "(none)" },
		{ "backward (torch/_tensor.py:626)", "autograd" },
		{ "thread (27736): pt_autograd_0", "autograd" },
		{ "poll (libc.so.6)", "idle" },
		{ "epoll_wait (libc.so.6)", "idle" },
		{ "select (selectors.py:415)", "idle" },
		{ "zmq_poll (libzmq-7b073b3d.so.5.2.5)", "idle" },
		{ "sched_yield (libc.so.6)", "(none)" },
		{ "0x70e58b1d7ba7 (libcuda.so.595.71.05)", "(none)" },
		{ "pthread_cond_timedwait (libc.so.6)", "(none)" },
	};
	rules *r = rules_new();
	rules_add_default(r);
	size_t nc = rules_category_count(r);
	assert_int_equal(nc, 14);
	int *hit = calloc(nc, sizeof *hit);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		uint32_t c = rules_match(r, cases[i][0], strlen(cases[i][0]));
		const char *got = c == RULES_NONE ? "(none)" : rules_category_name(r, c, NULL);
		if (strcmp(got, cases[i][1]))
			fail_msg("%s: got %s, want %s", cases[i][0], got, cases[i][1]);
		if (c != RULES_NONE)
			hit[c] = 1;
	}
	for (size_t c = 1; c < nc; c++)
		if (!hit[c])
			fail_msg("default category %s has no test frame", rules_category_name(r, (uint32_t)c, NULL));
	free(hit);
	rules_free(r);
}

/* The compiled-in text is docs/rules/pytorch-cuda.rules byte for byte. */
static void test_default_is_the_doc(void **state)
{
	(void)state;
	char path[1024];
	snprintf(path, sizeof path, "%s/../docs/rules/pytorch-cuda.rules", getenv("SIFT_TESTDATA"));
	size_t len;
	char *text = in_slurp(path, &len);
	assert_non_null(text);
	assert_int_equal(strlen(rules_default_text()), len);
	assert_memory_equal(rules_default_text(), text, len);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_file),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_leaf_most_and_ties),
		cmocka_unit_test(test_files_in_order),
		cmocka_unit_test(test_inclusive),
		cmocka_unit_test(test_inclusive_nothing_matched_yet),
		cmocka_unit_test(test_cache_once_per_frame),
		cmocka_unit_test(test_seed_stack_is_launch),
		cmocka_unit_test(test_default_categories),
		cmocka_unit_test(test_default_is_the_doc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
