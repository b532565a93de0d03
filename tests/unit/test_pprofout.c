/* test_pprofout: a profile as gzipped profile.proto, gunzipped and unpacked by protobuf-c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "intern.h"
#include "pprofout.h"
#include "prof.h"
#include "rules.h"

#include "profile.pb-c.h"

static void add(prof *p, const char *const *frames, size_t n, uint64_t count)
{
	uint32_t ids[8];
	for (size_t i = 0; i < n; i++)
		ids[i] = intern_add(prof_frames(p), frames[i], strlen(frames[i]));
	assert_int_equal(prof_add(p, ids, n, count), 0);
}

/* gunzip a whole buffer (the writer's gzip header and trailer included). */
static uint8_t *gunzip(const char *gz, size_t len, size_t *out_len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap);
	z.next_in = (Bytef *)(uintptr_t)gz;
	z.avail_in = (uInt)len;
	z.next_out = buf;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.avail_in, 0);
	*out_len = z.total_out;
	inflateEnd(&z);
	return buf;
}

static Perftools__Profiles__Profile *write_and_unpack_with(const prof *p, rules *r, double rate)
{
	char *gz = NULL;
	size_t gz_len = 0;
	FILE *out = open_memstream(&gz, &gz_len);
	assert_int_equal(pprofout_write(p, r, rate, out), 0);
	fclose(out);
	assert_true(gz_len > 18);
	assert_int_equal((unsigned char)gz[0], 0x1f);  /* gzip magic */
	assert_int_equal((unsigned char)gz[1], 0x8b);
	size_t len;
	uint8_t *raw = gunzip(gz, gz_len, &len);
	Perftools__Profiles__Profile *msg = perftools__profiles__profile__unpack(NULL, len, raw);
	assert_non_null(msg);
	free(raw);
	free(gz);
	return msg;
}

static Perftools__Profiles__Profile *write_and_unpack(const prof *p)
{
	return write_and_unpack_with(p, NULL, 100.0);
}

static void assert_ids(const uint64_t *ids, size_t n, const uint64_t *want, size_t want_n)
{
	assert_int_equal(n, want_n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ids[i], want[i]);
}

static void assert_label(const Perftools__Profiles__Label *l, int64_t key, int64_t str)
{
	assert_int_equal(l->key, key);
	assert_int_equal(l->str, str);
	assert_int_equal(l->num, 0);
}

static void test_samples_locations_labels(void **state)
{
	(void)state;
	prof *p = prof_new();
	const char *a[] = { "thread (1): Main", "main (a.py:1)", "f (a.py:7)" };
	const char *b[] = { "process 3:\"x\"", "thread (2)", "main (a.py:1)", "[cat]", "g (b.so)" };
	/* nested processes: the innermost is the sample's one process label */
	const char *c[] = { "process 1:\"p\"", "process 3:\"x\"", "<module> (a.py:1)" };
	add(p, a, 3, 4);
	add(p, b, 5, 1);
	add(p, a, 0, 2);
	add(p, c, 3, 5);
	Perftools__Profiles__Profile *m = write_and_unpack(p);

	static const char *const strings[] = {
		"", "samples", "count", "thread", "process", "cpu", "nanoseconds", "category",
		"thread (1): Main", "main", "a.py", "f",
		"process 3:\"x\"", "thread (2)", "[cat]", "g", "b.so",
		"process 1:\"p\"", "<module>", "python",
	};
	assert_int_equal(m->n_string_table, sizeof strings / sizeof strings[0]);
	for (size_t i = 0; i < m->n_string_table; i++)
		assert_string_equal(m->string_table[i], strings[i]);
	assert_int_equal(m->n_sample_type, 2);
	assert_int_equal(m->sample_type[0]->type, 1);
	assert_int_equal(m->sample_type[0]->unit, 2);
	assert_int_equal(m->sample_type[1]->type, 5);
	assert_int_equal(m->sample_type[1]->unit, 6);
	assert_non_null(m->period_type);
	assert_int_equal(m->period_type->type, 5);
	assert_int_equal(m->period_type->unit, 6);
	assert_int_equal(m->period, 10000000);

	/* Locations: main, f, [cat], g, <module>; each with the function of its own id, in
	 * the one mapping (python), with no system name for pprof to demangle. */
	static const int64_t names[] = { 9, 11, 14, 15, 18 }, files[] = { 10, 10, 0, 16, 10 },
			     lines[] = { 1, 7, 0, 0, 1 };
	assert_int_equal(m->n_location, 5);
	assert_int_equal(m->n_function, 5);
	assert_int_equal(m->n_mapping, 1);
	assert_int_equal(m->mapping[0]->id, 1);
	assert_int_equal(m->mapping[0]->filename, 19);
	assert_true(m->mapping[0]->has_functions && m->mapping[0]->has_filenames && m->mapping[0]->has_line_numbers);
	for (size_t i = 0; i < 5; i++) {
		const Perftools__Profiles__Location *loc = m->location[i];
		const Perftools__Profiles__Function *fn = m->function[i];
		assert_int_equal(loc->id, i + 1);
		assert_int_equal(loc->mapping_id, 1);
		assert_int_equal(loc->n_line, 1);
		assert_int_equal(loc->line[0]->function_id, i + 1);
		assert_int_equal(loc->line[0]->line, lines[i]);
		assert_int_equal(fn->id, i + 1);
		assert_int_equal(fn->name, names[i]);
		assert_int_equal(fn->system_name, 0);
		assert_int_equal(fn->filename, files[i]);
	}

	/* Samples in stack order, leaf first, the pseudo-frames as labels. */
	assert_int_equal(m->n_sample, 4);
	const Perftools__Profiles__Sample *s = m->sample[0];
	assert_ids(s->location_id, s->n_location_id, (const uint64_t[]){ 2, 1 }, 2);
	assert_int_equal(s->n_value, 2);
	assert_int_equal(s->value[0], 4);
	assert_int_equal(s->value[1], 40000000);
	assert_int_equal(s->n_label, 1);
	assert_label(s->label[0], 3, 8);
	s = m->sample[1];
	assert_ids(s->location_id, s->n_location_id, (const uint64_t[]){ 4, 3, 1 }, 3);
	assert_int_equal(s->value[0], 1);
	assert_int_equal(s->value[1], 10000000);
	assert_int_equal(s->n_label, 2);
	assert_label(s->label[0], 4, 12);
	assert_label(s->label[1], 3, 13);
	s = m->sample[2];
	assert_int_equal(s->n_location_id, 0);
	assert_int_equal(s->value[0], 2);
	assert_int_equal(s->value[1], 20000000);
	assert_int_equal(s->n_label, 0);
	s = m->sample[3];
	assert_ids(s->location_id, s->n_location_id, (const uint64_t[]){ 5 }, 1);
	assert_int_equal(s->value[0], 5);
	assert_int_equal(s->n_label, 1);
	assert_label(s->label[0], 4, 12);

	perftools__profiles__profile__free_unpacked(m, NULL);
	prof_free(p);
}

static void test_empty_profile(void **state)
{
	(void)state;
	prof *p = prof_new();
	Perftools__Profiles__Profile *m = write_and_unpack(p);
	assert_int_equal(m->n_sample, 0);
	assert_int_equal(m->n_location, 0);
	assert_int_equal(m->n_string_table, 9);
	assert_string_equal(m->string_table[7], "category");
	assert_string_equal(m->string_table[8], "python");
	perftools__profiles__profile__free_unpacked(m, NULL);
	prof_free(p);
}

static void test_write_error(void **state)
{
	(void)state;
	prof *p = prof_new();
	const char *a[] = { "main (a.py:1)" };
	add(p, a, 1, 1);
	FILE *full = fopen("/dev/full", "w");
	assert_non_null(full);
	assert_int_equal(pprofout_write(p, NULL, 100.0, full), -1);
	fclose(full);
	prof_free(p);
}

/* The category label: the leaf-most matching frame's category, "other" when none; the
 * category strings follow the frames' strings of the stack that first needs them. The
 * rate scales cpu/nanoseconds and the period. */
static void test_category_and_rate(void **state)
{
	(void)state;
	rules *r = rules_new();
	static const char text[] = "sync cudaStreamSynchronize\nlaunch cuLaunchKernel\n";
	char err[128];
	assert_int_equal(rules_add_text(r, "t.rules", text, sizeof text - 1, err, sizeof err), 0);
	prof *p = prof_new();
	const char *a[] = { "thread (1)", "cuLaunchKernel (libcuda.so)", "cudaStreamSynchronize (libcudart.so)" };
	const char *b[] = { "thread (1)", "cuLaunchKernel (libcuda.so)" };
	const char *c[] = { "main (a.py:1)" };
	add(p, a, 3, 3);
	add(p, b, 2, 1);
	add(p, c, 1, 7);
	Perftools__Profiles__Profile *m = write_and_unpack_with(p, r, 3.0);
	assert_int_equal(m->period, 333333333);
	static const char *const want_cat[] = { "sync", "launch", "other" };
	static const int64_t want_ns[] = { 1000000000, 333333333, 2333333333 };
	assert_int_equal(m->n_sample, 3);
	for (size_t i = 0; i < 3; i++) {
		const Perftools__Profiles__Sample *s = m->sample[i];
		assert_int_equal(s->value[1], want_ns[i]);
		const Perftools__Profiles__Label *l = s->label[s->n_label - 1];
		assert_int_equal(l->key, 7);
		assert_string_equal(m->string_table[l->str], want_cat[i]);
	}
	assert_int_equal(m->sample[0]->n_label, 2);
	assert_int_equal(m->sample[2]->n_label, 1);
	perftools__profiles__profile__free_unpacked(m, NULL);
	prof_free(p);
	rules_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_locations_labels),
		cmocka_unit_test(test_empty_profile),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_category_and_rate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
