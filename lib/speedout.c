/* speedout: the document built as a jansson tree, then written compact in one call. */
#include "speedout.h"
#include "frame.h"
#include "speedscope.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A JSON string of the text; bytes that are not UTF-8 become '?' (JSON holds only text). */
static json_t *jstr(const char *text, size_t len)
{
	json_t *s = json_stringn(text, len);
	if (s)
		return s;
	char *copy = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		copy[i] = (unsigned char)text[i] >= 0x80 || text[i] == '\0' ? '?' : text[i];
	s = json_stringn(copy, len);
	free(copy);
	return s;
}

/* A frame object whose name, file and line read back (docread's NAME (FILE:LINE) rule) as
 * exactly the frame's text; anything else is a bare name. */
static json_t *frame_object(const char *text, size_t len)
{
	struct frame_parts fp;
	frame_split(text, len, &fp);
	if (fp.kind == FRAME_CODE && fp.file_len && fp.name_len) {
		char line[24] = "";
		if (fp.line_len && fp.line_len < sizeof line && fp.line[0] != '0') {
			memcpy(line, fp.line, fp.line_len);
			line[fp.line_len] = '\0';
		}
		size_t want = fp.name_len + 2 + fp.file_len + (line[0] ? 1 + strlen(line) : 0) + 1;
		if (want == len && memcmp(text + fp.name_len, " (", 2) == 0 &&
		    text[fp.name_len + 2 + fp.file_len + (line[0] ? 1 + strlen(line) : 0)] == ')' &&
		    memchr(fp.file, ')', fp.file_len) == NULL) {
			json_t *o = json_object();
			json_object_set_new(o, "name", jstr(fp.name, fp.name_len));
			json_object_set_new(o, "file", jstr(fp.file, fp.file_len));
			if (line[0])
				json_object_set_new(o, "line", json_integer(strtoll(line, NULL, 10)));
			return o;
		}
	}
	json_t *o = json_object();
	json_object_set_new(o, "name", jstr(text, len));
	return o;
}

/* With rate > 0 the weights are seconds (count / rate), as py-spy writes them, so viewers
 * show time; else they are counts. */
static json_t *profile(const char *name, double rate)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("sampled"));
	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "unit", json_string(rate > 0 ? "seconds" : "none"));
	json_object_set_new(o, "startValue", json_integer(0));
	json_object_set_new(o, "endValue", json_integer(0));
	json_object_set_new(o, "samples", json_array());
	json_object_set_new(o, "weights", json_array());
	return o;
}

static json_t *weight(uint64_t count, double rate)
{
	return rate > 0 ? json_real((double)count / rate) : json_integer((json_int_t)count);
}

/* total: the profile's samples so far, kept apart as its endValue may be seconds. */
static void add_sample(json_t *prof_obj, const uint32_t *frames, size_t n, uint64_t count,
		       json_t *total, double rate)
{
	json_t *stack = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(stack, json_integer(frames[i]));
	json_array_append_new(json_object_get(prof_obj, "samples"), stack);
	json_array_append_new(json_object_get(prof_obj, "weights"), weight(count, rate));
	uint64_t sum = (uint64_t)json_integer_value(total) + count;
	json_integer_set(total, (json_int_t)sum);
	json_object_set_new(prof_obj, "endValue", weight(sum, rate));
}

int speedout_write(const prof *p, double rate, FILE *out)
{
	const intern *fr = prof_frames_const(p);
	size_t nfr = intern_count(fr);
	json_t *frames = json_array();
	for (size_t i = 0; i < nfr; i++) {
		size_t len;
		const char *text = intern_str(fr, (uint32_t)i, &len);
		json_array_append_new(frames, frame_object(text, len));
	}
	/* One profile per thread pseudo-frame, in order of first appearance. */
	json_t *profiles = json_array();
	json_t *by_thread = json_object();
	json_t *all = profile(SPEEDSCOPE_ALL_THREADS, rate);
	json_t *totals = json_object(), *all_total = json_integer(0);  /* samples per profile */
	for (size_t i = 0; i < prof_stack_count(p); i++) {
		size_t n;
		uint64_t count;
		const uint32_t *st = prof_stack(p, i, &n, &count);
		const char *thread = "no thread";
		for (size_t k = 0; k < n; k++) {
			size_t len;
			const char *text = intern_str(fr, st[k], &len);
			struct frame_parts fp;
			frame_split(text, len, &fp);
			if (fp.kind == FRAME_THREAD) {
				thread = json_string_value(json_object_get(json_array_get(frames, st[k]), "name"));
				break;
			}
		}
		json_t *tp = json_object_get(by_thread, thread);
		if (!tp) {
			tp = profile(thread, rate);
			json_object_set_new(by_thread, thread, tp);
			json_object_set_new(totals, thread, json_integer(0));
			json_array_append(profiles, tp);
		}
		add_sample(tp, st, n, count, json_object_get(totals, thread), rate);
		add_sample(all, st, n, count, all_total, rate);
	}
	json_decref(totals);
	json_decref(all_total);
	json_array_append_new(profiles, all);
	json_t *shared = json_object();
	json_object_set_new(shared, "frames", frames);
	json_t *doc = json_object();
	json_object_set_new(doc, "$schema", json_string("https://www.speedscope.app/file-format-schema.json"));
	json_object_set_new(doc, "shared", shared);
	json_object_set_new(doc, "profiles", profiles);
	json_object_set_new(doc, "name", json_string("sift profile"));
	json_object_set_new(doc, "activeProfileIndex", json_integer(0));
	char exporter[64] = "sift";  /* the rate rides here: speedscope has no key for it */
	if (rate > 0)
		snprintf(exporter, sizeof exporter, "sift, %.15g samples/s", rate);
	json_object_set_new(doc, "exporter", json_string(exporter));
	int rc = json_dumpf(doc, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
			    JSON_REAL_PRECISION(15));
	if (rc == 0 && fputc('\n', out) == EOF)
		rc = -1;
	json_decref(by_thread);
	json_decref(doc);
	return rc == 0 ? 0 : -1;
}
