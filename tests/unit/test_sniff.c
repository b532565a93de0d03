/* test_sniff: which format a line proves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sniff.h"

static enum load_format f(const char *s) { return sniff_line(s, strlen(s)); }

static void test_lines(void **state)
{
	(void)state;
	assert_int_equal(f(""), LOAD_AUTO);
	assert_int_equal(f("   "), LOAD_AUTO);
	assert_int_equal(f("$ py-spy dump --pid 1234"), LOAD_AUTO);
	assert_int_equal(f("--- dump 1 @ 2026-05-08T22:26:06+00:00 ---"), LOAD_AUTO);
	assert_int_equal(f("[2024-05-01 12:00:00] INFO starting"), LOAD_AUTO);
	assert_int_equal(f("Process 3807299: VLLM::Worker_TP0"), LOAD_DUMP);
	assert_int_equal(f("\x1b[1mProcess \x1b[33m12\x1b[0m: x"), LOAD_DUMP);
	assert_int_equal(f("    Thread 12 (idle): \"MainThread\""), LOAD_DUMP);
	assert_int_equal(f("Python v3.12.13 (/usr/bin/python3.12)"), LOAD_DUMP);
	assert_int_equal(f("Parent Process 1: torchrun"), LOAD_DUMP);
	assert_int_equal(f("["), LOAD_JSON);
	assert_int_equal(f("[{\"pid\": 1,"), LOAD_JSON);
	assert_int_equal(f("  {"), LOAD_JSON);
	assert_int_equal(f("main (a.py:1);leaf (b.py:2) 7"), LOAD_RAW);
	assert_int_equal(f(" 4"), LOAD_RAW);
	assert_int_equal(f("thread (12): MainThread;main (a.py:1) 3"), LOAD_RAW);
	assert_int_equal(f("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":[]"),
			 LOAD_SPEEDSCOPE);
	assert_int_equal(f("{\"shared\":{\"frames\":[]},\"thread_id\":1}"), LOAD_SPEEDSCOPE);
	assert_int_equal(f("[{\"args\":{\"filename\":\"a.py\",\"line\":1},\"cat\":\"py-spy\",\"ph\":\"B\""),
			 LOAD_CHROME);
	assert_int_equal(f("{\"traceEvents\": ["), LOAD_CHROME);
	assert_int_equal(f("[{\"pid\":1,\"thread_id\":2,\"ph\":3}]"), LOAD_JSON);
	assert_int_equal(f("<?xml version=\"1.0\" standalone=\"no\"?>"), LOAD_SVG);
	assert_int_equal(f("<svg version=\"1.1\" width=\"1200\">"), LOAD_SVG);
	assert_int_equal(f("P6360;T6360;a.py:main:3 12"), LOAD_AUSTIN);
	assert_int_equal(f("P6360;T0:6361;a.py:main:3 12"), LOAD_AUSTIN);
	assert_int_equal(f("P6360;main (a.py:1) 12"), LOAD_RAW);
	assert_int_equal(f("# austin: 3.6.0"), LOAD_AUTO);
	assert_int_equal(sniff_json_kind("  \"$schema\": \"x\",", 16), LOAD_SPEEDSCOPE);
	assert_int_equal(sniff_json_kind("  {", 3), LOAD_AUTO);
}

/* Rank labels and timestamps before pasted dump lines: how much is cut, and the label. */
static size_t label(const char *s, const struct sniff_label *want, char *out)
{
	struct sniff_label l;
	size_t n = sniff_label(s, strlen(s), want, &l);
	out[0] = '\0';
	if (n && l.len) {
		memcpy(out, l.text, l.len);
		out[l.len] = '\0';
	}
	return n;
}

static void test_labels(void **state)
{
	(void)state;
	char got[64];
	assert_int_equal(label("3: Thread 12 (idle): \"MainThread\"", NULL, got), 3);
	assert_string_equal(got, "3");
	assert_int_equal(label(" 3:     wait (q.py:1)", NULL, got), 4);
	assert_string_equal(got, "3");
	assert_int_equal(label("[default3]:Process 1: python", NULL, got), 11);
	assert_string_equal(got, "default3");
	assert_int_equal(label("[rank3]: Process 1: python", NULL, got), 9);
	assert_int_equal(label("[pod/trainer-0/main] Thread 1 (idle)", NULL, got), 21);
	assert_string_equal(got, "pod/trainer-0/main");
	assert_int_equal(label("trainer-1  | Thread 1 (idle)", NULL, got), 13);
	assert_string_equal(got, "trainer-1");
	assert_int_equal(label("trainer-1  | 2026-05-08T22:26:06.123456789Z Thread 1 (idle)", NULL, got), 44);
	assert_int_equal(label("2024-05-01 12:00:00,123 Thread 1 (idle)", NULL, got), 24);
	assert_string_equal(got, "");
	assert_int_equal(label("[2024-05-01 12:00:00] 3: x", NULL, got), 25);
	assert_string_equal(got, "3");
	assert_int_equal(label("Thread 12 (idle): \"MainThread\"", NULL, got), 0);
	assert_int_equal(label("    forward (model.py:42)", NULL, got), 0);
	/* a file's style: torchrun's [default3]: has no space, so a frame keeps its indentation */
	struct sniff_label bare = { SNIFF_LABEL_BRACKET, 0, 0, NULL, 0 }, srun = { SNIFF_LABEL_SRUN, 0, 0, NULL, 0 };
	assert_int_equal(label("[default3]:    wait (q.py:1)", &bare, got), 11);
	assert_int_equal(label("3:", &srun, got), 2);
	assert_int_equal(label("trainer-1  | x", &srun, got), 0);
	assert_int_equal(f("3: Thread 12 (idle): \"MainThread\""), LOAD_DUMP);
	assert_int_equal(f("name_1  | Process 12: python x.py"), LOAD_DUMP);
	assert_int_equal(f("3: step 10 loss 2.1"), LOAD_AUTO);
}

/* A pretty-printed document waits for the key that tells its kind; held lines keep their
 * numbers and come out in order. */
/* A training log's line ending in a number is not a stack; frames, even C++ ones, are not
 * log lines. */
static void test_log_lines(void **state)
{
	(void)state;
	static const struct { const char *line; int log; } cases[] = {
		{ "INFO: eta: 11:21:51  iter: 1140  loss: 1.3548 (1.4514)  lr: 0.02 3273", 1 },
		{ "| epoch 001 | loss 9.68 | wps 4632 | num_updates 609044", 1 },
		{ "step=12 loss=3.2 1", 1 },
		{ "Epoch 1 | loss 3.2 | lr=0.1 12", 1 },
		{ "step (train.py:12) 10", 0 },                   /* one field-less frame */
		{ "loss: 3.2 12", 0 },                            /* one field only */
		{ "std::vector<int>::operator=(int const&) (libfoo.so) 3", 0 },  /* one '=' */
		{ "thread (1): MainThread;train_step (train.py:3) 7", 0 },         /* no log field */
		{ "a=1 b=2 3", 0 },                               /* fields, no log word */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(sniff_log_line(cases[i].line, strlen(cases[i].line)), cases[i].log);
}

static void test_pretty_json(void **state)
{
	(void)state;
	char path[] = "/tmp/sift-sniff-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char text[] = "{\n  \"exporter\": \"x\",\n  \"shared\": {\"frames\": []},\n  \"profiles\": []\n}\n";
	assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
	close(fd);
	char *paths[] = { path };
	in_reader *in = in_open(paths, 1);
	sniff *sn = sniff_new(in, LOAD_AUTO);
	struct in_line line;
	enum load_format fmt;
	unsigned long n = 0;
	while (sniff_next(sn, &line, &fmt)) {
		assert_int_equal(fmt, LOAD_SPEEDSCOPE);
		assert_int_equal(line.lineno, ++n);
	}
	assert_int_equal(n, 5);
	sniff_free(sn);
	in_close(in);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_pretty_json),
		cmocka_unit_test(test_log_lines),
		cmocka_unit_test(test_labels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
