/* toptab: sift-top's ranked table, built from a sum by key. */
#include "toptab.h"

const char *const toptab_columns[TOPTAB_NCOLS] = {
	[TOPTAB_SELF] = "self", [TOPTAB_SELF_PCT] = "self_pct", [TOPTAB_TOTAL] = "total",
	[TOPTAB_TOTAL_PCT] = "total_pct", [TOPTAB_CUM_PCT] = "cum_pct",
};

static const enum table_type toptab_types[TOPTAB_NCOLS] = {
	[TOPTAB_SELF] = TABLE_UINT, [TOPTAB_SELF_PCT] = TABLE_PCT, [TOPTAB_TOTAL] = TABLE_UINT,
	[TOPTAB_TOTAL_PCT] = TABLE_PCT, [TOPTAB_CUM_PCT] = TABLE_PCT,
};

table *toptab_table(const agg *a, const struct agg_spec *keys, enum agg_order order,
		    unsigned long long limit, uint64_t all)
{
	struct table_column cols[2 + TOPTAB_NCOLS];
	size_t nk = keys->nkeys;
	for (size_t i = 0; i < nk; i++)
		cols[i] = (struct table_column){ frame_key_names[keys->keys[i]], TABLE_STR, 0 };
	for (size_t c = 0; c < TOPTAB_NCOLS; c++)
		cols[nk + c] = (struct table_column){ toptab_columns[c], toptab_types[c], 0 };
	table *t = table_new(cols, nk + TOPTAB_NCOLS);
	uint64_t cum = 0; /* of the sort column, as pprof's sum% */
	const struct agg_row *rows = agg_rows(a);
	size_t n = agg_row_count(a);
	int per_window = nk == 2 && (keys->keys[0] == KEY_WINDOW || keys->keys[1] == KEY_WINDOW);
	for (size_t i = 0, shown = 0, run_end = 0; i < n; i++, shown++) {
		size_t len;
		const char *key = intern_str(agg_keys(a), rows[i].key, &len);
		if (per_window && i == run_end) {
			run_end = agg_window_run(a, i, &all);
			shown = cum = 0;
		}
		if (limit && shown >= limit)
			continue;
		table_add_row(t);
		table_set_str(t, 0, key, len);
		if (nk == 2) {
			key = intern_str(agg_keys(a), rows[i].key2, &len);
			table_set_str(t, 1, key, len);
		}
		table_set_uint(t, nk + TOPTAB_SELF, rows[i].self);
		table_set_real(t, nk + TOPTAB_SELF_PCT, table_pct(rows[i].self, all));
		table_set_uint(t, nk + TOPTAB_TOTAL, rows[i].total);
		table_set_real(t, nk + TOPTAB_TOTAL_PCT, table_pct(rows[i].total, all));
		cum += order == AGG_BY_SELF ? rows[i].self : rows[i].total;
		table_set_real(t, nk + TOPTAB_CUM_PCT, table_pct(cum, all));
	}
	return t;
}
