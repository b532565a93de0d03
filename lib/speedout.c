/* speedout: the document written as it goes: frames and names through jansson (exact
 * escaping), the samples and weights, which are most of it, printed straight to out. */
#include "speedout.h"
#include "frame.h"
#include "speedscope.h"
#include "xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DUMP_FLAGS = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(15) };

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

/* A real as jansson writes it (its dtostr at precision 15), without a value per number:
 * "%.15g", ".0" when neither '.' nor 'e' shows it is a real, the exponent's '+' and leading
 * zeros dropped. The C locale's '.' is the decimal point: sift never sets a locale. */
static void put_real(double v, FILE *out)
{
	char buf[48];
	int n = snprintf(buf, sizeof buf - 3, "%.15g", v);
	if (n < 0 || (size_t)n >= sizeof buf - 3)
		return;
	size_t len = (size_t)n;
	char *e = strchr(buf, 'e');
	if (!e && !strchr(buf, '.')) {
		memcpy(buf + len, ".0", 3);
		len += 2;
	}
	if (e) {
		char *start = e + 1, *end = start + 1;
		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start) {
			memmove(start, end, len - (size_t)(end - buf) + 1);
			len -= (size_t)(end - start);
		}
	}
	fwrite(buf, 1, len, out);
}

static void put_uint(uint64_t v, FILE *out)
{
	char buf[24], *p = buf + sizeof buf;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	fwrite(p, 1, (size_t)(buf + sizeof buf - p), out);
}

/* With rate > 0 the weights are seconds (count / rate), as py-spy writes them, so viewers
 * show time; else they are counts (a json_int_t, as the tree held them). */
static void put_weight(uint64_t count, double rate, FILE *out)
{
	if (rate > 0) {
		put_real((double)count / rate, out);
	} else if ((int64_t)count < 0) {
		fprintf(out, "%lld", (long long)count);
	} else {
		put_uint(count, out);
	}
}

static void put_json(json_t *v, FILE *out)
{
	json_dumpf(v, out, DUMP_FLAGS | JSON_ENCODE_ANY);
	json_decref(v);
}

/* The stacks of one profile: idx[0..n) into p's stacks (all of them when idx is NULL). */
struct pick {
	const uint32_t *idx;
	size_t n;
	uint64_t total;
};

static void put_profile(const prof *p, const char *name, const struct pick *k, double rate,
			FILE *out)
{
	fputs("{\"type\":\"sampled\",\"name\":", out);
	put_json(json_string(name), out);
	fputs(rate > 0 ? ",\"unit\":\"seconds\"" : ",\"unit\":\"none\"", out);
	fputs(",\"startValue\":0,\"endValue\":", out);
	if (k->n)
		put_weight(k->total, rate, out);
	else
		fputc('0', out);
	fputs(",\"samples\":[", out);
	for (size_t i = 0; i < k->n; i++) {
		size_t n;
		uint64_t count;
		const uint32_t *st = prof_stack(p, k->idx ? k->idx[i] : i, &n, &count);
		fputs(i ? ",[" : "[", out);
		for (size_t f = 0; f < n; f++) {
			if (f)
				fputc(',', out);
			put_uint(st[f], out);
		}
		fputc(']', out);
	}
	fputs("],\"weights\":[", out);
	for (size_t i = 0; i < k->n; i++) {
		size_t n;
		uint64_t count;
		prof_stack(p, k->idx ? k->idx[i] : i, &n, &count);
		if (i)
			fputc(',', out);
		put_weight(count, rate, out);
	}
	fputs("]}", out);
}

/* Each stack's profile: the name of its first thread pseudo-frame ("no thread" without one),
 * profiles numbered in order of first appearance; names are keys up to a NUL, as the
 * tree's object keys were. Returns the number of profiles; *of[i] is stack i's. */
static size_t thread_of_stacks(const prof *p, json_t *frames, intern *names, uint32_t **of,
			       uint64_t **totals)
{
	const intern *fr = prof_frames_const(p);
	size_t nfr = intern_count(fr), nst = prof_stack_count(p);
	uint32_t *name_of = xmalloc((nfr ? nfr : 1) * sizeof *name_of);  /* frame -> name id */
	intern *frame_names = intern_new();
	for (size_t i = 0; i < nfr; i++) {
		size_t len;
		const char *text = intern_str(fr, (uint32_t)i, &len);
		struct frame_parts fp;
		frame_split(text, len, &fp);
		name_of[i] = INTERN_NONE;
		if (fp.kind == FRAME_THREAD) {
			const char *name = json_string_value(json_object_get(json_array_get(frames, i), "name"));
			name_of[i] = intern_add(frame_names, name, strlen(name));
		}
	}
	uint32_t *profile_of = xmalloc((intern_count(frame_names) + 1) * sizeof *profile_of);
	for (size_t i = 0; i <= intern_count(frame_names); i++)
		profile_of[i] = INTERN_NONE;
	const uint32_t none = (uint32_t)intern_count(frame_names);  /* "no thread" */
	*of = xmalloc((nst ? nst : 1) * sizeof **of);
	size_t cap = 0;
	*totals = NULL;
	for (size_t i = 0; i < nst; i++) {
		size_t n;
		uint64_t count;
		const uint32_t *st = prof_stack(p, i, &n, &count);
		uint32_t t = none;
		for (size_t k = 0; k < n && t == none; k++)
			if (name_of[st[k]] != INTERN_NONE)
				t = name_of[st[k]];
		if (profile_of[t] == INTERN_NONE) {
			size_t len = t == none ? 9 : 0;
			const char *name = t == none ? "no thread" : intern_str(frame_names, t, &len);
			profile_of[t] = intern_add(names, name, len);
			if (profile_of[t] + 1 > cap) {
				size_t old = cap;
				*totals = xgrow(*totals, &cap, (size_t)profile_of[t] + 1, sizeof **totals);
				memset(*totals + old, 0, (cap - old) * sizeof **totals);
			}
		}
		(*of)[i] = profile_of[t];
		(*totals)[profile_of[t]] += count;
	}
	free(profile_of);
	free(name_of);
	intern_free(frame_names);
	return intern_count(names);
}

int speedout_write(const prof *p, double rate, FILE *out)
{
	const intern *fr = prof_frames_const(p);
	size_t nfr = intern_count(fr), nst = prof_stack_count(p);
	json_t *frames = json_array();
	for (size_t i = 0; i < nfr; i++) {
		size_t len;
		const char *text = intern_str(fr, (uint32_t)i, &len);
		json_array_append_new(frames, frame_object(text, len));
	}
	intern *names = intern_new();
	uint32_t *of;
	uint64_t *totals, all = 0;
	size_t nprof = thread_of_stacks(p, frames, names, &of, &totals);
	/* The stacks grouped by profile, in their order (a counting sort). */
	size_t *start = xcalloc(nprof + 1, sizeof *start);
	uint32_t *idx = xmalloc((nst ? nst : 1) * sizeof *idx);
	for (size_t i = 0; i < nst; i++)
		start[of[i] + 1]++;
	for (size_t t = 0; t < nprof; t++)
		start[t + 1] += start[t];
	size_t *at = xmalloc((nprof + 1) * sizeof *at);
	memcpy(at, start, (nprof + 1) * sizeof *at);
	for (size_t i = 0; i < nst; i++)
		idx[at[of[i]]++] = (uint32_t)i;
	free(at);
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":", out);
	put_json(frames, out);
	fputs("},\"profiles\":[", out);
	for (size_t t = 0; t < nprof; t++) {
		struct pick k = { idx + start[t], start[t + 1] - start[t], totals[t] };
		all += totals[t];
		put_profile(p, intern_str(names, (uint32_t)t, NULL), &k, rate, out);
		fputc(',', out);
	}
	struct pick every = { NULL, nst, all };
	put_profile(p, SPEEDSCOPE_ALL_THREADS, &every, rate, out);
	char exporter[64] = "sift";  /* the rate rides here: speedscope has no key for it */
	if (rate > 0)
		snprintf(exporter, sizeof exporter, "sift, %.15g samples/s", rate);
	fputs("],\"name\":\"sift profile\",\"activeProfileIndex\":0,\"exporter\":", out);
	put_json(json_string(exporter), out);
	fputs("}\n", out);
	free(start);
	free(idx);
	free(of);
	free(totals);
	intern_free(names);
	return ferror(out) ? -1 : 0;
}
