/* fuzz_tput: log lines (ANSI, rank and time prefixes, "\r" frames) through every preset,
 * and the number, unit, prefix and timestamp readers on each line alone. */
#include "fuzz.h"

#include <math.h>

#include "tput.h"

static void on_point(void *ctx, enum tput_result res, const struct tput_point *pt, const char *reason)
{
	(void)ctx;
	if (res == TPUT_POINT && (!pt || pt->unit >= TPUT_NUNITS || pt->value < 0))
		abort();
	if (res == TPUT_BAD && !reason)
		abort();
}

static void on_line(void *ctx, struct in_line *line)
{
	double v;
	long rank;
	enum tput_unit unit;
	int invert;
	tput_parse_number(line->text, line->len, &v);
	tput_unit_parse(line->text, line->len, &unit, &v, &invert);
	tput_rank_prefix(line->text, line->len, &rank);
	tput_timestamp(line->text, line->len, &v);
	tput_ex_line(ctx, line->text, line->len, on_point, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Compiling every preset is costly and an extractor keeps no state between lines. */
	static tput_ex *ex;
	if (!ex) {
		ex = tput_ex_new();
		for (size_t i = 0; i < tput_npresets; i++)
			tput_ex_add_preset(ex, i);
	}
	fuzz_lines(data, size, "log", on_line, ex);
	return 0;
}
