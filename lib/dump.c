/* dump: a line-driven state machine over saved `py-spy dump` output, noise and all. */
#include "dump.h"
#include "intern.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

const char *const dump_status_names[] = { "idle", "active", "active+gil", NULL };

enum mode { M_NONE, M_FRAMES, M_LOCALS, M_ERROR };

/* A header-given process: its pid, command line and the pseudo-frame built from them. */
struct proc_slot { char *pid, *cmd, *frame; size_t pid_len, cmd_len, frame_len; int set; };

struct dump_parser {
	struct err_lines *errs;
	dump_fn *fn;
	void *ctx;
	struct dump_stats stats;

	enum mode mode;
	size_t base;                /* indentation of the thread line (markdown, pasting) */
	struct proc_slot self, parent;
	int after_dashes;           /* a subprocess section follows: same snapshot */
	int after_stack_for;        /* `ray stack`'s "Stack dump for" began this process */
	int self_threads;           /* threads seen since the process header */
	const char *self_file;      /* where the process header was */
	unsigned long self_lineno;
	int snapshot_open;          /* threads now belong to stats.snapshots */
	uint64_t *snap_tids;        /* hashes of the tids in the open snapshot */
	size_t nsnap_tids, snap_tids_cap;

	int in_thread;
	char *buf;                  /* the open thread's strings */
	size_t used, cap;
	size_t tid_off, tid_len, name_off, name_len, tframe_off, tframe_len;
	int has_name;
	enum dump_status status;
	size_t *frame_off;          /* pairs: offset, length */
	size_t nframes, frame_cap;
	struct dump_text *frames;   /* handed out */
	size_t frames_cap;
	int cut_off;
	const char *file;
	unsigned long lineno;
	const char *last_file;      /* to notice a new file */
};

dump_parser *dump_new(struct err_lines *errs, dump_fn *fn, void *ctx)
{
	dump_parser *d = xcalloc(1, sizeof *d);
	d->errs = errs;
	d->fn = fn;
	d->ctx = ctx;
	return d;
}

static void proc_clear(struct proc_slot *p)
{
	free(p->pid);
	free(p->cmd);
	free(p->frame);
	memset(p, 0, sizeof *p);
}

void dump_free(dump_parser *d)
{
	if (!d)
		return;
	proc_clear(&d->self);
	proc_clear(&d->parent);
	free(d->snap_tids);
	free(d->buf);
	free(d->frame_off);
	free(d->frames);
	free(d);
}

const struct dump_stats *dump_get_stats(const dump_parser *d) { return &d->stats; }

size_t dump_strip_ansi(char *t, size_t len)
{
	if (!memchr(t, '\x1b', len))
		return len;
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (t[i] != '\x1b') {
			t[o++] = t[i];
			continue;
		}
		if (i + 1 < len && t[i + 1] == '[') { /* CSI: parameters, then a final byte @..~ */
			i += 2;
			while (i < len && !(t[i] >= '@' && t[i] <= '~'))
				i++;
		} else if (i + 1 < len) {
			i++; /* a two-byte escape */
		}
	}
	t[o] = '\0';
	return o;
}

static size_t put(dump_parser *d, const char *s, size_t len)
{
	d->buf = xgrow(d->buf, &d->cap, d->used + len + 1, 1);
	size_t off = d->used;
	memcpy(d->buf + off, s, len);
	d->used += len;
	d->buf[d->used] = '\0';
	return off;
}

/* A thread's processes, outermost first: the parent's and its own, where the dump named them. */
static void fill_procs(const dump_parser *d, struct dump_thread *t)
{
	const struct proc_slot *levels[2] = { &d->parent, &d->self };
	for (int i = 0; i < 2; i++) {
		if (!levels[i]->set)
			continue;
		t->procs[t->nprocs].pid = (struct dump_text){ levels[i]->pid, levels[i]->pid_len };
		t->procs[t->nprocs].cmd = (struct dump_text){ levels[i]->cmd, levels[i]->cmd_len };
		t->procs[t->nprocs].frame = (struct dump_text){ levels[i]->frame, levels[i]->frame_len };
		t->nprocs++;
	}
}

static void emit(dump_parser *d)
{
	if (!d->in_thread)
		return;
	d->in_thread = 0;
	struct dump_thread t = { 0 };
	t.tid = (struct dump_text){ d->buf + d->tid_off, d->tid_len };
	t.name = (struct dump_text){ d->buf + d->name_off, d->name_len };
	t.has_name = d->has_name;
	t.thread_frame = (struct dump_text){ d->buf + d->tframe_off, d->tframe_len };
	t.status = d->status;
	fill_procs(d, &t);
	d->frames = xgrow(d->frames, &d->frames_cap, d->nframes + 1, sizeof *d->frames);
	for (size_t i = 0; i < d->nframes; i++)
		d->frames[i] = (struct dump_text){ d->buf + d->frame_off[2 * i], d->frame_off[2 * i + 1] };
	t.frames = d->frames;
	t.nframes = d->nframes;
	t.snapshot = d->stats.snapshots;
	t.cut_off = d->cut_off;
	t.file = d->file;
	t.lineno = d->lineno;
	d->stats.threads++;
	d->fn(d->ctx, &t);
}

/* A process whose header no thread followed: said once, so it can be named a fragment. */
static void emit_header_only(dump_parser *d)
{
	if (!d->self.set || d->self_threads)
		return;
	d->self_threads = 1;
	struct dump_thread t = { 0 };
	t.header_only = 1;
	fill_procs(d, &t);
	t.tid = t.name = t.thread_frame = (struct dump_text){ "", 0 };
	t.snapshot = d->stats.snapshots;
	t.file = d->self_file;
	t.lineno = d->self_lineno;
	d->fn(d->ctx, &t);
}

static void new_snapshot(dump_parser *d)
{
	d->stats.snapshots++;
	d->snapshot_open = 1;
	d->nsnap_tids = 0;
}

static void proc_set(struct proc_slot *p, const char *pid, size_t pid_len, const char *cmd, size_t cmd_len)
{
	proc_clear(p);
	p->pid = xstrndup(pid, pid_len);
	p->pid_len = pid_len;
	p->cmd = xstrndup(cmd, cmd_len);
	p->cmd_len = cmd_len;
	p->frame_len = pid_len + cmd_len + 11;
	p->frame = xmalloc(p->frame_len + 1);
	memcpy(p->frame, "process ", 8);
	memcpy(p->frame + 8, pid, pid_len);
	memcpy(p->frame + 8 + pid_len, ":\"", 2);
	memcpy(p->frame + 10 + pid_len, cmd, cmd_len);
	memcpy(p->frame + 10 + pid_len + cmd_len, "\"", 2);
	p->set = 1;
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* "Process PID: CMDLINE" (PID may be a placeholder, CMDLINE empty). */
static int parse_process(const char *s, size_t len, const char **pid, size_t *pid_len,
			 const char **cmd, size_t *cmd_len)
{
	if (!starts(s, len, "Process "))
		return 0;
	const char *p = s + 8, *end = s + len;
	const char *colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || colon == p || memchr(p, ' ', (size_t)(colon - p)))
		return 0;
	*pid = p;
	*pid_len = (size_t)(colon - p);
	p = colon + 1;
	while (p < end && *p == ' ')
		p++;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*cmd = p;
	*cmd_len = (size_t)(end - p);
	return 1;
}

/* `ray stack`'s "Stack dump for USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND"
 * (a ps aux line): the PID and the COMMAND. */
static int parse_stack_for(const char *s, size_t len, const char **pid, size_t *pid_len,
			   const char **cmd, size_t *cmd_len)
{
	if (!starts(s, len, "Stack dump for "))
		return 0;
	const char *p = s + 15, *end = s + len, *field[11];
	for (int f = 0; f < 11; f++) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == end)
			return 0;
		field[f] = p;
		while (f < 10 && p < end && *p != ' ' && *p != '\t')
			p++;
	}
	const char *q = field[1];
	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == field[1] || (*q != ' ' && *q != '\t'))
		return 0;
	*pid = field[1];
	*pid_len = (size_t)(q - field[1]);
	while (end > field[10] && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*cmd = field[10];
	*cmd_len = (size_t)(end - field[10]);
	return 1;
}

static int is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "Thread TID (STATUS): "NAME"" or "Thread TID (STATUS)". 1 parsed, 0 not a thread line. */
static int parse_thread(dump_parser *d, const char *s, size_t len)
{
	if (!starts(s, len, "Thread "))
		return 0;
	const char *p = s + 7, *end = s + len;
	const char *tid = p;
	int hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	if (hex) {
		p += 2;
		while (p < end && is_hex_digit(*p))
			p++;
		if (p == tid + 2)
			return 0;
	} else {
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == tid)
			return 0;
	}
	size_t tid_len = (size_t)(p - tid);
	if (end - p < 3 || p[0] != ' ' || p[1] != '(')
		return 0;
	const char *st = p + 2;
	const char *close = memchr(st, ')', (size_t)(end - st));
	if (!close)
		return 0;
	size_t st_len = (size_t)(close - st);
	int status = -1;
	for (int i = 0; dump_status_names[i]; i++)
		if (strlen(dump_status_names[i]) == st_len && memcmp(st, dump_status_names[i], st_len) == 0)
			status = i;
	if (status < 0)
		return 0;
	p = close + 1;
	const char *name = NULL;
	size_t name_len = 0;
	if (p < end) {
		/* ': "NAME"'; the name may hold quotes, so it ends at the last one. */
		if (end - p < 4 || p[0] != ':' || p[1] != ' ' || p[2] != '"' || end[-1] != '"')
			return 0;
		name = p + 3;
		name_len = (size_t)(end - 1 - name);
	}
	d->used = 0;
	/* room for every string below at once: the thread frame copies from the buffer itself */
	d->buf = xgrow(d->buf, &d->cap, 2 * (tid_len + name_len) + 16, 1);
	d->nframes = 0;
	d->in_thread = 1;
	d->cut_off = 0;
	d->status = (enum dump_status)status;
	d->has_name = name != NULL;
	d->tid_off = put(d, tid, tid_len);
	d->tid_len = tid_len;
	if (hex) /* one spelling for hex ids, as py-spy record writes them */
		for (size_t i = 0; i < tid_len; i++)
			d->buf[d->tid_off + i] = (char)(d->buf[d->tid_off + i] | 0x20);
	d->name_off = name ? put(d, name, name_len) : d->used;
	d->name_len = name_len;
	d->tframe_off = put(d, "thread (", 8);
	put(d, d->buf + d->tid_off, tid_len);
	put(d, ")", 1);
	if (name) {
		put(d, ": ", 2);
		put(d, d->buf + d->name_off, name_len);
	}
	d->tframe_len = d->used - d->tframe_off;
	return 1;
}

static void begin_thread_snapshot(dump_parser *d)
{
	uint64_t h = intern_hash(d->buf + d->tid_off, d->tid_len);
	int repeat = 0;
	for (size_t i = 0; i < d->nsnap_tids && !repeat; i++)
		repeat = d->snap_tids[i] == h;
	/* Headerless concatenated dumps: a thread seen again starts the next snapshot. */
	if (!d->snapshot_open || repeat)
		new_snapshot(d);
	d->snap_tids = xgrow(d->snap_tids, &d->snap_tids_cap, d->nsnap_tids + 1, sizeof *d->snap_tids);
	d->snap_tids[d->nsnap_tids++] = h;
}

static int looks_frame(const char *s, size_t len)
{
	return len >= 4 && s[len - 1] == ')' && memchr(s, '(', len) && s[0] != ' ';
}

static void end_file(dump_parser *d)
{
	emit(d);
	emit_header_only(d);
	d->mode = M_NONE;
	d->snapshot_open = 0;
	d->after_dashes = 0;
	d->after_stack_for = 0;
	proc_clear(&d->self);
	proc_clear(&d->parent);
}

/* A process header: "Parent Process", `ray stack`'s "Stack dump for" or "Process". */
static int process_line(dump_parser *d, const char *c, size_t clen, const char *file, unsigned long ln)
{
	const char *pid, *cmd;
	size_t pid_len, cmd_len;
	if (starts(c, clen, "Parent Process ") && parse_process(c + 7, clen - 7, &pid, &pid_len, &cmd, &cmd_len)) {
		emit(d);
		proc_set(&d->parent, pid, pid_len, cmd, cmd_len);
		d->mode = M_NONE;
		return 1;
	}
	int stack_for = parse_stack_for(c, clen, &pid, &pid_len, &cmd, &cmd_len);
	if (stack_for || parse_process(c, clen, &pid, &pid_len, &cmd, &cmd_len)) {
		emit(d);
		/* py-spy's own header after `ray stack`'s line names the same process */
		int same = !stack_for && d->after_stack_for && d->self.set && d->self.pid_len == pid_len &&
			memcmp(d->self.pid, pid, pid_len) == 0;
		if (!same)
			emit_header_only(d);
		if (!d->after_dashes && !same)
			new_snapshot(d);
		d->after_dashes = 0;
		d->after_stack_for = stack_for;
		proc_set(&d->self, pid, pid_len, cmd, cmd_len);
		proc_clear(&d->parent);
		d->self_threads = 0;
		d->self_file = file;
		d->self_lineno = ln;
		d->mode = M_NONE;
		return 1;
	}
	return 0;
}

void dump_line(dump_parser *d, struct in_line *line)
{
	if (line->lineno == 1 && d->last_file)
		end_file(d);
	d->last_file = line->file;
	size_t len = dump_strip_ansi(line->text, line->len);
	line->len = len;
	const char *s = line->text;
	size_t indent = 0, i = 0;
	for (; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
		indent += s[i] == '\t' ? 4 : 1;
	/* py-spy 0.1 indented a frame by a tab and a space */
	if (i >= 2 && s[i - 2] == '\t' && s[i - 1] == ' ' && d->in_thread && indent == d->base + 5)
		indent--;
	const char *c = s + i;
	size_t clen = len - i;
	while (clen && (c[clen - 1] == ' ' || c[clen - 1] == '\t'))
		clen--;
	const char *file = line->file;
	unsigned long ln = line->lineno;

	if (clen == 0) {
		err_skip_line(d->errs, file, ln, "blank line");
		return;
	}
	if (starts(c, clen, "Thread ")) {
		emit(d);
		if (parse_thread(d, c, clen)) {
			d->after_stack_for = 0;
			d->self_threads++;
			d->base = indent;
			d->mode = M_FRAMES;
			d->file = file;
			d->lineno = ln;
			begin_thread_snapshot(d);
			return;
		}
		d->mode = M_NONE;
		err_bad_line(d->errs, file, ln, "%s", line->unterminated ? "thread line cut off" :
			     "bad thread line");
		return;
	}
	if (process_line(d, c, clen, file, ln))
		return;
	if (starts(c, clen, "Python v")) {
		emit(d);
		d->mode = M_NONE;
		return;
	}
	if (starts(c, clen, "---")) {
		emit(d);
		size_t dashes = 0;
		while (dashes < clen && c[dashes] == '-')
			dashes++;
		/* py-spy draws a rule of dashes before each subprocess; "--- dump N ---" is ours. */
		d->after_dashes = dashes == clen && d->snapshot_open;
		if (!d->after_dashes)
			d->snapshot_open = 0;
		d->mode = M_NONE;
		err_skip_line(d->errs, file, ln, "separator");
		return;
	}
	if (starts(c, clen, "Error:") || starts(c, clen, "Caused by:")) {
		emit(d);
		d->mode = M_ERROR;
		err_skip_line(d->errs, file, ln, "py-spy error");
		return;
	}
	if (d->mode == M_ERROR) {
		err_skip_line(d->errs, file, ln, "py-spy error");
		return;
	}
	if (!d->in_thread) {
		err_skip_line(d->errs, file, ln, "not part of a dump");
		return;
	}
	if (indent == d->base + 4 && looks_frame(c, clen)) {
		d->frame_off = xgrow(d->frame_off, &d->frame_cap, 2 * d->nframes + 2, sizeof *d->frame_off);
		d->frame_off[2 * d->nframes] = put(d, c, clen);
		d->frame_off[2 * d->nframes + 1] = clen;
		d->nframes++;
		d->mode = M_FRAMES;
		return;
	}
	if (indent == d->base + 8 && ((clen == 10 && memcmp(c, "Arguments:", 10) == 0) ||
				      (clen == 7 && memcmp(c, "Locals:", 7) == 0))) {
		d->mode = M_LOCALS;
		err_skip_line(d->errs, file, ln, "locals");
		return;
	}
	if (d->mode == M_LOCALS) { /* a repr may span lines at any indentation (tensors, frames) */
		err_skip_line(d->errs, file, ln, "locals");
		return;
	}
	if (line->unterminated && indent >= d->base + 4) {
		d->cut_off = 1;
		d->stats.cut_off++;
		err_bad_line(d->errs, file, ln, "snapshot cut off: thread %.*s keeps %zu frame%s",
			     (int)d->tid_len, d->buf + d->tid_off, d->nframes, d->nframes == 1 ? "" : "s");
		return;
	}
	if (indent == d->base + 4) {
		err_bad_line(d->errs, file, ln, "not a frame");
		return;
	}
	err_skip_line(d->errs, file, ln, "not part of a dump");
}

void dump_finish(dump_parser *d)
{
	end_file(d);
}
