/* fuzz_input: the line reader over raw bytes, zstd frames made from the input (whole, cut
 * short, or with a byte changed) and the same file read twice in a row.
 * First byte: 0-63 raw (the whole input), 64-127 zstd, 128-191 zstd cut short, 192-255 zstd with a byte flipped. */
#include "fuzz.h"

#include <zstd.h>

static void read_all(char *path)
{
	char *paths[2] = { path, path };
	in_reader *in = in_open(paths, 2);
	struct in_line line;
	unsigned long last = 0;
	while (in_next(in, &line)) {
		if (line.text[line.len] != '\0' || line.lineno == 0 || (line.lineno != 1 && line.lineno != last + 1))
			abort(); /* NUL-terminated, numbered 1, 2, ... within each file */
		last = line.lineno;
	}
	in_failed(in);
	in_bytes(in);
	in_close(in);
	size_t len;
	free(in_slurp(path, &len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	unsigned mode = data[0] >> 6;
	const uint8_t *body = data;  /* raw: the whole input, so zstd seeds stay zstd */
	size_t blen = size;
	void *buf = NULL;
	if (mode > 0) {
		body = data + 1;
		blen = size - 1;
		size_t bound = ZSTD_compressBound(blen);
		buf = malloc(bound);
		if (!buf)
			return 0;
		size_t z = ZSTD_compress(buf, bound, body, blen, 1);
		if (ZSTD_isError(z)) {
			free(buf);
			return 0;
		}
		unsigned pick = blen ? body[blen / 2] : 0;
		if (mode == 2)
			z = z * (pick & 0x3f) / 64;  /* a stream cut short */
		else if (mode == 3 && z > 4)
			((uint8_t *)buf)[4 + pick % (z - 4)] ^= (uint8_t)(1u << (pick & 7));
		body = buf;
		blen = z;
	}
	int fd;
	char path[64];
	if (fuzz_file(body, blen, &fd, path, sizeof path) == 0) {
		read_all(path);
		close(fd);
	}
	free(buf);
	return 0;
}
