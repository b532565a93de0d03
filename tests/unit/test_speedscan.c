/* test_speedscan: speedscope JSON scanned without a tree: frames, profiles, distinct stacks
 * with counts, and every document it must leave to the JSON library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "speedscan.h"

struct got { char text[2048]; size_t used; };

static void take(void *ctx, const uint32_t *idx, size_t n, uint64_t count)
{
	struct got *g = ctx;
	for (size_t i = 0; i < n; i++)
		g->used += (size_t)snprintf(g->text + g->used, sizeof g->text - g->used, "%s%u", i ? "," : "",
					    (unsigned)idx[i]);
	g->used += (size_t)snprintf(g->text + g->used, sizeof g->text - g->used, " %llu\n",
				    (unsigned long long)count);
}

/* How a test's documents are read: whole (NULL state), or streamed with a window of
 * window bytes, chunk bytes a read. */
struct mode { size_t window, chunk; };
struct src { const char *s; size_t len, at, chunk; };

static size_t src_read(void *ctx, char *buf, size_t cap)
{
	struct src *r = ctx;
	size_t n = r->len - r->at;
	if (n > r->chunk)
		n = r->chunk;
	if (n > cap)
		n = cap;
	memcpy(buf, r->s + r->at, n);
	r->at += n;
	return n;
}

static speedscan *scan_as(void **state, const char *doc, size_t len)
{
	const struct mode *m = *state;
	if (!m)
		return speedscan_new(doc, len);
	struct src r = { doc, len, 0, m->chunk };
	speedscan *sc = speedscan_stream(src_read, &r, m->window);
	if (sc)
		assert_int_equal(r.at, len);  /* read to its end */
	return sc;
}

#define scan(doc) scan_as(state, (doc), strlen(doc))

/* py-spy's order (profiles before shared), escapes, repeated stacks counted once each. */
static void test_pyspy_shape(void **state)
{
	const char *doc = "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"profiles\":["
		"{\"type\":\"sampled\",\"name\":\"Thread 7 \\\"Main\\\"\",\"unit\":\"seconds\",\"startValue\":0.0,"
		"\"endValue\":0.05,\"samples\":[[0,1],[0,1,2],[0,1],[],[ 0 , 1 ]],\"weights\":[0.01,0.01,0.01,0.01,0.01]},\n"
		" {\"type\":\"sampled\",\"name\":\"Thread 8 \\\"\\u00e9\\ud83d\\ude00\\\"\",\"samples\":[[2]]}],"
		"\"shared\":{\"frames\":[{\"name\":\"main\",\"file\":\"a.py\",\"line\":1,\"col\":null},"
		"{\"name\":\"f\\/g\\n\",\"file\":null,\"line\":2.0},{\"name\":\"h\",\"line\":3}]},"
		"\"activeProfileIndex\":null,\"exporter\":\"py-spy@0.4.0\",\"name\":\"py-spy profile\"}\n";
	speedscan *sc = scan(doc);
	assert_non_null(sc);
	assert_string_equal(speedscan_exporter(sc), "py-spy@0.4.0");
	assert_int_equal(speedscan_frame_count(sc), 3);
	const struct speedscan_frame *f = speedscan_frames(sc);
	assert_string_equal(f[0].name, "main");
	assert_string_equal(f[0].file, "a.py");
	assert_int_equal(f[0].line, 1);
	assert_string_equal(f[1].name, "f/g\n");
	assert_null(f[1].file);
	assert_int_equal(f[1].line, -1);  /* 2.0 is no integer */
	assert_null(f[2].file);
	assert_int_equal(f[2].line, 3);
	assert_int_equal(speedscan_profile_count(sc), 2);
	const struct speedscan_profile *p = speedscan_profile(sc, 0);
	assert_string_equal(p->type, "sampled");
	assert_string_equal(p->name, "Thread 7 \"Main\"");
	assert_string_equal(p->unit, "seconds");
	assert_string_equal(speedscan_profile(sc, 1)->name, "Thread 8 \"\xc3\xa9\xf0\x9f\x98\x80\"");
	assert_null(speedscan_profile(sc, 1)->unit);

	struct got g = { { 0 }, 0 };
	assert_int_equal(speedscan_stacks(sc, 0, 0, 1, take, &g), 0);
	/* "0,1" and " 0 , 1 " are different texts: given apart, their counts add up downstream */
	assert_string_equal(g.text, "0,1 2\n0,1,2 1\n 1\n0,1 1\n");
	g.used = 0;
	assert_int_equal(speedscan_stacks(sc, 1, 1, 100, take, &g), 0);
	assert_string_equal(g.text, "2 1\n");
	speedscan_free(sc);
}

/* Weights times scale, rounded with the fraction carried on; a count of 0 is not given. */
static void test_weights(void **state)
{
	const char *doc = "{\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]},\"profiles\":[{\"type\":\"sampled\","
		"\"samples\":[[0],[0],[1],[0,1]],\"weights\":[1.5,1.5,2e0,0.2]}]}";
	speedscan *sc = scan(doc);
	assert_non_null(sc);
	struct got g = { { 0 }, 0 };
	assert_int_equal(speedscan_stacks(sc, 0, 1, 1, take, &g), 0);
	assert_string_equal(g.text, "0 3\n1 2\n");  /* 1.5 -> 2 (carry -0.5), 1.0 -> 1; 0.2 -> 0 */
	g.used = 0;
	assert_int_equal(speedscan_stacks(sc, 0, 0, 1, take, &g), 0);  /* unweighted: 1 each */
	assert_string_equal(g.text, "0 2\n1 1\n0,1 1\n");
	speedscan_free(sc);
}

/* Weights as they come, before or after the samples: one kept while they are the same,
 * every one once they differ; a sample's weight in order, a missing or bad one refused. */
static void test_stream_weights(void **state)
{
	const char *doc = "{\"profiles\":[{\"weights\":[0.01,0.01,0.01],\"samples\":[[0],[0,1],[0]],"
		"\"type\":\"sampled\",\"unit\":\"seconds\"},"
		"{\"type\":\"sampled\",\"samples\":[[1],[1],[0]],\"weights\":[2,2,-0.0,\"x\"]},"
		"{\"type\":\"sampled\",\"samples\":[[1],[1]],\"weights\":[2,1e-1,7]},"
		"{\"type\":\"sampled\",\"samples\":[[1],[0]],\"weights\":[3,[4]]}],"
		"\"shared\":{\"frames\":[{\"name\":\"a\"},{\"name\":\"b\"}]}}";
	speedscan *sc = scan(doc);
	assert_non_null(sc);
	double w = 0;
	assert_int_equal(speedscan_weight(sc, 0, &w), 1);
	assert_true(w == 0.01);
	assert_int_equal(speedscan_weight(sc, 1, &w), 0);  /* -0.0 differs from 2 */
	assert_int_equal(speedscan_weight(sc, 2, &w), 0);
	struct got g = { { 0 }, 0 };
	assert_int_equal(speedscan_stacks(sc, 0, 1, 100, take, &g), 0);
	assert_string_equal(g.text, "0 2\n0,1 1\n");
	g.used = 0;
	assert_int_equal(speedscan_stacks(sc, 1, 1, 1, take, &g), 0);  /* the 4th weight is no sample's */
	assert_string_equal(g.text, "1 4\n");
	g.used = 0;
	assert_int_equal(speedscan_stacks(sc, 2, 1, 10, take, &g), 0);
	assert_string_equal(g.text, "1 21\n");
	assert_int_equal(speedscan_stacks(sc, 3, 1, 1, NULL, NULL), -1);  /* [4] is not a number */
	assert_int_equal(speedscan_samples(sc, 3, NULL, NULL), -1);
	assert_int_equal(speedscan_stacks(sc, 3, 0, 1, NULL, NULL), 0);   /* unweighted: not read */
	speedscan_free(sc);
}

/* Samples that name no frame, or weights that are short or not numbers: -1, nothing given. */
static void test_bad_samples(void **state)
{
	static const char *const docs[] = {
		"{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"samples\":[[0],[1]]}]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\"},{\"file\":\"x\"}]},\"profiles\":[{\"samples\":[[0],[1]]}]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"samples\":[[0],[0]],\"weights\":[1]}]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"samples\":[[0]],\"weights\":[null]}]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\"}]},\"profiles\":[{\"samples\":[[0]],\"weights\":[-3]}]}",
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		speedscan *sc = scan(docs[i]);
		assert_non_null(sc);
		struct got g = { { 0 }, 0 };
		assert_int_equal(speedscan_stacks(sc, 0, 1, 1, take, &g), -1);
		assert_int_equal(speedscan_stacks(sc, 0, 1, 1, NULL, NULL), -1);
		assert_int_equal(g.used, 0);
		speedscan_free(sc);
	}
}

/* Everything the scanner leaves to the JSON library, which accepts some and names the
 * fault of the others. */
static void test_left_to_the_tree(void **state)
{
	char deep[400] = "{\"shared\":{\"frames\":[]},\"profiles\":[],\"x\":";
	for (int i = 0; i < 70; i++)
		strcat(deep, "[");
	for (int i = 0; i < 70; i++)
		strcat(deep, "]");
	strcat(deep, "}");
	const char *const docs[] = {
		"",
		"[]",
		"{\"shared\":{\"frames\":[]}}",                                   /* no profiles */
		"{\"profiles\":[]}",                                              /* no shared */
		"{\"shared\":{\"frames\":[]},\"profiles\":[],}",                  /* trailing comma */
		"{\"shared\":{\"frames\":[]},\"profiles\":[]} x",                 /* trailing text */
		"{\"shared\":{\"frames\":[]},\"profiles\":[],\"profiles\":[]}",  /* a key twice */
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"evented\",\"events\":[]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"type\":\"sampled\"}]}",  /* no samples */
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[[01]]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[[-1]]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[[1.0]]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[[1,]]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[[1 2]]}]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[{\"samples\":[0]}]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\tb\"}]},\"profiles\":[]}",      /* control byte */
		"{\"shared\":{\"frames\":[{\"name\":\"\xff\"}]},\"profiles\":[]}",      /* not UTF-8 */
		"{\"shared\":{\"frames\":[{\"name\":\"\xed\xa0\x80\"}]},\"profiles\":[]}",  /* a surrogate */
		"{\"shared\":{\"frames\":[{\"name\":\"\\u0000\"}]},\"profiles\":[]}",
		"{\"shared\":{\"frames\":[{\"name\":\"\\ud800x\"}]},\"profiles\":[]}",
		"{\"shared\":{\"frames\":[{\"name\":\"\\q\"}]},\"profiles\":[]}",
		"{\"shared\":{\"frames\":[{\"name\":\"a\",\"name\":\"b\"}]},\"profiles\":[]}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[],\"x\":1e999}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[],\"x\":12345678901234567890}",
		"{\"shared\":{\"frames\":[]},\"profiles\":[],\"x\":tru}",
		deep,
	};
	for (size_t i = 0; i < sizeof docs / sizeof docs[0]; i++) {
		speedscan *sc = scan(docs[i]);
		if (sc)
			fprintf(stderr, "taken: %s\n", docs[i]);
		assert_null(sc);
	}
	/* Nesting within the bound and unknown keys are fine. */
	speedscan *sc = scan("{\"shared\":{\"x\":{\"y\":[1,{\"z\":null}]},\"frames\":[]},\"profiles\":[],"
			     "\"x\":[[[true,false,-0.5e-3]]]}");
	assert_non_null(sc);
	assert_int_equal(speedscan_profile_count(sc), 0);
	speedscan_free(sc);
}

/* Streamed, a document gives what it gives whole, however it is cut: a one-byte window
 * grows to each token, a one-byte read moves the window at every byte. */
static struct mode byte_reads = { 1, 1 }, small_reads = { 16, 7 }, big_window = { 0, 4096 };

#define EACH_MODE(t) cmocka_unit_test(t), cmocka_unit_test_prestate(t, &byte_reads), \
	cmocka_unit_test_prestate(t, &small_reads), cmocka_unit_test_prestate(t, &big_window)

int main(void)
{
	const struct CMUnitTest tests[] = {
		EACH_MODE(test_pyspy_shape),
		EACH_MODE(test_weights),
		EACH_MODE(test_bad_samples),
		EACH_MODE(test_left_to_the_tree),
		EACH_MODE(test_stream_weights),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
