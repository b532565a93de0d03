/* test_ranks: processes named by rank, grouped by their main thread's normalized stack; the
 * table, the verdict (all agree, odd one out, a split), kinds, fragments, over time, the tree
 * and folded stacks, each asserted as exact text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <stdio.h>

#include "lines.h"

#include "ranks.h"

struct fixture {
	struct ranks_opts opts;
	struct err_lines errs;
	ranks *r;
	dump_parser *d;
};

static void take(void *ctx, struct in_line *line) { dump_line(ctx, line); }

/* Dump text (one file) into a fresh ranks, finished. */
static void run(struct fixture *f, const char *file, const char *text)
{
	err_lines_init(&f->errs);
	f->errs.limit = 0;
	f->r = ranks_new(&f->opts, &f->errs);
	f->d = dump_new(&f->errs, ranks_thread, f->r);
	feed_lines(text, file, take, f->d);
	dump_finish(f->d);
	ranks_finish(f->r);
}

static void done(struct fixture *f)
{
	dump_free(f->d);
	ranks_free(f->r);
	rx_free(f->opts.thread);
	rx_free(f->opts.rank_from);
}

/* What fn writes, as a string to free. */
static char *written(const ranks *r, int (*fn)(const ranks *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	assert_int_equal(fn(r, out), 0);
	fclose(out);
	return buf;
}

static int write_tsv(const ranks *r, FILE *out)
{
	table *t = ranks_table(r);
	int rc = table_write(t, out, TABLE_TSV, 0);
	table_free(t);
	return rc;
}

static void assert_output(const ranks *r, int (*fn)(const ranks *, FILE *), const char *want)
{
	char *got = written(r, fn);
	assert_string_equal(got, want);
	free(got);
}

/* One process block: pid, command line, status, frames innermost first ("|"-separated). */
static void proc(char *buf, size_t cap, unsigned pid, const char *cmd, const char *status, const char *frames)
{
	size_t used = strlen(buf);
	used += (size_t)snprintf(buf + used, cap - used, "Process %u: %s\nPython v3.12.3 (/usr/bin/python3)\n\n"
				 "Thread %u (%s): \"MainThread\"\n", pid, cmd, pid, status);
	for (const char *p = frames; *p;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);
		used += (size_t)snprintf(buf + used, cap - used, "    %.*s\n", (int)n, p);
		p += n + (bar != NULL);
	}
	snprintf(buf + used, cap - used, "Thread %u (idle): \"Thread-1\"\n    wait (threading.py:359)\n\n", pid + 1000);
}

static const char wait_frames[] = "synchronize (torch/cuda/streams.py:227)|process_batch_result (scheduler.py:1634)|"
				  "event_loop_overlap_disagg_decode (decode.py:621)|run_scheduler_process (scheduler.py:2523)";
static const char odd_frames[] = "recv_pyobj (zmq/sugar/socket.py:989)|event_loop_overlap_disagg_decode (decode.py:621)|"
				 "run_scheduler_process (scheduler.py:2523)";

/* The example: 8 schedulers, rank 5 in recv_pyobj, 7 in synchronize; a launcher and
 * a detokenizer beside them are other kinds, not outliers. */
static void test_odd_one_out(void **state)
{
	(void)state;
	static char text[1 << 14];
	text[0] = '\0';
	proc(text, sizeof text, 1, "python3 -m sglang.launch_server --tp 8 --port 30000", "idle",
	     "run (asyncio/runners.py:118)|<module> (sglang/launch_server.py:14)");
	proc(text, sizeof text, 166, "sglang::detokenizer", "idle", "recv_pyobj (zmq/sugar/socket.py:989)");
	for (unsigned i = 0; i < 8; i++) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "sglang::scheduler_DP%u_TP%u", i, i);
		proc(text, sizeof text, 575 + i, cmd, i == 5 ? "active+gil" : "active", i == 5 ? odd_frames : wait_frames);
	}
	struct fixture f = { 0 };
	run(&f, "hang.txt", text);
	assert_int_equal(ranks_processes(f.r), 10);
	assert_int_equal(ranks_groups(f.r), 4);
	assert_int_equal(ranks_over_time(f.r), 0);
	assert_output(f.r, write_tsv,
		      "group\tprocesses\tpids\tranks\tfiles\tstate\tleaf\tdiverges_at\n"
		      "1\t7\t575-579,581-582\t0-4,6-7\thang.txt\tactive\tsynchronize (torch/cuda/streams.py:227)\t\n"
		      "2\t1\t580\t5\thang.txt\tgil\trecv_pyobj (zmq/sugar/socket.py:989)\t"
		      "event_loop_overlap_disagg_decode (decode.py:621) -> recv_pyobj (zmq/sugar/socket.py:989)\n"
		      "sglang.launch_server\t1\t1\t\thang.txt\tidle\trun (asyncio/runners.py:118)\t\n"
		      "sglang::detokenizer\t1\t166\t\thang.txt\tidle\trecv_pyobj (zmq/sugar/socket.py:989)\t\n");
	assert_output(f.r, ranks_write_verdict,
		      "verdict: 1 of 8 ranks differs: rank 5 (pid 580) in recv_pyobj (zmq/sugar/socket.py:989) under "
		      "event_loop_overlap_disagg_decode; 7 wait in synchronize (torch/cuda/streams.py:227)\n"
		      "another kind, not compared: sglang.launch_server pid 1, idle in run (asyncio/runners.py:118)\n"
		      "another kind, not compared: sglang::detokenizer pid 166, idle in recv_pyobj (zmq/sugar/socket.py:989)\n");
	done(&f);
}

/* Two large groups in different collectives: a split, no culprit; addresses differ per
 * process (ASLR) but are collapsed; TIDs never count. */
static void test_split_and_addresses(void **state)
{
	(void)state;
	static char text[1 << 14];
	text[0] = '\0';
	for (unsigned i = 0; i < 8; i++) {
		char cmd[64], frames[512];
		snprintf(cmd, sizeof cmd, "python -u train.py --local_rank=%u", i);
		snprintf(frames, sizeof frames, "0x7f%04x0000 (libcuda.so.1)|0x7f%04x1111 (libcuda.so.1)|%s|step (train.py:9)",
			 i, i, i < 5 ? "reduce_scatter (c10d.py:30)" : "all_reduce (c10d.py:20)");
		proc(text, sizeof text, 100 + i, cmd, "active", frames);
	}
	struct fixture f = { 0 };
	run(&f, "-", text);
	assert_int_equal(ranks_groups(f.r), 2);
	assert_output(f.r, ranks_write_verdict,
		      "verdict: no odd one out, the ranks split: 5 ranks (0-4) in reduce_scatter (c10d.py:30), "
		      "3 ranks (5-7) in all_reduce (c10d.py:20), parting under step\n");
	assert_output(f.r, ranks_write_folded,
		      "[ranks 0-4];step (train.py:9);reduce_scatter (c10d.py:30);[libcuda.so.1] 5\n"
		      "[ranks 5-7];step (train.py:9);all_reduce (c10d.py:20);[libcuda.so.1] 3\n");
	assert_output(f.r, ranks_write_tree,
		      "[0-7] step (train.py:9)\n"
		      "+-[0-4] reduce_scatter (c10d.py:30)\n"
		      "| [0-4] [libcuda.so.1]\n"
		      "+-[5-7] all_reduce (c10d.py:20)\n"
		      "  [5-7] [libcuda.so.1]\n");
	done(&f);
}

/* All agree; vLLM titles name ranks; line numbers part two groups unless --no-lines. */
static void test_agree_and_lines(void **state)
{
	(void)state;
	static char text[1 << 12];
	text[0] = '\0';
	proc(text, sizeof text, 10, "VLLM::Worker_TP0", "idle", "dequeue (shm_broadcast.py:779)|busy (executor.py:964)");
	proc(text, sizeof text, 11, "VLLM::Worker_TP1", "idle", "dequeue (shm_broadcast.py:780)|busy (executor.py:964)");
	struct fixture f = { 0 };
	run(&f, "w.txt", text);
	assert_int_equal(ranks_groups(f.r), 2);
	done(&f);
	struct fixture g = { 0 };
	g.opts.no_lines = 1;
	run(&g, "w.txt", text);
	assert_int_equal(ranks_groups(g.r), 1);
	assert_output(g.r, ranks_write_verdict,
		      "verdict: all 2 ranks agree (VLLM::Worker): idle in dequeue (shm_broadcast.py)\n");
	done(&g);
}

/* Names: a title's TP, --node-rank, a file name (one process in the file), the pid; TP
 * numbers two data-parallel replicas share are shown as names. */
static void test_identity(void **state)
{
	(void)state;
	static char text[1 << 12];
	text[0] = '\0';
	proc(text, sizeof text, 20, "VLLM::Worker_DP0_TP0", "idle", "a (a.py:1)");
	proc(text, sizeof text, 21, "VLLM::Worker_DP1_TP0", "idle", "a (a.py:1)");
	proc(text, sizeof text, 22, "sglang::scheduler_PP1_TP3_EP3", "idle", "a (a.py:1)");
	struct fixture f = { 0 };
	run(&f, "dump-tp3.txt", text);
	assert_output(f.r, write_tsv,
		      "group\tprocesses\tpids\tranks\tfiles\tstate\tleaf\tdiverges_at\n"
		      "1\t2\t20-21\tDP0_TP0,DP1_TP0\tdump-tp3.txt\tidle\ta (a.py:1)\t\n"
		      "sglang::scheduler\t1\t22\tPP1_TP3\tdump-tp3.txt\tidle\ta (a.py:1)\t\n");
	done(&f);

	struct fixture g = { 0 };
	text[0] = '\0';
	proc(text, sizeof text, 30, "python train.py", "idle", "a (a.py:1)");
	run(&g, "logs/rank3.txt", text);
	assert_output(g.r, ranks_write_verdict, "verdict: 1 process, nothing to compare: rank 3 (pid 30) in a (a.py:1)\n");
	done(&g);

	struct fixture h = { 0 };
	char err[128];
	h.opts.rank_from = rx_compile("node-(\\d+)", 10, err, sizeof err);
	run(&h, "logs/node-7.txt", text);
	assert_output(h.r, ranks_write_verdict, "verdict: 1 process, nothing to compare: rank 7 (pid 30) in a (a.py:1)\n");
	done(&h);

	struct fixture k = { 0 };
	run(&k, "out.txt", text);
	assert_output(k.r, ranks_write_verdict, "verdict: 1 process, nothing to compare: pid 30 in a (a.py:1)\n");
	done(&k);
}

/* Command lines alike but for their digits are one kind, however many digits. */
static void test_kinds(void **state)
{
	(void)state;
	static char text[1 << 12];
	text[0] = '\0';
	proc(text, sizeof text, 9, "python t.py --local_rank=9 --port 29500", "idle", "a (a.py:1)");
	proc(text, sizeof text, 10, "python t.py --local_rank=10 --port 29501", "idle", "a (a.py:1)");
	proc(text, sizeof text, 11, "python other.py --local_rank=11", "idle", "a (a.py:1)");
	struct fixture f = { 0 };
	run(&f, "k.txt", text);
	assert_output(f.r, ranks_write_verdict,
		      "verdict: all 2 ranks agree (t.py): idle in a (a.py:1)\n"
		      "another kind, not compared: other.py rank 11 (pid 11), idle in a (a.py:1)\n");
	done(&f);
}

/* A process whose main thread was not pasted is its own group; --thread groups by another
 * thread; --all-threads by every thread. */
static void test_fragment_and_threads(void **state)
{
	(void)state;
	const char text[] = "Process 1: python a.py\n\nThread 1 (idle): \"MainThread\"\n    m (a.py:1)\n"
			    "Thread 5 (idle): \"Thread-1\"\n    w (t.py:2)\n\n"
			    "Process 2: python a.py\n\nThread 2 (idle): \"MainThread\"\n    m (a.py:1)\n"
			    "Thread 6 (idle): \"Thread-1\"\n    w (t.py:3)\n\n"
			    "Process 3: python a.py\n\nThread 7 (active): \"Thread-1\"\n    w (t.py:2)\n";
	struct fixture f = { 0 };
	run(&f, "p.txt", text);
	assert_output(f.r, write_tsv,
		      "group\tprocesses\tpids\tranks\tfiles\tstate\tleaf\tdiverges_at\n"
		      "1\t2\t1-2\t\tp.txt\tidle\tm (a.py:1)\t\n"
		      "fragment\t1\t3\t\tp.txt\t\t\t\n");
	assert_output(f.r, ranks_write_verdict,
		      "verdict: all 2 processes agree (a.py): idle in m (a.py:1)\n"
		      "fragment, left out: pid 3 (p.txt) has no MainThread in the paste\n");
	done(&f);

	struct fixture g = { 0 };
	char err[128];
	g.opts.thread = rx_compile("Thread-1", 8, err, sizeof err);
	run(&g, "p.txt", text);
	assert_output(g.r, ranks_write_verdict,
		      "verdict: 1 of 3 processes differs: pid 2 in w (t.py:3); 2 wait in w (t.py:2)\n");
	done(&g);

	struct fixture h = { 0 };
	h.opts.all_threads = 1;
	run(&h, "p.txt", text);
	assert_int_equal(ranks_groups(h.r), 3);
	assert_output(h.r, ranks_write_folded,
		      "[ranks pid 1];thread (0): MainThread;m (a.py:1) 1\n"
		      "[ranks pid 1];thread (0): Thread-1;w (t.py:2) 1\n"
		      "[ranks pid 2];thread (0): MainThread;m (a.py:1) 1\n"
		      "[ranks pid 2];thread (0): Thread-1;w (t.py:3) 1\n"
		      "[ranks pid 3 (fragment)];thread (0): Thread-1;w (t.py:2) 1\n");
	done(&h);
}

/* Snapshots over time: the last one is grouped; who stayed and who moved. */
static void test_over_time(void **state)
{
	(void)state;
	static char text[1 << 12];
	text[0] = '\0';
	for (int round = 0; round < 2; round++) {
		proc(text, sizeof text, 40, "VLLM::Worker_TP0", "active", "all_reduce (c.py:1)|run (w.py:1)");
		proc(text, sizeof text, 41, "VLLM::Worker_TP1", "active", round ? "forward (m.py:2)|run (w.py:1)" : "forward (m.py:1)|run (w.py:1)");
	}
	struct fixture f = { 0 };
	run(&f, "t.txt", text);
	assert_int_equal(ranks_over_time(f.r), 1);
	assert_output(f.r, write_tsv,
		      "group\tprocesses\tpids\tranks\tfiles\tstate\tleaf\tdiverges_at\tsnapshots\tmoved\n"
		      "1\t1\t40\t0\tt.txt\tactive\tall_reduce (c.py:1)\t\t2\tstayed\n"
		      "2\t1\t41\t1\tt.txt\tactive\tforward (m.py:2)\trun (w.py:1) -> forward (m.py:2)\t2\tmoved\n");
	assert_output(f.r, ranks_write_verdict,
		      "verdict: no odd one out, the ranks split: 1 rank (0) in all_reduce (c.py:1), "
		      "1 rank (1) in forward (m.py:2), parting under run\n"
		      "over time: 1 of 2 processes seen in several snapshots stayed (the same stack in each)\n"
		      "stayed: rank 0 (pid 40)\n"
		      "moved: rank 1 (pid 41), its stack changed 1 time in 2 snapshots\n");
	done(&f);
}

/* A rank label from a paste (srun -l) names a process that has no process line. */
static void test_label(void **state)
{
	(void)state;
	struct fixture f = { 0 };
	err_lines_init(&f.errs);
	f.r = ranks_new(&f.opts, &f.errs);
	struct dump_text frames[] = { { "wait (q.py:1)", 13 } };
	for (int i = 0; i < 2; i++) {
		struct dump_thread t;
		memset(&t, 0, sizeof t);
		t.tid = (struct dump_text){ i ? "9" : "8", 1 };
		t.name = (struct dump_text){ "MainThread", 10 };
		t.has_name = 1;
		t.thread_frame = (struct dump_text){ "thread (8): MainThread", 22 };
		t.frames = frames;
		t.nframes = 1;
		t.snapshot = (uint64_t)i + 1;
		t.file = "srun.log";
		t.label = (struct dump_text){ i ? "3" : "12", i ? 1u : 2u };
		ranks_thread(f.r, &t);
	}
	ranks_finish(f.r);
	assert_output(f.r, ranks_write_verdict, "verdict: all 2 ranks agree: idle in wait (q.py:1)\n");
	assert_output(f.r, ranks_write_tree, "[3,12] wait (q.py:1)\n");
	ranks_free(f.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_odd_one_out),
		cmocka_unit_test(test_split_and_addresses),
		cmocka_unit_test(test_agree_and_lines),
		cmocka_unit_test(test_identity),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_fragment_and_threads),
		cmocka_unit_test(test_over_time),
		cmocka_unit_test(test_label),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
