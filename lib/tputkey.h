/* tputkey: the meaning stage's key and unit vocabulary: what a key or a unit written beside a
 * figure says it is (a rate of tokens, samples, images, iterations; FLOPS; MFU; a step time;
 * a step; a loss; an evaluation's or inference's), worked out once per distinct key. */
#ifndef SIFT_TPUTKEY_H
#define SIFT_TPUTKEY_H

#include <stddef.h>
#include <stdint.h>

#include "tputbyte.h"
#include "tputunit.h"

/* The key/value reader's classes of figure. */
/* KV_TPS: the word "tps", which says tokens but not whether per GPU or for the job.
 * KV_TIME_SAID: a key as loose as "time", a step time only when its unit says ms or s and
 * the line carries a rate besides ("Time: 1638.07 ms, TPS: 6251"). */
/* KV_TIME_ITER ("iter_time", "iter time"), KV_TIME_TRAIN ("train_time"): keys of an iteration
 * timer, read as such only beside what only a training step's line prints (kv_finish). */
enum tputkey_class { KV_NONE, KV_TOKENS, KV_SAMPLES, KV_IMAGES, KV_ITERS, KV_TFLOPS, KV_GFLOPS, KV_MFU, KV_TIME, KV_TPS,
		KV_TIME_SAID, KV_TIME_ITER, KV_TIME_TRAIN };

/* A unit written after a figure, as the unit table has it. */
struct tputkey_unit {
	enum tputkey_class cls;
	double scale;          /* times: milliseconds per unit; GFLOPS: 1e-3 */
	int invert;
	int gpu;
};

/* What the reader needs to know of a key, worked out once per distinct key. */
struct tputkey_info {
	unsigned char srank;     /* kv_step_rank */
	unsigned char loss;      /* kv_is_loss */
	unsigned char kcls;      /* kv_key_class */
	unsigned char compound;  /* holds '_' or '/' */
	unsigned char infer;     /* an inference word */
	unsigned char skip;      /* totals, eval, a part of the step */
	unsigned char gpu;       /* per device */
	unsigned char running;   /* "running": an average whatever the class */
	unsigned char avg;       /* "avg": an average unless a time */
	unsigned char ms;        /* says milliseconds */
	unsigned char secs;      /* says seconds */
	unsigned char part;      /* a share of an iteration's time: "data_time", "data", "forward_time" */
	unsigned char side;      /* 1 source, 2 target tokens: OpenNMT-tf's "features", "labels" */
	unsigned char evals;     /* an evaluation's: eval, val, valid, validation, test */
	unsigned char step_time; /* the whole key names a step's time ("step-time", "time_per_step"):
				  * read without ':' and without a unit, in seconds */
	unsigned char said_unit; /* a step's time only with its unit written: "time/batch = 0.18s"
				  * (char-rnn); Composer's "time/batch: 4" is a count */
	unsigned char rate_key;  /* "speed", "throughput": a rate of whatever its unit counts */
	unsigned char composed;  /* the key is a unit made of a noun and a time ("sec/kimg"): */
	unsigned char kinvert;   /* its class in kcls, and these */
	double kscale;
};

/* Lookups built from the tables' own words, once per reader: which lengths (bit n) the
 * units starting with each byte have, and which two bytes (bit b of pairs[a]) start a key
 * word. Most words after a figure and most keys are then not compared with the tables. */
struct tputkey_tables {
	uint32_t unit_lens[256];
	uint64_t pairs[128][2];
};
void tputkey_tables_init(struct tputkey_tables *tables);

/* Normalize text into out (NUL-ended, at most cap - 1 bytes): lower case, "_" for " -.". */
size_t tputkey_norm(const char *text, size_t len, char *out, size_t cap);
/* The unit (normalized, ulen bytes) in the unit table: 1 with it in *out, else 0. */
int tputkey_unit(const struct tputkey_tables *tables, const char *unit, size_t ulen, struct tputkey_unit *out);
/* A unit made of a noun and a time (normalized): NOUN/TIME or NOUN_per_TIME ("utts/s",
 * "record/second"), or its inverse TIME/NOUN ("us/sample": samples/s; "sec/iter": a step
 * time); "/gpu" or "/device" after it makes it per device. 1 with it in *out, else 0. */
int tputkey_compose(const char *unit, size_t len, struct tputkey_unit *out);
/* A rate of items the tables do not name, after a key that says it is a rate ("speed:
 * 188.71st/s", NCRF++'s sentences): WORD/TIME, the word no size of data ("MB/s"); samples. */
int tputkey_items_rate(const char *unit, size_t len, struct tputkey_unit *out);
/* A word after a figure that is no unit: the next field's key or nothing. */
int tputkey_unit_word(const char *unit);
/* The canonical unit of a class, for the whole job or per device. */
enum tput_unit tputkey_unit_of(enum tputkey_class cls, int gpu);

/* Keys recur line after line ("step", "loss", "tps"): their analysis is kept by hash, two
 * ways a set so that two keys of every line that hash alike do not evict each other. */
enum { TPUTKEY_KEYMAX = 96 };
struct tputkey_slot {
	unsigned char klen;  /* 0: empty slot */
	char key[TPUTKEY_KEYMAX]; /* as written */
	struct tputkey_info ki;
};
struct tputkey_cache {
	struct tputkey_slot slot[TPUTBYTE_SETS][2];
	/* by shape: the normalized key with each run of digits one '0', for keys holding a
	 * clock or a count ("i0501 12:00:00.015205 1234 train.py"); no word looked for in a
	 * key has a digit, and a digit stays a digit, so the analysis is the same */
	struct tputkey_slot shape[TPUTBYTE_SETS][2];
	struct tputkey_tables tables;
};

void tputkey_cache_init(struct tputkey_cache *cache);
/* The analysis of the key raw[0, rawlen) as written, worked out on its normalized text the
 * first time it, or a key of its shape, is seen (every time without a cache, in *tmp). */
const struct tputkey_info *tputkey_lookup(struct tputkey_cache *cache, const struct tputkey_tables *tables,
					  const char *raw, size_t rawlen, struct tputkey_info *tmp);

#endif
