/* cputab: header-driven column maps, so top, ps and pidstat share one row reader. */
#include "cputab.h"
#include "intern.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

const char *const cpu_source_names[] = { "unknown", "top", "ps", "pidstat", NULL };

enum { MAX_TOKENS = 64, NONE = -1 };

struct cpu_table {
	struct err_lines *errs;
	enum cpu_source source;
	int have_header;
	enum { PS_ANY, PS_PCPU, PS_ELF, PS_L } shape;  /* header-less ps: the rows' shape */
	int tid_col, pid_col, cpu_col, cmd_col;
	uint64_t tgid;              /* pidstat: the process row above the thread rows */
	struct cpu_thread *threads;
	size_t n, cap;
	size_t *slots;              /* open addressing by tid: index + 1, 0 empty */
	size_t nslots;
};

cpu_table *cpu_new(struct err_lines *errs)
{
	cpu_table *t = xcalloc(1, sizeof *t);
	t->errs = errs;
	return t;
}

void cpu_free(cpu_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->threads[i].name);
	free(t->threads);
	free(t->slots);
	free(t);
}

enum cpu_source cpu_source(const cpu_table *t) { return t->source; }
size_t cpu_count(const cpu_table *t) { return t->n; }
const struct cpu_thread *cpu_at(const cpu_table *t, size_t i) { return &t->threads[i]; }

static size_t slot_of(const cpu_table *t, uint64_t tid)
{
	size_t i = (size_t)intern_hash(&tid, sizeof tid) & (t->nslots - 1);
	while (t->slots[i] && t->threads[t->slots[i] - 1].tid != tid)
		i = (i + 1) & (t->nslots - 1);
	return i;
}

const struct cpu_thread *cpu_find(const cpu_table *t, uint64_t tid)
{
	if (!t->nslots)
		return NULL;
	size_t i = slot_of(t, tid);
	return t->slots[i] ? &t->threads[t->slots[i] - 1] : NULL;
}

static struct cpu_thread *get(cpu_table *t, uint64_t tid)
{
	if (2 * (t->n + 1) > t->nslots) {
		free(t->slots);
		t->nslots = t->nslots ? 2 * t->nslots : 64;
		t->slots = xcalloc(t->nslots, sizeof *t->slots);
		for (size_t k = 0; k < t->n; k++)
			t->slots[slot_of(t, t->threads[k].tid)] = k + 1;
	}
	size_t i = slot_of(t, tid);
	if (!t->slots[i]) {
		t->threads = xgrow(t->threads, &t->cap, t->n + 1, sizeof *t->threads);
		memset(&t->threads[t->n], 0, sizeof *t->threads);
		t->threads[t->n].tid = tid;
		t->slots[i] = ++t->n;
	}
	return &t->threads[t->slots[i] - 1];
}

struct tok { const char *s; size_t len; };

static size_t tokenize(const char *s, size_t len, struct tok *toks)
{
	size_t n = 0, i = 0;
	while (i < len && n < MAX_TOKENS) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			break;
		toks[n].s = s + i;
		while (i < len && s[i] != ' ' && s[i] != '\t')
			i++;
		toks[n].len = (size_t)(toks[n].s - s);
		toks[n].len = (size_t)(s + i - toks[n].s);
		n++;
	}
	return n;
}

static int is(const struct tok *t, const char *word)
{
	return t->len == strlen(word) && memcmp(t->s, word, t->len) == 0;
}

static int find(const struct tok *toks, size_t n, const char *const *words)
{
	for (size_t i = 0; i < n; i++)
		for (int w = 0; words[w]; w++)
			if (is(&toks[i], words[w]))
				return (int)i;
	return NONE;
}

static int to_u64(const struct tok *t, uint64_t *v)
{
	if (t->len == 0 || t->len > 19)
		return 0;
	uint64_t x = 0;
	for (size_t i = 0; i < t->len; i++) {
		if (t->s[i] < '0' || t->s[i] > '9')
			return 0;
		x = x * 10 + (uint64_t)(t->s[i] - '0');
	}
	*v = x;
	return 1;
}

static int to_real(const struct tok *t, double *v)
{
	char buf[32], *end;
	if (t->len == 0 || t->len >= sizeof buf)
		return 0;
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	if (strchr(buf, ','))  /* some locales write 12,5 */
		*strchr(buf, ',') = '.';
	*v = strtod(buf, &end);
	return *end == '\0' && *v >= 0;
}

/* A header names the columns: TID/LWP/SPID (or PID under top -H), %CPU, COMMAND. */
static int header(cpu_table *t, const struct tok *toks, size_t n)
{
	static const char *const tid_names[] = { "TID", "LWP", "SPID", NULL };
	static const char *const pid_names[] = { "PID", NULL };
	static const char *const tgid_names[] = { "TGID", NULL };
	static const char *const cpu_names[] = { "%CPU", "C", NULL };
	static const char *const cmd_names[] = { "COMMAND", "CMD", "Command", NULL };
	int tid = find(toks, n, tid_names), pid = find(toks, n, pid_names);
	int tgid = find(toks, n, tgid_names), cpu = find(toks, n, cpu_names);
	int cmd = find(toks, n, cmd_names);
	if (cmd == NONE || (tid == NONE && pid == NONE))
		return 0;
	static const char *const pidstat_names[] = { "%usr", "%system", NULL };
	if (tid == NONE) { /* top -H: PID is the thread; pidstat without -t: PID is a process */
		if (cpu == NONE)
			return 0;
		tid = pid;
		pid = NONE;
		t->source = find(toks, n, pidstat_names) != NONE ? CPU_PIDSTAT : CPU_TOP;
	} else {
		t->source = tgid != NONE ? CPU_PIDSTAT : CPU_PS;
		if (tgid != NONE)
			pid = tgid;
	}
	t->tid_col = tid;
	t->pid_col = pid;
	t->cpu_col = cpu;
	t->cmd_col = cmd;
	t->have_header = 1;
	return 1;
}

static void add(cpu_table *t, uint64_t tid, uint64_t pid, double cpu, int has_cpu,
		const char *name, size_t name_len)
{
	struct cpu_thread *c = get(t, tid);
	if (pid)
		c->pid = pid;
	if (!c->name || (name_len && strlen(c->name) != name_len) || memcmp(c->name, name, name_len)) {
		free(c->name); /* the latest name: threads rename themselves */
		c->name = xstrndup(name, name_len);
	}
	if (!has_cpu)
		return;
	c->samples++;
	c->sum += cpu;
	if (cpu > c->max)
		c->max = cpu;
}

/* ps TIME: [DD-]HH:MM:SS or MM:SS. */
static int is_cputime(const struct tok *t)
{
	size_t colons = 0, i = 0;
	while (i < t->len && t->s[i] >= '0' && t->s[i] <= '9')
		i++;
	if (i < t->len && t->s[i] == '-')
		i++;
	for (; i < t->len; i++) {
		if (t->s[i] == ':')
			colons++;
		else if (t->s[i] < '0' || t->s[i] > '9')
			return 0;
	}
	return colons >= 1 && colons <= 2 && t->s[t->len - 1] != ':';
}

/* ps rows without a header, in the shapes whose columns are known (the first row that fits
 * one fixes the shape for the rest of the table):
 *   pid tid pcpu comm                      ps -eLo pid,tid,pcpu,comm --no-headers
 *   UID PID PPID LWP C NLWP STIME TTY TIME CMD   ps -eLf h (C is %CPU, whole percent)
 *   PID LWP TTY TIME CMD                   ps -L h, ps -eL h (no %CPU) */
static int headerless_row(cpu_table *t, const struct in_line *line, const struct tok *toks, size_t n)
{
	uint64_t pid, tid, ignored;
	double cpu = 0;
	int has_cpu = 1;
	size_t name_at;
	if ((t->shape == PS_ANY || t->shape == PS_ELF) && n >= 10 && to_u64(&toks[1], &pid) &&
	    to_u64(&toks[2], &ignored) && to_u64(&toks[3], &tid) && to_real(&toks[4], &cpu) &&
	    to_u64(&toks[5], &ignored) && is_cputime(&toks[8])) {
		t->shape = PS_ELF;
		name_at = 9;
	} else if ((t->shape == PS_ANY || t->shape == PS_L) && n >= 5 && to_u64(&toks[0], &pid) &&
		   to_u64(&toks[1], &tid) && is_cputime(&toks[3])) {
		t->shape = PS_L;
		has_cpu = 0;
		name_at = 4;
	} else if ((t->shape == PS_ANY || t->shape == PS_PCPU) && n >= 4 && to_u64(&toks[0], &pid) &&
		   to_u64(&toks[1], &tid) && to_real(&toks[2], &cpu)) {
		t->shape = PS_PCPU;
		name_at = 3;
	} else {
		return 0;
	}
	t->source = CPU_PS;
	const char *name = toks[name_at].s;
	add(t, tid, pid, cpu, has_cpu, name, (size_t)(line->text + line->len - name));
	return 1;
}

int cpu_headerless(const char *text, size_t len)
{
	struct tok toks[MAX_TOKENS];
	size_t n = tokenize(text, len, toks);
	uint64_t v;
	double d;
	if (n >= 10 && to_u64(&toks[1], &v) && to_u64(&toks[2], &v) && to_u64(&toks[3], &v) &&
	    to_real(&toks[4], &d) && to_u64(&toks[5], &v) && is_cputime(&toks[8]))
		return 1;  /* ps -eLf */
	if (n < 4 || !to_u64(&toks[0], &v) || !to_u64(&toks[1], &v))
		return 0;
	return (n >= 5 && is_cputime(&toks[3])) || to_real(&toks[2], &d);  /* ps -L; ps -eLo */
}

void cpu_line(cpu_table *t, const struct in_line *line)
{
	struct tok toks[MAX_TOKENS];
	size_t n = tokenize(line->text, line->len, toks);
	const char *file = line->file;
	unsigned long ln = line->lineno;
	if (n == 0) {
		err_skip_line(t->errs, file, ln, "blank line");
		return;
	}
	if (n >= 2 && is(&toks[0], "top") && is(&toks[1], "-")) {
		err_skip_line(t->errs, file, ln, "top summary");
		return;
	}
	if (is(&toks[0], "Average:") || header(t, toks, n)) {
		err_skip_line(t->errs, file, ln, is(&toks[0], "Average:") ? "pidstat average" : "header");
		return;
	}
	uint64_t tid, pid = 0;
	double cpu = 0;
	if (!t->have_header) {
		if (headerless_row(t, line, toks, n))
			return;
		err_skip_line(t->errs, file, ln, "not a thread row");
		return;
	}
	if ((size_t)t->cmd_col >= n || (size_t)t->tid_col >= n) {
		err_skip_line(t->errs, file, ln, "not a thread row");
		return;
	}
	if (t->source == CPU_PIDSTAT && is(&toks[t->tid_col], "-")) {
		if (t->pid_col != NONE && (size_t)t->pid_col < n)
			to_u64(&toks[t->pid_col], &t->tgid);
		err_skip_line(t->errs, file, ln, "process row");
		return;
	}
	if (!to_u64(&toks[t->tid_col], &tid)) {
		err_skip_line(t->errs, file, ln, "not a thread row");
		return;
	}
	if (t->pid_col != NONE && (size_t)t->pid_col < n && !to_u64(&toks[t->pid_col], &pid))
		pid = t->source == CPU_PIDSTAT ? t->tgid : 0;
	int has_cpu = t->cpu_col != NONE && (size_t)t->cpu_col < n && to_real(&toks[t->cpu_col], &cpu);
	if (t->cpu_col != NONE && !has_cpu) {
		err_bad_line(t->errs, file, ln, "bad %%CPU");
		return;
	}
	const char *name = toks[t->cmd_col].s;
	size_t name_len = (size_t)(line->text + line->len - name);
	while (name_len && (name[name_len - 1] == ' ' || name[name_len - 1] == '\t'))
		name_len--;
	if (name_len >= 3 && memcmp(name, "|__", 3) == 0) { /* pidstat draws threads as |__name */
		name += 3;
		name_len -= 3;
	}
	add(t, tid, pid, cpu, has_cpu, name, name_len);
}
