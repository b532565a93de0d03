/* sniff: which input format a file holds (folded, py-spy dump text, dump JSON, speedscope,
 * chrometrace, flame graph SVG, austin), from its first lines. */
#ifndef SIFT_SNIFF_H
#define SIFT_SNIFF_H

#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "err.h"
#include "input.h"

/* The reader a file needs: folded stacks, py-spy dump text or dump JSON; LOAD_AUTO until
 * decided. Sniff owns the choice and knows nothing of load; the load_ name is the one
 * load_opts.from and the tools' --from already use. */
enum load_format { LOAD_AUTO, LOAD_RAW, LOAD_DUMP, LOAD_JSON, LOAD_SPEEDSCOPE, LOAD_CHROME,
		   LOAD_SVG, LOAD_AUSTIN };

/* The format one line proves, or LOAD_AUTO when it proves nothing (blank, prompt, noise).
 * A JSON line is speedscope, chrometrace or dump JSON by the first key that tells them
 * apart; LOAD_JSON when none is in it yet (sniff_next then looks at the lines after). */
enum load_format sniff_line(const char *text, size_t len);
/* The JSON kind the first telling key in a line gives, or LOAD_AUTO. */
enum load_format sniff_json_kind(const char *text, size_t len);

typedef struct sniff sniff;

/* Lines of in, each with its file's format: forced, or decided by the first line that
 * proves one. Undecided lines wait (a bounded number) and are then given out in order;
 * files that prove nothing are read as folded stacks. */
sniff *sniff_new(in_reader *in, enum load_format forced);
/* What the first lines read look like, for a message when nothing in them parsed:
 * "a training log: try sift-tput", or NULL when they say nothing. */
const char *sniff_looks_like(const sniff *s);
/* The same for one line. */
const char *sniff_guess(const char *text, size_t len);
/* Is a line a training log's (a log word and two or more KEY: V, KEY=V or " | " fields),
 * even when it ends in a number as a folded stack does? */
int sniff_log_line(const char *text, size_t len);
int sniff_next(sniff *s, struct in_line *line, enum load_format *format);
void sniff_free(sniff *s);

/* A prefix a tool put before each line of a pasted dump: a rank label (`srun -l`'s
 * `3: `, torchrun's `[rank3]:` or `[default3]:`, kubectl's `[pod/NAME/CONTAINER] `,
 * docker-compose's `name  | `) and/or a timestamp (ISO, `2024-05-01 12:00:00,123`,
 * bracketed). */
enum sniff_label_kind { SNIFF_LABEL_NONE, SNIFF_LABEL_SRUN, SNIFF_LABEL_BRACKET, SNIFF_LABEL_COMPOSE };
struct sniff_label {
	enum sniff_label_kind kind;
	int stamp;                 /* a timestamp was part of the prefix */
	int space;                 /* a space after the label was (`[rank3]: ` or `[default3]:`) */
	const char *text;          /* the label (points into the line), len 0 when none */
	size_t len;
};
/* The length of the prefix at the start of a line (0: none), its label in *label. With
 * want non-NULL, only a prefix of that kind and stamp counts (a file's lines share one). */
size_t sniff_label(const char *text, size_t len, const struct sniff_label *want, struct sniff_label *label);

/* What sniff_read_dumps found. */
struct sniff_dumps {
	uint64_t snapshots;      /* numbered 1, 2, ... across all files and both formats */
	unsigned long lines;     /* non-blank lines read */
	const char *looks_like;  /* sniff_guess of the first lines, or NULL */
};

/* Read files (none: stdin) as py-spy dumps, text or JSON by content unless forced: each
 * thread of each snapshot goes to fn. A file whose dump lines carry a rank label
 * (sniff_label) is read as one dump per label, the lines of each label apart (interleaved
 * output of many ranks), and each thread carries its label. Returns 0, or 1 when a file
 * could not be read (reported). */
int sniff_read_dumps(char *const *paths, size_t npaths, enum load_format forced,
		     struct err_lines *errs, dump_fn *fn, void *ctx, struct sniff_dumps *found);
/* After sniff_read_dumps: when lines were read but no snapshot found, say so on stderr with
 * what the input looks like, and return 1; else 0. */
int sniff_report_no_dumps(const struct sniff_dumps *found);

#endif
