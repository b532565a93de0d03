/* pprofout: the message built as protobuf-c structs (code generated from lib/profile.proto),
 * packed in one buffer, then gzipped by zlib: no hand-written encoder. */
#include "pprofout.h"
#include "frame.h"
#include "rules.h"
#include "intern.h"
#include "xalloc.h"

#include "profile.pb-c.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* String table indexes fixed by the order they are added first. */
enum { STR_EMPTY, STR_SAMPLES, STR_COUNT, STR_THREAD, STR_PROCESS, STR_CPU, STR_NANOSECONDS, STR_CATEGORY };

static int64_t str_id(intern *strs, const char *s, size_t len)
{
	return (int64_t)intern_add(strs, s, len);
}

/* LINE digits as a number; a line past 2^63 is no line (0). */
static int64_t line_number(const char *digits, size_t len)
{
	int64_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (digits[i] < '0' || digits[i] > '9' || n > (INT64_MAX - 9) / 10)
			return 0;
		n = n * 10 + (digits[i] - '0');
	}
	return n;
}

/* Everything the message points into, freed together. */
struct pp_build {
	intern *strs;
	uint64_t *loc_of;          /* frame id -> location id, 0 when none yet */
	unsigned char *label_of;   /* frame id -> STR_THREAD or STR_PROCESS for label frames */
	Perftools__Profiles__Location *locs;
	Perftools__Profiles__Location **loc_ptrs;
	Perftools__Profiles__Line *lines;
	Perftools__Profiles__Line **line_ptrs;
	Perftools__Profiles__Function *funcs;
	Perftools__Profiles__Function **func_ptrs;
	size_t nloc;
};

/* The location id of frame f, adding its Location and Function when first seen; 0 when the
 * frame is a thread or process, whose label key then goes in *label_key. */
static uint64_t frame_location(struct pp_build *b, const intern *fr, uint32_t f, int64_t *label_key)
{
	if (b->label_of[f]) {
		*label_key = b->label_of[f];
		return 0;
	}
	if (b->loc_of[f])
		return b->loc_of[f];
	size_t len;
	const char *text = intern_str(fr, f, &len);
	struct frame_parts fp;
	frame_split(text, len, &fp);
	if (fp.kind == FRAME_THREAD || fp.kind == FRAME_PROCESS) {
		b->label_of[f] = fp.kind == FRAME_THREAD ? STR_THREAD : STR_PROCESS;
		*label_key = b->label_of[f];
		return 0;
	}
	size_t i = b->nloc++;
	uint64_t id = i + 1;
	Perftools__Profiles__Function *fn = &b->funcs[i];
	perftools__profiles__function__init(fn);
	fn->id = id;
	Perftools__Profiles__Line *ln = &b->lines[i];
	perftools__profiles__line__init(ln);
	ln->function_id = id;
	if (fp.kind == FRAME_CODE && fp.name_len) {
		fn->name = str_id(b->strs, fp.name, fp.name_len);
		fn->filename = fp.file_len ? str_id(b->strs, fp.file, fp.file_len) : STR_EMPTY;
		ln->line = line_number(fp.line, fp.line_len);
	} else {
		fn->name = str_id(b->strs, text, len);
	}
	fn->system_name = fn->name;
	Perftools__Profiles__Location *loc = &b->locs[i];
	perftools__profiles__location__init(loc);
	loc->id = id;
	loc->n_line = 1;
	b->line_ptrs[i] = ln;
	loc->line = &b->line_ptrs[i];
	b->loc_ptrs[i] = loc;
	b->func_ptrs[i] = fn;
	b->loc_of[f] = id;
	return id;
}

/* gzip the packed message onto out. */
static int gzip_write(const uint8_t *data, size_t len, FILE *out)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	/* windowBits 15 + 16: a gzip header and trailer, as pprof expects on disk. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	unsigned char buf[1 << 16];
	int rc = 0, zrc;
	size_t done = 0;
	do {
		/* avail_in is 32 bits: feed at most 1 GiB at a time. */
		if (z.avail_in == 0 && done < len) {
			size_t n = len - done < (1u << 30) ? len - done : (1u << 30);
			z.next_in = (Bytef *)(uintptr_t)(data + done);
			z.avail_in = (uInt)n;
			done += n;
		}
		z.next_out = buf;
		z.avail_out = sizeof buf;
		zrc = deflate(&z, done == len ? Z_FINISH : Z_NO_FLUSH);
		size_t have = sizeof buf - z.avail_out;
		if (have && fwrite(buf, 1, have, out) != have)
			rc = -1;
	} while (rc == 0 && zrc != Z_STREAM_END && zrc != Z_STREAM_ERROR);
	if (zrc == Z_STREAM_ERROR)
		rc = -1;
	deflateEnd(&z);
	return rc;
}

/* count samples as nanoseconds at rate samples per second, saturating at 2^63 - 1. */
static int64_t nanoseconds(uint64_t count, double rate)
{
	double ns = round((double)count * 1e9 / rate);
	return ns >= 9223372036854775807.0 ? INT64_MAX : (int64_t)ns;
}

/* The profile message of the samples and b's strings, locations and functions, packed and
 * gzipped to out: 0, or -1 on a write error. */
static int write_profile(struct pp_build *b, Perftools__Profiles__Sample **sample_ptrs, size_t ns, double rate,
			 FILE *out)
{
	Perftools__Profiles__ValueType vt[2];
	perftools__profiles__value_type__init(&vt[0]);
	vt[0].type = STR_SAMPLES;
	vt[0].unit = STR_COUNT;
	perftools__profiles__value_type__init(&vt[1]);
	vt[1].type = STR_CPU;
	vt[1].unit = STR_NANOSECONDS;
	Perftools__Profiles__ValueType *vt_ptrs[2] = { &vt[0], &vt[1] };
	size_t nstr = intern_count(b->strs);
	char **table = xcalloc(nstr, sizeof *table);
	for (size_t i = 0; i < nstr; i++)
		table[i] = (char *)(uintptr_t)intern_str(b->strs, (uint32_t)i, NULL);

	Perftools__Profiles__Profile msg;
	perftools__profiles__profile__init(&msg);
	msg.n_sample_type = 2;
	msg.sample_type = vt_ptrs;
	/* One sample is 1/rate seconds of CPU: the period pprof shows as its sampling interval. */
	msg.period_type = &vt[1];
	msg.period = nanoseconds(1, rate);
	msg.n_sample = ns;
	msg.sample = sample_ptrs;
	msg.n_location = b->nloc;
	msg.location = b->loc_ptrs;
	msg.n_function = b->nloc;
	msg.function = b->func_ptrs;
	msg.n_string_table = nstr;
	msg.string_table = table;
	size_t size = perftools__profiles__profile__get_packed_size(&msg);
	uint8_t *packed = xmalloc(size ? size : 1);
	perftools__profiles__profile__pack(&msg, packed);
	int rc = gzip_write(packed, size, out);
	if (fflush(out) == EOF || ferror(out))
		rc = -1;
	free(packed);
	free(table);
	return rc;
}

int pprofout_write(const prof *p, rules *r, double rate, FILE *out)
{
	const intern *fr = prof_frames_const(p);
	size_t nfr = intern_count(fr), ns = prof_stack_count(p);
	struct pp_build b = { 0 };
	b.strs = intern_new();
	static const char *const fixed[] = { "", "samples", "count", "thread", "process", "cpu", "nanoseconds",
					      "category" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		str_id(b.strs, fixed[i], strlen(fixed[i]));
	size_t cap = nfr ? nfr : 1;
	b.loc_of = xcalloc(cap, sizeof *b.loc_of);
	b.label_of = xcalloc(cap, sizeof *b.label_of);
	b.locs = xcalloc(cap, sizeof *b.locs);
	b.loc_ptrs = xcalloc(cap, sizeof *b.loc_ptrs);
	b.lines = xcalloc(cap, sizeof *b.lines);
	b.line_ptrs = xcalloc(cap, sizeof *b.line_ptrs);
	b.funcs = xcalloc(cap, sizeof *b.funcs);
	b.func_ptrs = xcalloc(cap, sizeof *b.func_ptrs);

	size_t scap = ns ? ns : 1, nframes_all = 0;
	for (size_t i = 0; i < ns; i++) {
		size_t n;
		uint64_t count;
		prof_stack(p, i, &n, &count);
		nframes_all += n;
	}
	Perftools__Profiles__Sample *samples = xcalloc(scap, sizeof *samples);
	Perftools__Profiles__Sample **sample_ptrs = xcalloc(scap, sizeof *sample_ptrs);
	uint64_t *loc_ids = xcalloc(nframes_all ? nframes_all : 1, sizeof *loc_ids);
	/* Every label but the category is one frame: at most one label per frame and one per stack. */
	size_t lcap = nframes_all + ns + 1;
	Perftools__Profiles__Label *labels = xcalloc(lcap, sizeof *labels);
	Perftools__Profiles__Label **label_ptrs = xcalloc(lcap, sizeof *label_ptrs);
	int64_t *values = xcalloc(2 * scap, sizeof *values);
	rules_cache *cats = r ? rules_cache_new(r, fr, 0) : NULL;
	/* category id -> its string, added at its first use */
	int64_t *cat_str = r ? xcalloc(rules_category_count(r), sizeof *cat_str) : NULL;
	size_t used_ids = 0, used_labels = 0;
	for (size_t i = 0; i < ns; i++) {
		size_t n;
		uint64_t count;
		const uint32_t *st = prof_stack(p, i, &n, &count);
		Perftools__Profiles__Sample *s = &samples[i];
		perftools__profiles__sample__init(s);
		s->location_id = loc_ids + used_ids;
		s->label = label_ptrs + used_labels;
		for (size_t k = 0; k < n; k++) {
			int64_t key = 0;
			uint64_t id = frame_location(&b, fr, st[k], &key);
			if (id) {
				s->location_id[s->n_location_id++] = id;
				continue;
			}
			Perftools__Profiles__Label *l = &labels[used_labels];
			perftools__profiles__label__init(l);
			size_t len;
			const char *text = intern_str(fr, st[k], &len);
			l->key = key;
			l->str = str_id(b.strs, text, len);
			s->label[s->n_label++] = l;
			label_ptrs[used_labels++] = l;
		}
		/* pprof wants the leaf first; the stack is root first. */
		for (size_t a = 0, z = s->n_location_id; a + 1 < z; a++, z--) {
			uint64_t t = s->location_id[a];
			s->location_id[a] = s->location_id[z - 1];
			s->location_id[z - 1] = t;
		}
		used_ids += s->n_location_id;
		if (cats) {
			uint32_t c = rules_stack(cats, st, n);
			if (!cat_str[c]) {
				size_t len;
				const char *name = rules_category_name(r, c, &len);
				cat_str[c] = str_id(b.strs, name, len);
			}
			Perftools__Profiles__Label *l = &labels[used_labels];
			perftools__profiles__label__init(l);
			l->key = STR_CATEGORY;
			l->str = cat_str[c];
			s->label[s->n_label++] = l;
			label_ptrs[used_labels++] = l;
		}
		values[2 * i] = count > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)count;
		values[2 * i + 1] = nanoseconds(count, rate);
		s->n_value = 2;
		s->value = &values[2 * i];
		sample_ptrs[i] = s;
	}

	int rc = write_profile(&b, sample_ptrs, ns, rate, out);

	free(cat_str);
	rules_cache_free(cats);
	free(label_ptrs);
	free(labels);
	free(loc_ids);
	free(values);
	free(sample_ptrs);
	free(samples);
	free(b.func_ptrs);
	free(b.funcs);
	free(b.line_ptrs);
	free(b.lines);
	free(b.loc_ptrs);
	free(b.locs);
	free(b.label_of);
	free(b.loc_of);
	intern_free(b.strs);
	return rc;
}
