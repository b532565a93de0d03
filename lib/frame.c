/* frame: FILE is the last parenthesised group at the end, since NAME may hold parentheses. */
#include "frame.h"
#include "xalloc.h"

#include <string.h>

const char *const frame_key_names[] = { "frame", "function", "file", "lib", "line", "root",
					"thread", "process", "category", "source", "window", NULL };

int frame_key_is_stack_level(enum frame_key key)
{
	return key == KEY_ROOT || key == KEY_THREAD || key == KEY_PROCESS || key == KEY_SOURCE ||
	       key == KEY_WINDOW;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int is_digits(const char *s, size_t len)
{
	if (len == 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int is_hex_address(const char *s, size_t len)
{
	if (len < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	for (size_t i = 2; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return 0;
	return 1;
}

/* A shared library or executable name rather than a source file. */
static int looks_native(const char *file, size_t len, int has_line)
{
	if (len == 0 || file[0] == '<')
		return 0;
	if (ends_with(file, len, ".py") || ends_with(file, len, ".pyx") || ends_with(file, len, ".pyw"))
		return 0;
	if (!has_line)
		return 1;
	/* Debug info gives native frames a C/C++ source and line. */
	static const char *const sources[] = { ".c", ".cc", ".cpp", ".cxx", ".h", ".hpp", ".cu", ".rs", NULL };
	for (int i = 0; sources[i]; i++)
		if (ends_with(file, len, sources[i]))
			return 1;
	return 0;
}

static int thread_frame(const char *s, size_t len, struct frame_parts *p)
{
	if (len < 10 || memcmp(s, "thread (", 8) != 0)
		return 0;
	const char *close = memchr(s + 8, ')', len - 8);
	if (!close || close == s + 8)
		return 0;
	size_t after = (size_t)(close - s) + 1;
	if (after != len && (after + 2 > len || s[after] != ':' || s[after + 1] != ' '))
		return 0;
	p->kind = FRAME_THREAD;
	p->id = s + 8;
	p->id_len = (size_t)(close - (s + 8));
	p->name = after == len ? s + len : s + after + 2;
	p->name_len = after == len ? 0 : len - after - 2;
	return 1;
}

static int process_frame(const char *s, size_t len, struct frame_parts *p)
{
	if (len < 12 || memcmp(s, "process ", 8) != 0 || s[len - 1] != '"')
		return 0;
	size_t i = 8;
	while (i < len && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 8 || i + 2 >= len || s[i] != ':' || s[i + 1] != '"')
		return 0;
	p->kind = FRAME_PROCESS;
	p->id = s + 8;
	p->id_len = i - 8;
	p->name = s + i + 2;
	p->name_len = len - (i + 2) - 1;
	return 1;
}

static int is_library_name(const char *s, size_t len)
{
	for (size_t i = 0; i + 3 <= len; i++)
		if (memcmp(s + i, ".so", 3) == 0 && (i + 3 == len || s[i + 3] == '.'))
			return 1;
	return ends_with(s, len, ".dylib") || ends_with(s, len, ".dll") || ends_with(s, len, ".pyd");
}

void frame_split(const char *s, size_t len, struct frame_parts *p)
{
	memset(p, 0, sizeof *p);
	p->kind = FRAME_CODE;
	p->name = s;
	p->name_len = len;
	p->file = p->line = p->id = s + len;
	if (thread_frame(s, len, p) || process_frame(s, len, p))
		return;
	if (len >= 2 && s[0] == '[' && s[len - 1] == ']') {
		/* "[libcuda.so]" is a collapsed run of addresses; other brackets are tags. */
		if (is_library_name(s + 1, len - 2)) {
			p->file = s + 1;
			p->file_len = len - 2;
			p->native = p->address = 1;
		} else {
			p->kind = FRAME_PSEUDO;
		}
		return;
	}
	if (len < 4 || s[len - 1] != ')')
		return;
	/* Walk back to the '(' that opens the final group. */
	size_t depth = 0, i = len;
	while (i-- > 0) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (depth != 0 || i < 2 || s[i - 1] != ' ' || i + 2 == len)
		return; /* "operator()" and friends: no FILE */
	const char *inner = s + i + 1;
	size_t inner_len = len - i - 2;
	p->name_len = i - 1;
	p->file = inner;
	p->file_len = inner_len;
	const char *colon = NULL;
	for (size_t k = inner_len; k-- > 0;)
		if (inner[k] == ':') {
			colon = inner + k;
			break;
		}
	if (colon && is_digits(colon + 1, (size_t)(inner + inner_len - colon - 1))) {
		p->file_len = (size_t)(colon - inner);
		p->line = colon + 1;
		p->line_len = (size_t)(inner + inner_len - colon - 1);
	}
	p->native = looks_native(p->file, p->file_len, p->line_len > 0);
	p->address = is_hex_address(p->name, p->name_len);
}

static void put(char **buf, size_t *cap, size_t *used, const char *s, size_t len)
{
	*buf = xgrow(*buf, cap, *used + len + 1, 1);
	memcpy(*buf + *used, s, len);
	*used += len;
	(*buf)[*used] = '\0';
}

long frame_key_text(enum frame_key key, const char *frame, size_t len, char **buf, size_t *cap)
{
	struct frame_parts p;
	size_t used = 0;
	frame_split(frame, len, &p);
	if (p.kind != FRAME_CODE)
		return -1;
	switch (key) {
	case KEY_FRAME:
		put(buf, cap, &used, frame, len);
		break;
	case KEY_FUNCTION:
		put(buf, cap, &used, p.name, p.name_len);
		if (p.file_len && p.name_len < len) { /* not a collapsed "[lib]" */
			put(buf, cap, &used, " (", 2);
			put(buf, cap, &used, p.file, p.file_len);
			put(buf, cap, &used, ")", 1);
		}
		break;
	case KEY_FILE:
	case KEY_LIB:
		if (!p.file_len || (key == KEY_LIB && !p.native))
			return -1;
		put(buf, cap, &used, p.file, p.file_len);
		break;
	case KEY_LINE:
		if (!p.file_len)
			return -1;
		put(buf, cap, &used, p.file, p.file_len);
		if (p.line_len) {
			put(buf, cap, &used, ":", 1);
			put(buf, cap, &used, p.line, p.line_len);
		}
		break;
	default:
		return -1;
	}
	return (long)used;
}

void frame_lib_basename(const char *lib, size_t len, const char **base, size_t *base_len)
{
	const char *slash = NULL;
	for (size_t i = len; i-- > 0;)
		if (lib[i] == '/') {
			slash = lib + i;
			break;
		}
	const char *b = slash ? slash + 1 : lib;
	size_t n = len - (size_t)(b - lib);
	for (size_t i = 0; i + 3 <= n; i++)
		if (memcmp(b + i, ".so", 3) == 0 && (i + 3 == n || b[i + 3] == '.')) {
			n = i + 3;
			break;
		}
	*base = b;
	*base_len = n;
}

/* Shortening, for chart labels and text tables: characters, not bytes (UTF-8). */
static int is_cont(unsigned char ch) { return (ch & 0xC0) == 0x80; }

static size_t chars(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += !is_cont((unsigned char)s[i]);
	return n;
}

/* Byte offset of the character numbered k (k may be the count: the end). */
static size_t char_offset(const char *s, size_t len, size_t k)
{
	size_t i = 0;
	for (; i < len && k > 0; k--)
		for (i++; i < len && is_cont((unsigned char)s[i]); i++)
			;
	return i;
}

static size_t put_at(char *buf, size_t cap, size_t at, const char *s, size_t len)
{
	if (at + len >= cap)
		len = at < cap ? cap - 1 - at : 0;
	memcpy(buf + at, s, len);
	return at + len;
}

/* Where a C++ name's own last part starts: after its last "::" outside <> and (), or 0. */
static size_t last_component(const char *name, size_t len)
{
	size_t at = 0;
	int depth = 0;
	for (size_t i = 0; i + 1 < len; i++) {
		char c = name[i];
		depth += (c == '<' || c == '(') - (c == '>' || c == ')');
		if (depth == 0 && c == ':' && name[i + 1] == ':')
			at = i + 2;
	}
	return at;
}

/* A C++ frame too long for its label keeps its function: "...::pack (lib.so)", the
 * namespaces elided, then as much of the file as fits. Returns 0 when name has no "::". */
static size_t shorten_qualified(const char *name, size_t nlen, const char *file, size_t flen, size_t max,
				char *out, size_t cap)
{
	size_t k = last_component(name, nlen);
	if (k == 0 || max < 8)
		return 0;
	size_t n = put_at(out, cap, 0, "...::", 5);
	size_t comp_chars = chars(name + k, nlen - k);
	size_t room = max - 5;
	n = put_at(out, cap, n, name + k, char_offset(name + k, nlen - k, comp_chars < room ? comp_chars : room));
	size_t used = chars(out, n);
	if (flen && used + 3 + 8 <= max) {  /* " (" + at least "...xxxxx" + ")" */
		size_t fchars = chars(file, flen), froom = max - used - 3;
		n = put_at(out, cap, n, " (", 2);
		if (fchars > froom) {
			n = put_at(out, cap, n, "...", 3);
			size_t skip = char_offset(file, flen, fchars - (froom - 3));
			n = put_at(out, cap, n, file + skip, flen - skip);
		} else {
			n = put_at(out, cap, n, file, flen);
		}
		n = put_at(out, cap, n, ")", 1);
	}
	return n;
}

size_t frame_shorten(const char *s, size_t len, size_t max, char *buf, size_t cap)
{
	size_t n = 0;
	if (cap == 0)
		return 0;
	/* "NAME (DIR/FILE:LINE)" -> "NAME (FILE:LINE)": the file name says more than its path. */
	const char *open = len > 1 && s[len - 1] == ')' ? memrchr(s, '(', len) : NULL;
	const char *slash = open ? memrchr(open, '/', (size_t)(s + len - open)) : NULL;
	if (slash && chars(s, len) > max) {
		n = put_at(buf, cap, n, s, (size_t)(open - s) + 1);
		n = put_at(buf, cap, n, slash + 1, (size_t)(s + len - slash - 1));
	} else {
		n = put_at(buf, cap, n, s, len);
	}
	size_t c = chars(buf, n);
	const char *paren = n > 1 && buf[n - 1] == ')' ? memrchr(buf, '(', n) : NULL;
	size_t name_chars = paren ? chars(buf, (size_t)(paren - buf)) + 1 : 0;
	size_t q = 0;
	if (c > max && paren && name_chars + 8 > max) {
		char tmp[1024];
		size_t name_len = (size_t)(paren - buf), file_len = n - name_len - 2;
		while (name_len && buf[name_len - 1] == ' ')
			name_len--;
		q = shorten_qualified(buf, name_len, paren + 1, file_len, max, tmp, sizeof tmp);
		if (q) {
			n = put_at(buf, cap, 0, tmp, q);
			buf[n] = '\0';
			return n;
		}
	}
	if (c > max && paren && name_chars + 8 <= max) {
		/* The whole name, and as much of the file's end (its line) as fits: "f (...e.py:3)". */
		size_t tail = max - name_chars - 3, start = (size_t)(paren - buf) + 1;
		size_t file_chars = chars(buf + start, n - start);
		size_t t = start + char_offset(buf + start, n - start, file_chars - tail);
		memmove(buf + start + 3, buf + t, n - t);
		memcpy(buf + start, "...", 3);
		n = start + 3 + (n - t);
	} else if (c > max && max >= 5) {
		/* Keep the start (the name) and the end (file and line), elide the middle. */
		size_t keep = max - 3, head = (keep + 1) / 2, tail = keep - head;
		size_t h = char_offset(buf, n, head), t = char_offset(buf, n, c - tail);
		memmove(buf + h + 3, buf + t, n - t);
		memcpy(buf + h, "...", 3);
		n = h + 3 + (n - t);
	} else if (c > max) {
		n = char_offset(buf, n, max);
	}
	buf[n] = '\0';
	return n;
}
