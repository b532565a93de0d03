/* speedscope: one jansson tree per document (depth bounded by jansson's parser), walked
 * profile by profile; nothing outside the document is ever fetched ($schema is a name). */
#include "speedscope.h"
#include "speedscan.h"
#include "xalloc.h"

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ss {
	struct doc_reader r;    /* the document, errors, callbacks, figures */
	json_t *frames;
	size_t nframes;
	struct doc_stack st;
	char proc[64], thread[512];  /* the profile name's pseudo-frames, or "" */
	json_t **idx;           /* one stack's frame indices */
	size_t idx_cap;
	double rate;
	const char *exporter;   /* the document's, or NULL */
	struct doc_time t;      /* of the stack emit gives next */
	speedscan *scan;        /* the scanned document, when speedscan took it */
	const struct doc_frame *texts;  /* its frames as written, by index */
	struct doc_frame *out;  /* one stack's frames */
	size_t out_cap;
	struct {                /* the profile whose samples scan_sample times */
		int pyspy, weighted, timed;  /* py-spy's (count 1 each); weights; in a unit of time */
		double secs, scale, recorded, clock, carry;
		size_t k;           /* the sample's index */
	} tp;
};

static void bad(struct ss *s, const char *fmt, const char *what)
{
	s->r.stats->bad++;
	err_bad_line(s->r.errs, s->r.doc->file, s->r.doc->lineno, fmt, what);
}

/* Seconds per unit, 0 for units that are not time. */
static double unit_seconds(const char *unit)
{
	static const struct { const char *name; double s; } units[] = {
		{ "seconds", 1 }, { "milliseconds", 1e-3 }, { "microseconds", 1e-6 }, { "nanoseconds", 1e-9 },
	};
	for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
		if (strcmp(unit, units[i].name) == 0)
			return units[i].s;
	return 0;
}

/* The rate sift-fold --to speedscope wrote in its exporter ("sift, 200 samples/s"), 0 when
 * it wrote none (its weights are then counts). */
static double sift_rate(const char *exporter)
{
	const char *at = exporter ? strstr(exporter, ", ") : NULL;
	if (!at)
		return 0;
	char *end;
	double rate = strtod(at + 2, &end);
	return rate > 0 && isfinite(rate) && strcmp(end, " samples/s") == 0 ? rate : 0;
}

/* Which exporter wrote the document: py-spy (a sample counts 1, its weight is 1/rate
 * seconds), sift (distinct stacks, weights are counts or seconds at its rate), other. */
enum maker { MAKER_OTHER, MAKER_PYSPY, MAKER_SIFT };

static enum maker maker_of(const char *exporter)
{
	if (exporter && strncmp(exporter, "py-spy", 6) == 0)
		return MAKER_PYSPY;
	if (exporter && strncmp(exporter, "sift", 4) == 0)
		return MAKER_SIFT;
	return MAKER_OTHER;
}

int speedscope_is_sift(const char *text, size_t len)
{
	static const char key[] = "\"exporter\":\"sift";  /* speedout writes compact JSON */
	return memmem(text, len, key, sizeof key - 1) != NULL;
}

/* sift's own output holds one weight per distinct stack: no sample has a time. */
static void no_time(const struct doc_buf *doc)
{
	err_exit(EXIT_USAGE, "--from/--to and --by window need samples in time order; %s is sift-fold's "
		 "speedscope output (one weight per distinct stack), which has none: give the recording",
		 doc->file);
}

/* 1 for a process pseudo-frame, 2 for a thread pseudo-frame, else 0. */
static int pseudo_kind(const char *name)
{
	if (!name)
		return 0;
	if (strncmp(name, "thread (", 8) == 0)
		return 2;
	return strncmp(name, "process ", 8) == 0 && name[8] >= '0' && name[8] <= '9';
}

static const char *frame_name(struct ss *s, json_t *idx)
{
	if (!json_is_integer(idx) || json_integer_value(idx) < 0 ||
	    (size_t)json_integer_value(idx) >= s->nframes)
		return NULL;
	return json_string_value(json_object_get(json_array_get(s->frames, (size_t)json_integer_value(idx)), "name"));
}

/* Push frame idx; 0, or -1 when it is not a frame. */
static int push_frame(struct ss *s, json_t *idx)
{
	const char *name = frame_name(s, idx);
	if (!name)
		return -1;
	json_t *f = json_array_get(s->frames, (size_t)json_integer_value(idx));
	const char *file = json_string_value(json_object_get(f, "file"));
	json_t *line = json_object_get(f, "line");
	doc_stack_code(&s->st, name, file, json_is_integer(line) ? (long)json_integer_value(line) : -1);
	return 0;
}

/* The pseudo-frames py-spy's profile name gives: `process PID:""` and `thread (TID): NAME`. */
static void name_frames(struct ss *s, const char *name)
{
	s->proc[0] = s->thread[0] = '\0';
	if (!name)
		return;
	unsigned long long pid = 0;
	int n = 0, has_pid = 0;
	if (sscanf(name, "Process %llu %n", &pid, &n) == 1 && n > 0) {
		has_pid = 1;
		name += n;
	}
	char tid[64];
	n = 0;
	if (sscanf(name, "Thread %63[0-9a-fA-FxX] %n", tid, &n) != 1 || n == 0)
		return;
	const char *tname = name + n;
	size_t tlen = strlen(tname);
	if (tlen < 2 || tname[0] != '"' || tname[tlen - 1] != '"')
		return;
	if (has_pid)
		snprintf(s->proc, sizeof s->proc, "process %llu:\"\"", pid);
	if (tlen == 2)
		snprintf(s->thread, sizeof s->thread, "thread (%s)", tid);
	else
		snprintf(s->thread, sizeof s->thread, "thread (%s): %.*s", tid, (int)(tlen - 2), tname + 1);
}

/* A stack of frame indices, root first, under the name's pseudo-frames unless the frames
 * hold their own (py-spy --threads, --subprocesses). 0, or -1 on a bad index. */
static int build(struct ss *s, json_t *const *idx, size_t depth)
{
	doc_stack_clear(&s->st);
	size_t np = 0;
	while (np < depth && pseudo_kind(frame_name(s, idx[np])) == 1)
		np++;
	int has_thread = np < depth && pseudo_kind(frame_name(s, idx[np])) == 2;
	if (np == 0 && s->proc[0])
		doc_stack_push(&s->st, "%s", s->proc);
	for (size_t k = 0; k < np; k++)
		push_frame(s, idx[k]);
	if (!has_thread && s->thread[0])
		doc_stack_push(&s->st, "%s", s->thread);
	for (size_t k = np; k < depth; k++)
		if (push_frame(s, idx[k]) != 0)
			return -1;
	return 0;
}

static void emit(struct ss *s, uint64_t count)
{
	if (count == 0)
		return;
	s->r.stats->stacks++;
	if (s->r.when)
		s->r.when(s->r.ctx, &s->t);
	s->r.fn(s->r.ctx, s->r.doc->file, s->r.doc->lineno, doc_stack_frames(&s->st), s->st.n, count);
}

/* The one weight every sample of a weights array has, or 0 when they differ. */
static double constant_weight(json_t *weights)
{
	size_t n = json_array_size(weights);
	double w = n ? json_number_value(json_array_get(weights, 0)) : 0;
	for (size_t i = 1; i < n && w > 0; i++)
		if (json_number_value(json_array_get(weights, i)) != w)
			return 0;
	return w;
}

/* py-spy's samples count 1 each; their weights (1/rate seconds) give their times and the
 * rate. Other exporters' weights count, times rate when their unit is time. */
static void sampled(struct ss *s, json_t *prof, const char *name, enum maker maker, double secs)
{
	json_t *samples = json_object_get(prof, "samples");
	json_t *weights = json_object_get(prof, "weights");
	int pyspy = maker == MAKER_PYSPY, timed = secs > 0 && json_is_array(weights);
	double rate = maker == MAKER_SIFT && sift_rate(s->exporter) > 0 ? sift_rate(s->exporter) : s->rate;
	double scale = secs > 0 ? secs * rate : 1, clock = 0;
	double recorded = pyspy && timed && constant_weight(weights) > 0 ? 1 / (constant_weight(weights) * secs) : 0;
	doc_note_rate(s->r.stats, recorded);
	name_frames(s, name);
	if (!json_is_array(samples)) {
		bad(s, "speedscope profile \"%s\" has no samples array", name ? name : "");
		return;
	}
	size_t n = json_array_size(samples);
	unsigned long bad_samples = 0;
	double carry = 0;  /* fractions of a sample left by rounding, carried on */
	for (size_t i = 0; i < n; i++) {
		json_t *stack = json_array_get(samples, i);
		uint64_t count = 1;
		/* at i/rate exactly when the rate is even, so windows cut where --rate's would */
		s->t = (struct doc_time){ recorded > 0 ? (double)i / recorded : pyspy && timed ? clock : (double)i / s->rate, 0 };
		if (pyspy && timed)
			clock += json_number_value(json_array_get(weights, i)) * secs;
		if (!pyspy && json_is_array(weights)) {
			json_t *w = json_array_get(weights, i);
			double v = json_number_value(w) * scale + carry;
			if (!json_is_number(w) || !(json_number_value(w) >= 0) || v > 1.8e19) {
				bad_samples++;
				continue;
			}
			count = v > 0 ? (uint64_t)llround(v) : 0;  /* a 0 after a rounded-up one */
			carry = v - (double)count;
			if (secs > 0) {  /* the weight is the time the sample stands for */
				s->t = (struct doc_time){ clock, json_number_value(w) * secs };
				clock += s->t.len;
			}
		}
		if (!json_is_array(stack)) {
			bad_samples++;
			continue;
		}
		size_t depth = json_array_size(stack);
		s->idx = xgrow(s->idx, &s->idx_cap, depth + 1, sizeof *s->idx);
		for (size_t k = 0; k < depth; k++)
			s->idx[k] = json_array_get(stack, k);
		if (build(s, s->idx, depth) != 0) {
			bad_samples++;
			continue;
		}
		emit(s, count);
	}
	if (bad_samples) {
		char what[96];
		snprintf(what, sizeof what, "%lu bad samples (frame index or weight)", bad_samples);
		bad(s, "speedscope profile: %s", what);
	}
}

/* Evented: O/C events open and close frames at `at`; the stack open between two events
 * counts their distance times scale. */
static void evented(struct ss *s, json_t *prof, const char *name, double secs)
{
	double scale = secs > 0 ? secs * s->rate : 1, first = 0;
	double per_unit = secs > 0 ? secs : 1 / s->rate;  /* seconds */
	name_frames(s, name);
	json_t *events = json_object_get(prof, "events");
	if (!json_is_array(events)) {
		bad(s, "speedscope evented profile \"%s\" has no events array", name ? name : "");
		return;
	}
	size_t n = json_array_size(events);
	json_t **open = xmalloc((n + 1) * sizeof *open);
	size_t depth = 0;
	double last = 0, carry = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_array_get(events, i);
		const char *type = json_string_value(json_object_get(e, "type"));
		json_t *at = json_object_get(e, "at");
		json_t *frame = json_object_get(e, "frame");
		if (!type || !json_is_number(at)) {
			bad(s, "%s", "speedscope event without type or at");
			break;
		}
		double t = json_number_value(at);
		if (i == 0)
			first = t;
		if (depth > 0 && t > last) {
			s->t = (struct doc_time){ (last - first) * per_unit, (t - last) * per_unit };
			double v = (t - last) * scale + carry;
			uint64_t count = v > 0 && v < 1.8e19 ? (uint64_t)llround(v) : 0;
			carry = v - (double)count;
			if (build(s, open, depth) == 0)
				emit(s, count);
		}
		last = t;
		if (strcmp(type, "O") == 0)
			open[depth++] = frame;
		else if (strcmp(type, "C") == 0 && depth > 0)
			depth--;
	}
	free(open);
}

/* A distinct stack from speedscan, built as build() builds one from the tree, out of the
 * frames' texts made once (s->texts). */
static void scan_stack(void *ctx, const uint32_t *idx, size_t depth, uint64_t count)
{
	struct ss *s = ctx;
	const struct speedscan_frame *fr = speedscan_frames(s->scan);
	s->out = xgrow(s->out, &s->out_cap, depth + 2, sizeof *s->out);
	size_t np = 0, n = 0;
	while (np < depth && pseudo_kind(fr[idx[np]].name) == 1)
		np++;
	int has_thread = np < depth && pseudo_kind(fr[idx[np]].name) == 2;
	if (np == 0 && s->proc[0])
		s->out[n++] = (struct doc_frame){ s->proc, strlen(s->proc) };
	for (size_t k = 0; k <= depth; k++) {
		if (k == np && !has_thread && s->thread[0])
			s->out[n++] = (struct doc_frame){ s->thread, strlen(s->thread) };
		if (k < depth)
			s->out[n++] = s->texts[idx[k]];
	}
	s->r.stats->stacks++;
	s->r.fn(s->r.ctx, s->r.doc->file, s->r.doc->lineno, s->out, n, count);
}

/* One sample of a timed profile, counted and timed as sampled() does from the tree. */
static void scan_sample(void *ctx, const uint32_t *idx, size_t depth, double w)
{
	struct ss *s = ctx;
	uint64_t count = 1;
	size_t k = s->tp.k++;
	s->t = (struct doc_time){ s->tp.recorded > 0 ? (double)k / s->tp.recorded :
				  s->tp.pyspy && s->tp.timed ? s->tp.clock : (double)k / s->rate, 0 };
	if (s->tp.pyspy && s->tp.timed)
		s->tp.clock += w * s->tp.secs;
	if (!s->tp.pyspy && s->tp.weighted) {
		double v = w * s->tp.scale + s->tp.carry;
		count = v > 0 ? (uint64_t)llround(v) : 0;  /* speedscan_stacks checked w already */
		s->tp.carry = v - (double)count;
		if (s->tp.secs > 0) {
			s->t = (struct doc_time){ s->tp.clock, w * s->tp.secs };
			s->tp.clock += s->t.len;
		}
	}
	if (count == 0)
		return;
	s->r.when(s->r.ctx, &s->t);
	scan_stack(s, idx, depth, count);
}

/* A profile's samples one by one, each with its time. */
static void scan_timed(struct ss *s, const struct speedscan_profile *p, size_t i, enum maker maker,
		       double secs, double scale)
{
	double w;
	s->tp.pyspy = maker == MAKER_PYSPY;
	s->tp.weighted = p->weights != 0;
	s->tp.timed = secs > 0 && p->weights;
	s->tp.secs = secs;
	s->tp.scale = scale;
	s->tp.recorded = s->tp.pyspy && s->tp.timed && speedscan_weight(s->scan, i, &w) == 1 && w > 0 ?
			 1 / (w * secs) : 0;
	s->tp.clock = s->tp.carry = 0;
	s->tp.k = 0;
	speedscan_samples(s->scan, i, scan_sample, s);
}

/* Sampled profiles without a tree: speedscan counts each distinct sample text once (a
 * py-spy recording of hundreds of MB repeats a few thousand stacks). Every profile is
 * checked before any stack is given, so on anything it does not take (-1) the tree
 * reader reads the whole document and names the fault. s->scan is freed. */
static int scan_give(struct ss *s, const struct doc_buf *doc, double rate)
{
	enum maker maker = maker_of(speedscan_exporter(s->scan));
	if (maker == MAKER_SIFT && s->r.when)
		no_time(doc);
	if (maker == MAKER_SIFT && sift_rate(speedscan_exporter(s->scan)) > 0) {
		rate = sift_rate(speedscan_exporter(s->scan));
		doc_note_rate(s->r.stats, rate);
	}
	size_t n = speedscan_profile_count(s->scan), nf = speedscan_frame_count(s->scan);
	const struct speedscan_frame *fr = speedscan_frames(s->scan);
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 1) {  /* every frame's text, once */
			doc_stack_clear(&s->st);
			for (size_t i = 0; i < nf; i++)
				doc_stack_code(&s->st, fr[i].name ? fr[i].name : "", fr[i].file, fr[i].line);
			s->texts = doc_stack_frames(&s->st);
		}
		for (size_t i = 0; i < n; i++) {
			const struct speedscan_profile *p = speedscan_profile(s->scan, i);
			double secs = unit_seconds(p->unit), scale = secs > 0 ? secs * rate : 1, w;
			if (maker == MAKER_SIFT && p->name && strcmp(p->name, SPEEDSCOPE_ALL_THREADS) == 0)
				continue;
			if (pass == 1) {
				if (maker == MAKER_PYSPY && secs > 0 && speedscan_weight(s->scan, i, &w) == 1 && w > 0)
					doc_note_rate(s->r.stats, 1 / (w * secs));
				name_frames(s, p->name);
				if (s->r.when)
					scan_timed(s, p, i, maker, secs, scale);
				else
					speedscan_stacks(s->scan, i, maker != MAKER_PYSPY, scale, scan_stack, s);
			} else if (!p->type || strcmp(p->type, "sampled") != 0 ||
				   speedscan_stacks(s->scan, i, maker != MAKER_PYSPY, scale, NULL, NULL) != 0 ||
				   (s->r.when && speedscan_samples(s->scan, i, NULL, NULL) != 0)) {
				speedscan_free(s->scan);
				s->scan = NULL;
				return -1;
			}
		}
	}
	speedscan_free(s->scan);
	s->scan = NULL;
	doc_stack_free(&s->st);
	free(s->out);
	return 0;
}

static int scan_read(struct ss *s, const struct doc_buf *doc, double rate)
{
	if (doc->over || !(s->scan = speedscan_new(doc->text, doc->len)))
		return -1;
	return scan_give(s, doc, rate);
}

int speedscope_read_scan(struct speedscan *scan, const char *file, unsigned long lineno, double rate,
			 struct err_lines *errs, doc_stack_fn *fn, doc_time_fn *when, void *ctx,
			 struct doc_stats *stats)
{
	struct doc_buf doc = { .file = file, .lineno = lineno };
	struct ss s = { .r = { &doc, errs, fn, when, ctx, stats },
			.rate = rate, .scan = scan };
	return scan_give(&s, &doc, rate);
}

void speedscope_read(const struct doc_buf *doc, double rate, struct err_lines *errs,
		     doc_stack_fn *fn, doc_time_fn *when, void *ctx, struct doc_stats *stats)
{
	struct ss s = { .r = { doc, errs, fn, when, ctx, stats },
			.rate = rate };
	if (scan_read(&s, doc, rate) == 0)
		return;
	json_t *root = doc_load_json(doc, "speedscope", errs, stats);
	if (!root)
		return;
	s.frames = json_object_get(json_object_get(root, "shared"), "frames");
	json_t *profiles = json_object_get(root, "profiles");
	if (!json_is_array(s.frames) || !json_is_array(profiles)) {
		bad(&s, "%s", "speedscope JSON without shared.frames and profiles arrays");
		json_decref(root);
		return;
	}
	s.nframes = json_array_size(s.frames);
	s.exporter = json_string_value(json_object_get(root, "exporter"));
	enum maker maker = maker_of(s.exporter);
	if (maker == MAKER_SIFT && when)
		no_time(doc);
	if (maker == MAKER_SIFT)
		doc_note_rate(stats, sift_rate(s.exporter));
	for (size_t i = 0; i < json_array_size(profiles); i++) {
		json_t *prof = json_array_get(profiles, i);
		const char *type = json_string_value(json_object_get(prof, "type"));
		const char *name = json_string_value(json_object_get(prof, "name"));
		double secs = unit_seconds(json_string_value(json_object_get(prof, "unit")));
		if (maker == MAKER_SIFT && name && strcmp(name, SPEEDSCOPE_ALL_THREADS) == 0)
			continue;
		if (type && strcmp(type, "sampled") == 0)
			sampled(&s, prof, name, maker, secs);
		else if (type && strcmp(type, "evented") == 0)
			evented(&s, prof, name, secs);
		else
			bad(&s, "speedscope profile of unknown type \"%s\"", type ? type : "");
	}
	doc_stack_free(&s.st);
	free(s.idx);
	json_decref(root);
}
