/* dumpjson: collect one top-level JSON value at a time (bracket depth outside strings), then
 * let jansson parse it: memory stays one snapshot. */
#include "dumpjson.h"
#include "xalloc.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dumpjson {
	struct err_lines *errs;
	dump_fn *fn;
	void *ctx;
	struct dump_stats stats;
	char *text;                 /* the value being collected */
	size_t used, cap;
	int depth, in_string, escape;
	const char *file;           /* where the value began */
	unsigned long lineno;
	const char *last_file;
	char *buf;                  /* one thread's strings */
	size_t bused, bcap;
	size_t *offs;               /* offset, length pairs into buf */
	size_t noffs, offs_cap;
	struct dump_text *frames;
	size_t frames_cap;
};

dumpjson *dumpjson_new(struct err_lines *errs, dump_fn *fn, void *ctx)
{
	dumpjson *j = xcalloc(1, sizeof *j);
	j->errs = errs;
	j->fn = fn;
	j->ctx = ctx;
	return j;
}

void dumpjson_free(dumpjson *j)
{
	if (!j)
		return;
	free(j->text);
	free(j->buf);
	free(j->offs);
	free(j->frames);
	free(j);
}

const struct dump_stats *dumpjson_get_stats(const dumpjson *j) { return &j->stats; }

/* Append text to the thread buffer as one string; returns its index in offs. */
static size_t put(dumpjson *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t put(dumpjson *j, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	j->buf = xgrow(j->buf, &j->bcap, j->bused + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(j->buf + j->bused, (size_t)n + 1, fmt, ap);
	va_end(ap);
	j->offs = xgrow(j->offs, &j->offs_cap, 2 * j->noffs + 2, sizeof *j->offs);
	j->offs[2 * j->noffs] = j->bused;
	j->offs[2 * j->noffs + 1] = (size_t)n;
	j->bused += (size_t)n + 1; /* each string keeps its NUL */
	return j->noffs++;
}

static struct dump_text text_at(const dumpjson *j, size_t idx)
{
	return (struct dump_text){ j->buf + j->offs[2 * idx], j->offs[2 * idx + 1] };
}

static const char *str_or(json_t *obj, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(obj, key));
	return s ? s : dflt;
}

static void one_thread(dumpjson *j, json_t *th)
{
	if (!json_is_object(th)) {
		err_bad_line(j->errs, j->file, j->lineno, "JSON thread is not an object");
		return;
	}
	j->bused = j->noffs = 0;
	json_t *os = json_object_get(th, "os_thread_id");
	json_t *pyid = json_object_get(th, "thread_id");
	size_t tid;
	if (json_is_integer(os))
		tid = put(j, "%" PRIu64, (uint64_t)json_integer_value(os));
	else if (json_is_integer(pyid))
		tid = put(j, "0x%" PRIx64, (uint64_t)json_integer_value(pyid));
	else {
		err_bad_line(j->errs, j->file, j->lineno, "JSON thread without thread_id");
		return;
	}
	char tid_text[24]; /* a copy: put() may move buf */
	snprintf(tid_text, sizeof tid_text, "%s", j->buf + j->offs[2 * tid]);
	const char *name = json_string_value(json_object_get(th, "thread_name"));
	size_t name_idx = put(j, "%s", name ? name : "");
	size_t tframe = name ? put(j, "thread (%s): %s", tid_text, name) : put(j, "thread (%s)", tid_text);

	/* Process levels: process_info and its parents, else the bare pid. */
	size_t proc_idx[DUMP_MAX_PROCS][3];
	size_t nprocs = 0;
	json_t *pi = json_object_get(th, "process_info");
	json_t *chain[DUMP_MAX_PROCS];
	size_t depth = 0;
	for (json_t *p = pi; json_is_object(p) && depth < DUMP_MAX_PROCS; p = json_object_get(p, "parent"))
		chain[depth++] = p;
	for (size_t i = depth; i-- > 0;) {
		json_t *pid = json_object_get(chain[i], "pid");
		const char *cmd = str_or(chain[i], "command_line", "");
		proc_idx[nprocs][0] = put(j, "%" PRId64, (int64_t)json_integer_value(pid));
		proc_idx[nprocs][1] = put(j, "%s", cmd);
		proc_idx[nprocs][2] = put(j, "process %" PRId64 ":\"%s\"", (int64_t)json_integer_value(pid), cmd);
		nprocs++;
	}
	json_t *pid = json_object_get(th, "pid");
	if (!nprocs && json_is_integer(pid)) {
		proc_idx[0][0] = put(j, "%" PRId64, (int64_t)json_integer_value(pid));
		proc_idx[0][1] = put(j, "%s", "");
		proc_idx[0][2] = put(j, "process %" PRId64 ":\"\"", (int64_t)json_integer_value(pid));
		nprocs = 1;
	}

	json_t *frames = json_object_get(th, "frames");
	size_t nframes = json_array_size(frames), first = j->noffs;
	for (size_t i = 0; i < nframes; i++) {
		json_t *f = json_array_get(frames, i);
		const char *fname = str_or(f, "name", "?");
		const char *file = str_or(f, "short_filename", str_or(f, "filename", ""));
		json_int_t line = json_integer_value(json_object_get(f, "line"));
		if (line > 0)
			put(j, "%s (%s:%" JSON_INTEGER_FORMAT ")", fname, file, line);
		else if (*file)
			put(j, "%s (%s)", fname, file);
		else
			put(j, "%s", fname);
	}

	struct dump_thread t = { 0 };
	t.tid = text_at(j, tid);
	t.name = text_at(j, name_idx);
	t.has_name = name != NULL;
	t.thread_frame = text_at(j, tframe);
	t.status = json_is_true(json_object_get(th, "owns_gil")) ? DUMP_ACTIVE_GIL :
		   json_is_true(json_object_get(th, "active")) ? DUMP_ACTIVE : DUMP_IDLE;
	for (size_t i = 0; i < nprocs; i++) {
		t.procs[i].pid = text_at(j, proc_idx[i][0]);
		t.procs[i].cmd = text_at(j, proc_idx[i][1]);
		t.procs[i].frame = text_at(j, proc_idx[i][2]);
	}
	t.nprocs = nprocs;
	j->frames = xgrow(j->frames, &j->frames_cap, nframes + 1, sizeof *j->frames);
	for (size_t i = 0; i < nframes; i++)
		j->frames[i] = text_at(j, first + i);
	t.frames = j->frames;
	t.nframes = nframes;
	t.snapshot = j->stats.snapshots;
	t.file = j->file;
	t.lineno = j->lineno;
	j->stats.threads++;
	j->fn(j->ctx, &t);
}

static void parse_value(dumpjson *j)
{
	json_error_t error;
	json_t *v = json_loadb(j->text, j->used, JSON_DISABLE_EOF_CHECK, &error);
	j->used = 0;
	if (!v) {
		err_bad_line(j->errs, j->file, j->lineno + (unsigned long)(error.line > 0 ? error.line - 1 : 0),
			     "bad JSON: %s", error.text);
		return;
	}
	j->stats.snapshots++;
	if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			one_thread(j, json_array_get(v, i));
	} else {
		one_thread(j, v);
	}
	json_decref(v);
}

static void end_file(dumpjson *j)
{
	if (j->depth > 0) {
		j->stats.cut_off++;
		err_bad_line(j->errs, j->file, j->lineno, "JSON snapshot cut off");
	}
	j->depth = j->in_string = j->escape = 0;
	j->used = 0;
}

void dumpjson_line(dumpjson *j, struct in_line *line)
{
	if (line->lineno == 1 && j->last_file)
		end_file(j);
	j->last_file = line->file;
	size_t len = dump_strip_ansi(line->text, line->len);
	const char *s = line->text;
	size_t i = 0;
	if (j->depth == 0) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len) {
			err_skip_line(j->errs, line->file, line->lineno, "blank line");
			return;
		}
		size_t k = i + 1; /* "[" opens an array of threads, not a "[INFO] ..." log line */
		while (k < len && (s[k] == ' ' || s[k] == '\t'))
			k++;
		if (s[i] != '{' && (s[i] != '[' || (k < len && s[k] != '{' && s[k] != ']'))) {
			err_skip_line(j->errs, line->file, line->lineno, "not JSON");
			return;
		}
		j->file = line->file;
		j->lineno = line->lineno;
		j->used = 0;
	}
	size_t start = i, end = len;
	for (; i < len; i++) {
		char c = s[i];
		if (j->in_string) {
			if (j->escape)
				j->escape = 0;
			else if (c == '\\')
				j->escape = 1;
			else if (c == '"')
				j->in_string = 0;
		} else if (c == '"') {
			j->in_string = 1;
		} else if (c == '[' || c == '{') {
			j->depth++;
		} else if (c == ']' || c == '}') {
			if (--j->depth == 0) {
				end = i + 1;
				break;
			}
		}
	}
	j->text = xgrow(j->text, &j->cap, j->used + (end - start) + 2, 1);
	memcpy(j->text + j->used, s + start, end - start);
	j->used += end - start;
	j->text[j->used++] = '\n';
	if (j->depth == 0)
		parse_value(j);
}

void dumpjson_finish(dumpjson *j)
{
	end_file(j);
}
