/* lit: one literal by a SIMD "packed pair" scan, 2..128 by Teddy (nibble fingerprints through
 * pshufb, SSSE3 or AVX2), otherwise (and on other CPUs) a first-byte/bigram filtered scan.
 * Every candidate is confirmed by memcmp inside [text, text + len); SIMD loads stay inside it
 * and the last partial block is copied to a padded local buffer. */
#include "lit.h"
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LIT_X86 1
#else
#define LIT_X86 0
#endif

#define LIT_MAXLEN 255
#define LIT_TEDDY_MAX 128 /* more literals than this: the scalar scan */
#define LIT_BUCKETS 8
#define LIT_FPMAX 3 /* fingerprint bytes */
#define LIT_FP_BITS 9
#define LIT_FP_SLOTS (1u << LIT_FP_BITS) /* the fingerprint hash: four times LIT_TEDDY_MAX */

enum lit_method { LIT_NONE, LIT_SCALAR, LIT_MEMCHR, LIT_PAIR_SSE2, LIT_PAIR_AVX2, LIT_TEDDY_SSSE3, LIT_TEDDY_AVX2 };

struct lit {
	unsigned char *text;
	size_t len;
	unsigned id;
	size_t off; /* where its fingerprint starts (Teddy) */
	uint64_t head, headmask; /* its first (up to) 8 bytes as loaded from memory, and which */
};

struct lit_set {
	struct lit *lits;
	size_t n, cap;
	int portable, sse2, ssse3, avx2; /* what lit_new found the CPU can do */
	enum lit_method method;
	size_t minlen;
	/* scalar: literals by first byte (in the order added), bytes that start one, and the
	 * first two bytes of each (a one-byte literal marks every pair it begins) */
	uint32_t byfirst_start[257];
	uint32_t *byfirst;
	unsigned char first[256];
	uint64_t bigram[65536 / 64];
	/* packed pair: two positions of the literal with rare bytes */
	size_t pair1, pair2;
	/* Teddy: m fingerprint bytes, nibble tables per byte, literals by bucket */
	unsigned m;
	size_t maxoff;
	unsigned char lo[LIT_FPMAX][16], hi[LIT_FPMAX][16];
	uint32_t *bucket_lits;
	/* Teddy's confirmation: literals (bucket_lits order, sorted by fingerprint) in groups of
	 * one fingerprint, found by the candidate's exact bytes through a small hash: most
	 * candidates are nibble coincidences that one probe rejects. */
	uint32_t group_start[LIT_TEDDY_MAX + 1];
	uint32_t fp_slot[LIT_FP_SLOTS];  /* fingerprint + 1, 0 when empty */
	unsigned char fp_group[LIT_FP_SLOTS];
};

/* How common a byte is in log text, roughly by rank (higher is more common; 0 is rare). */
static unsigned commonness(unsigned char c)
{
	static const char order[] = " 0e1:2ra3ts.54do6pmn7h8i9lufc]/[-,kbg\n|%()=_wyvIEOFGWNTSAPBULCDRMq;+<>#xjz";
	const char *p = memchr(order, c, sizeof order - 1);
	return p ? (unsigned)(sizeof order - 1 - (size_t)(p - order)) : 0;
}

/* level: 0 the portable search only, 1 at most SSE2/SSSE3, 2 the best the CPU has. */
static lit_set *lit_alloc(int level)
{
	lit_set *set = xcalloc(1, sizeof *set);
	set->portable = level == 0;
#if LIT_X86
	if (level > 0) {
		__builtin_cpu_init();
		set->sse2 = __builtin_cpu_supports("sse2");
		set->ssse3 = __builtin_cpu_supports("ssse3");
		set->avx2 = level > 1 && __builtin_cpu_supports("avx2");
	}
#endif
	return set;
}

lit_set *lit_new(void)
{
	return lit_alloc(2);
}

lit_set *lit_new_portable(void)
{
	return lit_alloc(0);
}

lit_set *lit_new_sse(void)
{
	return lit_alloc(1);
}

void lit_free(lit_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		free(set->lits[i].text);
	free(set->lits);
	free(set->byfirst);
	free(set->bucket_lits);
	free(set);
}

size_t lit_count(const lit_set *set)
{
	return set->n;
}

static void prepare_scalar(lit_set *set)
{
	memset(set->first, 0, sizeof set->first);
	memset(set->bigram, 0, sizeof set->bigram);
	memset(set->byfirst_start, 0, sizeof set->byfirst_start);
	for (size_t k = 0; k < set->n; k++) {
		const struct lit *l = &set->lits[k];
		unsigned c = l->text[0];
		set->first[c] = 1;
		set->byfirst_start[c + 1]++;
		unsigned from = l->len > 1 ? l->text[1] : 0, to = l->len > 1 ? l->text[1] : 255;
		for (unsigned pair = c << 8 | from; pair <= (c << 8 | to); pair++)
			set->bigram[pair >> 6] |= (uint64_t)1 << (pair & 63);
	}
	for (unsigned c = 0; c < 256; c++)
		set->byfirst_start[c + 1] += set->byfirst_start[c];
	uint32_t fill[256];
	memcpy(fill, set->byfirst_start, sizeof fill);
	free(set->byfirst);
	set->byfirst = xmalloc(set->n * sizeof *set->byfirst);
	for (size_t k = 0; k < set->n; k++)
		set->byfirst[fill[set->lits[k].text[0]]++] = (uint32_t)k;
}

static void prepare_pair(lit_set *set)
{
	const struct lit *l = &set->lits[0];
	size_t a = 0;
	for (size_t i = 1; i < l->len; i++)
		if (commonness(l->text[i]) < commonness(l->text[a]))
			a = i;
	/* The second: the rarest other position, a different byte when there is one. */
	size_t b = a == 0 ? 1 : 0;
	for (size_t i = 0; i < l->len; i++) {
		if (i == a)
			continue;
		int diff_i = l->text[i] != l->text[a], diff_b = l->text[b] != l->text[a];
		if (diff_i > diff_b || (diff_i == diff_b && commonness(l->text[i]) < commonness(l->text[b])))
			b = i;
	}
	set->pair1 = a;
	set->pair2 = b;
}

static uint32_t fp_key(const lit_set *set, const struct lit *l)
{
	uint32_t key = 0;
	for (unsigned j = 0; j < set->m; j++)
		key = key << 8 | l->text[l->off + j];
	return key;
}

/* A byte's rough share of log text, from its commonness rank: each rank down 10% rarer. */
static void byte_shares(double share[256])
{
	for (unsigned c = 0; c < 256; c++) {
		unsigned r = commonness((unsigned char)c);
		share[c] = r ? 0.15 : 1e-5;
		for (unsigned k = r; k > 0 && k < 80; k++)
			share[c] *= 0.9;
	}
}

/* How often a bucket whose fingerprint byte j may have low nibbles lo[j] and high ones
 * hi[j] (bit masks) fires at a position of log text. */
static double bucket_rate(const double share[256], const uint16_t *lo, const uint16_t *hi, unsigned m)
{
	double rate = 1;
	for (unsigned j = 0; j < m; j++) {
		double p = 0;
		for (unsigned hs = hi[j]; hs; hs &= hs - 1)
			for (unsigned ls = lo[j]; ls; ls &= ls - 1)
				p += share[(unsigned)__builtin_ctz(hs) << 4 | (unsigned)__builtin_ctz(ls)];
		rate *= p;
	}
	return rate;
}

/* Each distinct fingerprint to the bucket it adds the fewest expected false candidates to
 * (nibbles shared within a bucket multiply its matches), greedily, then moved while that
 * helps; the nibble tables follow. */
static void assign_buckets(lit_set *set, const uint32_t *gkeys, size_t ngroups)
{
	double share[256];
	byte_shares(share);
	unsigned m = set->m;
	unsigned char bucket_of[LIT_TEDDY_MAX];
	uint16_t lo[LIT_BUCKETS][LIT_FPMAX], hi[LIT_BUCKETS][LIT_FPMAX];
	memset(lo, 0, sizeof lo);
	memset(hi, 0, sizeof hi);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t g = 0; g < ngroups; g++) {
			if (pass > 0) {  /* take g out of its bucket: the others' nibbles only */
				unsigned b = bucket_of[g];
				memset(lo[b], 0, sizeof lo[b]);
				memset(hi[b], 0, sizeof hi[b]);
				for (size_t o = 0; o < ngroups; o++)
					if (o != g && bucket_of[o] == b)
						for (unsigned j = 0; j < m; j++) {
							unsigned c = gkeys[o] >> (8 * (m - 1 - j)) & 255;
							lo[b][j] |= (uint16_t)(1u << (c & 15));
							hi[b][j] |= (uint16_t)(1u << (c >> 4));
						}
			}
			unsigned best = 0;
			double best_cost = 0;
			for (unsigned b = 0; b < LIT_BUCKETS; b++) {
				uint16_t l2[LIT_FPMAX], h2[LIT_FPMAX];
				for (unsigned j = 0; j < m; j++) {
					unsigned c = gkeys[g] >> (8 * (m - 1 - j)) & 255;
					l2[j] = (uint16_t)(lo[b][j] | 1u << (c & 15));
					h2[j] = (uint16_t)(hi[b][j] | 1u << (c >> 4));
				}
				double before = lo[b][0] ? bucket_rate(share, lo[b], hi[b], m) : 0;
				double cost = bucket_rate(share, l2, h2, m) - before;
				if (b == 0 || cost < best_cost) {
					best = b;
					best_cost = cost;
				}
			}
			bucket_of[g] = (unsigned char)best;
			for (unsigned j = 0; j < m; j++) {
				unsigned c = gkeys[g] >> (8 * (m - 1 - j)) & 255;
				lo[best][j] |= (uint16_t)(1u << (c & 15));
				hi[best][j] |= (uint16_t)(1u << (c >> 4));
			}
		}
	}
	memset(set->lo, 0, sizeof set->lo);
	memset(set->hi, 0, sizeof set->hi);
	for (unsigned b = 0; b < LIT_BUCKETS; b++)
		for (unsigned j = 0; j < m; j++)
			for (unsigned x = 0; x < 16; x++) {
				if (lo[b][j] >> x & 1)
					set->lo[j][x] |= (unsigned char)(1u << b);
				if (hi[b][j] >> x & 1)
					set->hi[j][x] |= (unsigned char)(1u << b);
			}
}

static size_t fp_hash(uint32_t key)
{
	return (size_t)(key * 2654435761u >> (32 - LIT_FP_BITS));
}

static void prepare_teddy(lit_set *set)
{
	set->m = set->minlen < LIT_FPMAX ? (unsigned)set->minlen : LIT_FPMAX;
	set->maxoff = 0;
	/* Each literal's fingerprint: its m consecutive bytes that are least common. */
	for (size_t k = 0; k < set->n; k++) {
		struct lit *l = &set->lits[k];
		unsigned best = ~0u;
		l->off = 0;
		for (size_t o = 0; o + set->m <= l->len; o++) {
			unsigned score = 0, words = 1;
			for (unsigned j = 0; j < set->m; j++) {
				unsigned char c = l->text[o + j];
				score += commonness(c);
				words &= (c >= 'a' && c <= 'z') || c == ' ';
			}
			/* Pieces of words recur in other words; punctuation narrows them down. */
			score += words ? 40 : 0;
			if (score < best) {
				best = score;
				l->off = o;
			}
		}
		if (l->off > set->maxoff)
			set->maxoff = l->off;
	}
	/* Literals sorted by fingerprint (insertion sort: n <= LIT_TEDDY_MAX): equal ones side by side. */
	uint32_t order[LIT_TEDDY_MAX], keys[LIT_TEDDY_MAX];
	for (size_t k = 0; k < set->n; k++) {
		uint32_t key = fp_key(set, &set->lits[k]);
		size_t i = k;
		while (i > 0 && keys[i - 1] > key) {
			keys[i] = keys[i - 1];
			order[i] = order[i - 1];
			i--;
		}
		keys[i] = key;
		order[i] = (uint32_t)k;
	}
	free(set->bucket_lits);
	set->bucket_lits = xmalloc(set->n * sizeof *set->bucket_lits);
	memcpy(set->bucket_lits, order, set->n * sizeof *order);
	uint32_t gkeys[LIT_TEDDY_MAX];
	size_t ngroups = 0;
	for (size_t i = 0; i < set->n; i++)
		if (i == 0 || keys[i] != keys[i - 1])
			gkeys[ngroups++] = keys[i];
	assign_buckets(set, gkeys, ngroups);
	memset(set->fp_slot, 0, sizeof set->fp_slot);
	size_t g = 0;
	for (size_t i = 0; i < set->n; i++) {
		if (i > 0 && keys[i] == keys[i - 1])
			continue;
		set->group_start[g] = (uint32_t)i;
		size_t h = fp_hash(keys[i]);
		while (set->fp_slot[h])
			h = (h + 1) & (LIT_FP_SLOTS - 1);
		set->fp_slot[h] = keys[i] + 1;
		set->fp_group[h] = (unsigned char)g++;
	}
	set->group_start[g] = (uint32_t)set->n;
}

static void prepare(lit_set *set)
{
	set->minlen = LIT_MAXLEN;
	for (size_t k = 0; k < set->n; k++)
		if (set->lits[k].len < set->minlen)
			set->minlen = set->lits[k].len;
	prepare_scalar(set);
	set->method = set->n == 0 ? LIT_NONE : LIT_SCALAR;
	if (set->portable || set->n == 0)
		return;
	if (set->n == 1 && set->minlen == 1) {
		set->method = LIT_MEMCHR;
	} else if (set->n == 1 && (set->avx2 || set->sse2)) {
		prepare_pair(set);
		set->method = set->avx2 ? LIT_PAIR_AVX2 : LIT_PAIR_SSE2;
	} else if (set->n <= LIT_TEDDY_MAX && (set->avx2 || set->ssse3)) {
		prepare_teddy(set);
		set->method = set->avx2 ? LIT_TEDDY_AVX2 : LIT_TEDDY_SSSE3;
	}
}

/* A literal into the set, not yet prepared for. */
static void push(lit_set *set, const char *text, size_t len, unsigned id)
{
	if (len == 0 || len > LIT_MAXLEN)
		abort();
	set->lits = xgrow(set->lits, &set->cap, set->n + 1, sizeof *set->lits);
	struct lit *l = &set->lits[set->n++];
	l->text = xmalloc(len);
	memcpy(l->text, text, len);
	l->len = len;
	l->id = id;
	l->off = 0;
	unsigned char head[8] = { 0 }, mask[8] = { 0 };
	memcpy(head, text, len < 8 ? len : 8);
	memset(mask, 0xff, len < 8 ? len : 8);
	memcpy(&l->head, head, 8);
	memcpy(&l->headmask, mask, 8);
}

void lit_add(lit_set *set, const char *text, size_t len, unsigned id)
{
	push(set, text, len, id);
	prepare(set);
}

void lit_add_many(lit_set *set, size_t n, const char *const *texts, const size_t *lens, const unsigned *ids)
{
	for (size_t k = 0; k < n; k++)
		push(set, texts[k], lens[k], ids[k]);
	if (n > 0)
		prepare(set);
}

/* First-byte table, then the bigram table, then each literal with that first byte in the
 * order added: the first confirmed is the leftmost, first-added match. */
static size_t find_scalar(const lit_set *set, const unsigned char *t, size_t len, unsigned *id)
{
	for (size_t i = 0; i < len; i++) {
		unsigned c = t[i];
		if (!set->first[c])
			continue;
		if (i + 1 < len) {
			unsigned pair = c << 8 | t[i + 1];
			if (!(set->bigram[pair >> 6] >> (pair & 63) & 1))
				continue;
		}
		for (uint32_t j = set->byfirst_start[c]; j < set->byfirst_start[c + 1]; j++) {
			const struct lit *l = &set->lits[set->byfirst[j]];
			if (l->len <= len - i && memcmp(t + i, l->text, l->len) == 0) {
				*id = l->id;
				return i;
			}
		}
	}
	return len;
}

#if LIT_X86
/* Starts in [from, len - nlen] checked one by one: the tail after the last full block. */
static size_t pair_tail(const struct lit *l, const unsigned char *t, size_t len, size_t from)
{
	for (size_t i = from; l->len <= len && i <= len - l->len; i++)
		if (t[i] == l->text[0] && memcmp(t + i, l->text, l->len) == 0)
			return i;
	return len;
}

__attribute__((target("sse2")))
static size_t find_pair_sse2(const lit_set *set, const unsigned char *t, size_t len)
{
	const struct lit *l = &set->lits[0];
	size_t p1 = set->pair1, p2 = set->pair2, reach = (p1 > p2 ? p1 : p2) + 16;
	const __m128i c1 = _mm_set1_epi8((char)l->text[p1]), c2 = _mm_set1_epi8((char)l->text[p2]);
	size_t i = 0;
	if (len < l->len)
		return len;
	for (; reach <= len - i; i += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(t + i + p1));
		__m128i b = _mm_loadu_si128((const __m128i *)(t + i + p2));
		unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(a, c1), _mm_cmpeq_epi8(b, c2)));
		while (mask) {
			size_t s = i + (size_t)__builtin_ctz(mask);
			if (l->len <= len - s && memcmp(t + s, l->text, l->len) == 0)
				return s;
			mask &= mask - 1;
		}
	}
	return pair_tail(l, t, len, i);
}

__attribute__((target("avx2")))
static size_t find_pair_avx2(const lit_set *set, const unsigned char *t, size_t len)
{
	const struct lit *l = &set->lits[0];
	size_t p1 = set->pair1, p2 = set->pair2, reach = (p1 > p2 ? p1 : p2) + 32;
	const __m256i c1 = _mm256_set1_epi8((char)l->text[p1]), c2 = _mm256_set1_epi8((char)l->text[p2]);
	size_t i = 0;
	if (len < l->len)
		return len;
	for (; reach <= len - i; i += 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(t + i + p1));
		__m256i b = _mm256_loadu_si256((const __m256i *)(t + i + p2));
		uint32_t mask = (uint32_t)_mm256_movemask_epi8(
			_mm256_and_si256(_mm256_cmpeq_epi8(a, c1), _mm256_cmpeq_epi8(b, c2)));
		while (mask) {
			size_t s = i + (size_t)__builtin_ctz(mask);
			if (l->len <= len - s && memcmp(t + s, l->text, l->len) == 0)
				return s;
			mask &= mask - 1;
		}
	}
	return pair_tail(l, t, len, i);
}

/* Whether l is at t (room bytes from t on, at least l->len): 8 bytes compared at once first. */
static inline int lit_at(const struct lit *l, const unsigned char *t, size_t room)
{
	if (room < 8)
		return memcmp(t, l->text, l->len) == 0;
	uint64_t w;
	memcpy(&w, t, 8);
	if ((w & l->headmask) != l->head)
		return 0;
	return l->len <= 8 || memcmp(t + 8, l->text + 8, l->len - 8) == 0;
}

/* The literals (bucket_lits[*first, *end)) whose fingerprint is the m bytes at p; 0 when
 * none is (most candidates: nibble coincidences that one probe rejects). */
static inline int fp_group_at(const lit_set *set, const unsigned char *t, size_t len, size_t p,
			      uint32_t *first, uint32_t *end)
{
	if (p + set->m > len)
		return 0;
	uint32_t key = 0;
	for (unsigned j = 0; j < set->m; j++)
		key = key << 8 | t[p + j];
	size_t h = fp_hash(key);
	while (set->fp_slot[h] != key + 1) {
		if (!set->fp_slot[h])
			return 0;
		h = (h + 1) & (LIT_FP_SLOTS - 1);
	}
	unsigned g = set->fp_group[h];
	*first = set->group_start[g];
	*end = set->group_start[g + 1];
	return 1;
}

/* A Teddy candidate: a fingerprint may start at p (the nibbles said so). Its exact bytes
 * name the literals to try; a literal there would start at p - off. Keep the leftmost,
 * then first-added, confirmed one. */
static inline void teddy_confirm(const lit_set *set, const unsigned char *t, size_t len, size_t p,
				 size_t *best, size_t *bestk)
{
	uint32_t first, end;
	if (!fp_group_at(set, t, len, p, &first, &end))
		return;
	for (uint32_t j = first; j < end; j++) {
		size_t k = set->bucket_lits[j];
		const struct lit *l = &set->lits[k];
		if (p < l->off)
			continue;
		size_t s = p - l->off;
		if (s > *best || (s == *best && k > *bestk) || l->len > len - s)
			continue;
		if (lit_at(l, t + s, len - s)) {
			*best = s;
			*bestk = k;
		}
	}
}

static inline void teddy_block(const lit_set *set, const unsigned char *t, size_t len, size_t base,
			uint64_t mask, size_t *best, size_t *bestk)
{
	while (mask) {
		unsigned k = (unsigned)__builtin_ctzll(mask);
		mask &= mask - 1;
		teddy_confirm(set, t, len, base + k, best, bestk);
	}
}

/* The scan loops below are written once per fingerprint length (m is a constant in each
 * inlined copy) with the nibble tables kept in registers. */
#define LIT_INLINE static inline __attribute__((always_inline))

LIT_INLINE __attribute__((target("ssse3")))
__m128i teddy_res_ssse3(const __m128i *lo, const __m128i *hi, const unsigned char *p, unsigned m)
{
	const __m128i low = _mm_set1_epi8(0x0f);
	__m128i res = _mm_set1_epi8(-1);
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		__m128i x = _mm_loadu_si128((const __m128i *)(p + j));
		__m128i r = _mm_and_si128(_mm_shuffle_epi8(lo[j], _mm_and_si128(x, low)),
					  _mm_shuffle_epi8(hi[j], _mm_and_si128(_mm_srli_epi16(x, 4), low)));
		res = _mm_and_si128(res, r);
	}
	return res;
}

LIT_INLINE __attribute__((target("ssse3")))
unsigned teddy_mask_ssse3(__m128i res)
{
	return ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(res, _mm_setzero_si128())) & 0xffff;
}

LIT_INLINE __attribute__((target("ssse3")))
size_t teddy_ssse3_m(const lit_set *set, const unsigned char *t, size_t len, unsigned *id, unsigned m)
{
	__m128i lo[LIT_FPMAX], hi[LIT_FPMAX];
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		lo[j] = _mm_loadu_si128((const __m128i *)set->lo[j]);
		hi[j] = _mm_loadu_si128((const __m128i *)set->hi[j]);
	}
	size_t best = SIZE_MAX, bestk = 0, i = 0, need = 16 + m - 1;
	for (; need <= len - i; i += 16) {
		__m128i res = teddy_res_ssse3(lo, hi, t + i, m);
		unsigned mask = teddy_mask_ssse3(res);
		if (mask) {
			teddy_block(set, t, len, i, mask, &best, &bestk);
			if (best != SIZE_MAX && best + set->maxoff < i + 16)
				goto done;
		} else if (best != SIZE_MAX && best + set->maxoff < i + 16) {
			goto done;
		}
	}
	if (i + m <= len) {
		unsigned char buf[16 + LIT_FPMAX] = { 0 };
		memcpy(buf, t + i, len - i);
		teddy_block(set, t, len, i, teddy_mask_ssse3(teddy_res_ssse3(lo, hi, buf, m)), &best, &bestk);
	}
done:
	if (best == SIZE_MAX)
		return len;
	*id = set->lits[bestk].id;
	return best;
}

__attribute__((target("ssse3")))
static size_t find_teddy_ssse3(const lit_set *set, const unsigned char *t, size_t len, unsigned *id)
{
	switch (set->m) {
	case 1:
		return teddy_ssse3_m(set, t, len, id, 1);
	case 2:
		return teddy_ssse3_m(set, t, len, id, 2);
	default:
		return teddy_ssse3_m(set, t, len, id, 3);
	}
}

LIT_INLINE __attribute__((target("avx2")))
__m256i teddy_res_avx2(const __m256i *lo, const __m256i *hi, const unsigned char *p, unsigned m)
{
	const __m256i low = _mm256_set1_epi8(0x0f);
	__m256i res = _mm256_set1_epi8(-1);
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		__m256i x = _mm256_loadu_si256((const __m256i *)(p + j));
		__m256i r = _mm256_and_si256(_mm256_shuffle_epi8(lo[j], _mm256_and_si256(x, low)),
					     _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi16(x, 4), low)));
		res = _mm256_and_si256(res, r);
	}
	return res;
}

LIT_INLINE __attribute__((target("avx2")))
uint32_t teddy_mask_avx2(__m256i res)
{
	return ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(res, _mm256_setzero_si256()));
}

LIT_INLINE __attribute__((target("avx2")))
size_t teddy_avx2_m(const lit_set *set, const unsigned char *t, size_t len, unsigned *id, unsigned m)
{
	__m256i lo[LIT_FPMAX], hi[LIT_FPMAX];
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->lo[j]));
		hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->hi[j]));
	}
	size_t best = SIZE_MAX, bestk = 0, i = 0, need = 32 + m - 1;
	for (; need <= len - i; i += 32) {
		__m256i res = teddy_res_avx2(lo, hi, t + i, m);
		uint32_t mask = teddy_mask_avx2(res);
		if (mask) {
			teddy_block(set, t, len, i, mask, &best, &bestk);
			if (best != SIZE_MAX && best + set->maxoff < i + 32)
				goto done;
		} else if (best != SIZE_MAX && best + set->maxoff < i + 32) {
			goto done;
		}
	}
	if (i + m <= len) {
		unsigned char buf[32 + LIT_FPMAX] = { 0 };
		memcpy(buf, t + i, len - i);
		teddy_block(set, t, len, i, teddy_mask_avx2(teddy_res_avx2(lo, hi, buf, m)), &best, &bestk);
	}
done:
	if (best == SIZE_MAX)
		return len;
	*id = set->lits[bestk].id;
	return best;
}

__attribute__((target("avx2")))
static size_t find_teddy_avx2(const lit_set *set, const unsigned char *t, size_t len, unsigned *id)
{
	switch (set->m) {
	case 1:
		return teddy_avx2_m(set, t, len, id, 1);
	case 2:
		return teddy_avx2_m(set, t, len, id, 2);
	default:
		return teddy_avx2_m(set, t, len, id, 3);
	}
}

/* The cursor's scan: from fingerprint position i on, the first block with candidates, its
 * position returned and its candidates in *mask; *end is where the positions looked at end
 * (the text's length after the last, partial block). */
LIT_INLINE __attribute__((target("avx2")))
size_t teddy_avx2_next_m(const lit_set *set, const unsigned char *t, size_t len, size_t i, uint64_t *mask,
			 size_t *end, unsigned m)
{
	__m256i lo[LIT_FPMAX], hi[LIT_FPMAX];
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		lo[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->lo[j]));
		hi[j] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)set->hi[j]));
	}
	for (size_t need = 32 + m - 1; need <= len - i; i += 32) {
		uint32_t mk = teddy_mask_avx2(teddy_res_avx2(lo, hi, t + i, m));
		if (mk) {
			*mask = mk;
			*end = i + 32;
			return i;
		}
	}
	*end = len;
	*mask = 0;
	if (i + m <= len) {
		unsigned char buf[32 + LIT_FPMAX] = { 0 };
		memcpy(buf, t + i, len - i);
		*mask = teddy_mask_avx2(teddy_res_avx2(lo, hi, buf, m));
	}
	return i;
}

LIT_INLINE __attribute__((target("ssse3")))
size_t teddy_ssse3_next_m(const lit_set *set, const unsigned char *t, size_t len, size_t i, uint64_t *mask,
			  size_t *end, unsigned m)
{
	__m128i lo[LIT_FPMAX], hi[LIT_FPMAX];
#pragma GCC unroll 3
	for (unsigned j = 0; j < m; j++) {
		lo[j] = _mm_loadu_si128((const __m128i *)set->lo[j]);
		hi[j] = _mm_loadu_si128((const __m128i *)set->hi[j]);
	}
	for (size_t need = 16 + m - 1; need <= len - i; i += 16) {
		unsigned mk = teddy_mask_ssse3(teddy_res_ssse3(lo, hi, t + i, m));
		if (mk) {
			*mask = mk;
			*end = i + 16;
			return i;
		}
	}
	*end = len;
	*mask = 0;
	if (i + m <= len) {
		unsigned char buf[16 + LIT_FPMAX] = { 0 };
		memcpy(buf, t + i, len - i);
		*mask = teddy_mask_ssse3(teddy_res_ssse3(lo, hi, buf, m));
	}
	return i;
}

__attribute__((target("avx2")))
static size_t teddy_avx2_next(const lit_set *set, const unsigned char *t, size_t len, size_t i, uint64_t *mask,
			      size_t *end)
{
	switch (set->m) {
	case 1:
		return teddy_avx2_next_m(set, t, len, i, mask, end, 1);
	case 2:
		return teddy_avx2_next_m(set, t, len, i, mask, end, 2);
	default:
		return teddy_avx2_next_m(set, t, len, i, mask, end, 3);
	}
}

__attribute__((target("ssse3")))
static size_t teddy_ssse3_next(const lit_set *set, const unsigned char *t, size_t len, size_t i, uint64_t *mask,
			       size_t *end)
{
	switch (set->m) {
	case 1:
		return teddy_ssse3_next_m(set, t, len, i, mask, end, 1);
	case 2:
		return teddy_ssse3_next_m(set, t, len, i, mask, end, 2);
	default:
		return teddy_ssse3_next_m(set, t, len, i, mask, end, 3);
	}
}
#endif

/* Literals found but not yet asked for lie within a block and twice the longest offset of a
 * fingerprint (the ones left from before the block and the block's own). */
#define LIT_QMAX (2 * LIT_MAXLEN + 64)

struct lit_cursor {
	const lit_set *set;
	const unsigned char *t;
	size_t len;
	/* Teddy: fingerprint positions up to scanned looked at, from asked on (the offset asked
	 * from last); the literals found there, one per offset (the first added), sorted by
	 * offset, from q[head] to q[n) */
	size_t asked, scanned, head, n;
	size_t qat[LIT_QMAX];
	uint32_t qk[LIT_QMAX];
	/* the other methods: the last answer, which holds for every offset from last_from to it */
	int have;
	size_t last_from, last_at;
	unsigned last_id;
};

lit_cursor *lit_cursor_new(const lit_set *set)
{
	lit_cursor *cur = xcalloc(1, sizeof *cur);
	cur->set = set;
	return cur;
}

void lit_cursor_free(lit_cursor *cur)
{
	free(cur);
}

void lit_cursor_start(lit_cursor *cur, const char *text, size_t len)
{
	cur->t = (const unsigned char *)text;
	cur->len = len;
	cur->asked = cur->scanned = cur->head = cur->n = 0;
	cur->have = 0;
}

#if LIT_X86
/* Literal k starts at s: into the queue, unless one added before it starts there too. */
static void cursor_put(lit_cursor *cur, size_t s, uint32_t k)
{
	size_t j = cur->n;
	while (j > cur->head && cur->qat[j - 1] > s)
		j--;
	if (j > cur->head && cur->qat[j - 1] == s) {
		if (k < cur->qk[j - 1])
			cur->qk[j - 1] = k;
		return;
	}
	memmove(cur->qat + j + 1, cur->qat + j, (cur->n - j) * sizeof *cur->qat);
	memmove(cur->qk + j + 1, cur->qk + j, (cur->n - j) * sizeof *cur->qk);
	cur->qat[j] = s;
	cur->qk[j] = k;
	cur->n++;
}

/* A candidate fingerprint at p: every literal it confirms, starting at or after from. */
static void cursor_confirm(lit_cursor *cur, size_t p, size_t from)
{
	const lit_set *set = cur->set;
	const unsigned char *t = cur->t;
	size_t len = cur->len;
	uint32_t first, end;
	if (!fp_group_at(set, t, len, p, &first, &end))
		return;
	for (uint32_t j = first; j < end; j++) {
		uint32_t k = set->bucket_lits[j];
		const struct lit *l = &set->lits[k];
		if (p < l->off)
			continue;
		size_t s = p - l->off;
		if (s < from || l->len > len - s)
			continue;
		if (lit_at(l, t + s, len - s))
			cursor_put(cur, s, k);
	}
}

static size_t cursor_teddy(lit_cursor *cur, size_t from, unsigned *id)
{
	const lit_set *set = cur->set;
	if (from < cur->asked || from > cur->scanned) {  /* back, or past what was looked at */
		cur->scanned = from;
		cur->head = cur->n = 0;
	}
	cur->asked = from;
	while (cur->head < cur->n && cur->qat[cur->head] < from)
		cur->head++;
	for (;;) {
		/* the first one queued is the leftmost once no fingerprint still to look at can
		 * start a literal before it (or at it, added before it) */
		if (cur->head < cur->n && (cur->scanned >= cur->len || cur->qat[cur->head] + set->maxoff < cur->scanned)) {
			*id = set->lits[cur->qk[cur->head]].id;
			return cur->qat[cur->head];
		}
		if (cur->scanned >= cur->len)
			return cur->len;
		if (cur->head > 0) {
			memmove(cur->qat, cur->qat + cur->head, (cur->n - cur->head) * sizeof *cur->qat);
			memmove(cur->qk, cur->qk + cur->head, (cur->n - cur->head) * sizeof *cur->qk);
			cur->n -= cur->head;
			cur->head = 0;
		}
		uint64_t mask;
		size_t end, b = set->method == LIT_TEDDY_AVX2
					? teddy_avx2_next(set, cur->t, cur->len, cur->scanned, &mask, &end)
					: teddy_ssse3_next(set, cur->t, cur->len, cur->scanned, &mask, &end);
		cur->scanned = end;
		for (; mask; mask &= mask - 1)
			cursor_confirm(cur, b + (size_t)__builtin_ctzll(mask), from);
	}
}
#endif

size_t lit_cursor_find(lit_cursor *cur, size_t from, unsigned *id)
{
	unsigned dummy;
	if (!id)
		id = &dummy;
	if (from >= cur->len)
		return cur->len;
#if LIT_X86
	if (cur->set->method == LIT_TEDDY_AVX2 || cur->set->method == LIT_TEDDY_SSSE3)
		return cursor_teddy(cur, from, id);
#endif
	if (!(cur->have && from >= cur->last_from && from <= cur->last_at)) {
		cur->last_at = from + lit_find(cur->set, (const char *)cur->t + from, cur->len - from, &cur->last_id);
		cur->last_from = from;
		cur->have = 1;
	}
	if (cur->last_at < cur->len)
		*id = cur->last_id;
	return cur->last_at;
}

size_t lit_find(const lit_set *set, const char *text, size_t len, unsigned *id)
{
	const unsigned char *t = (const unsigned char *)text;
	unsigned dummy;
	if (!id)
		id = &dummy;
	if (set->n == 0 || len < set->minlen)
		return len;
	size_t at;
	switch (set->method) {
	case LIT_MEMCHR: {
		const unsigned char *p = memchr(t, set->lits[0].text[0], len);
		at = p ? (size_t)(p - t) : len;
		break;
	}
#if LIT_X86
	case LIT_PAIR_SSE2:
		at = find_pair_sse2(set, t, len);
		break;
	case LIT_PAIR_AVX2:
		at = find_pair_avx2(set, t, len);
		break;
	case LIT_TEDDY_SSSE3:
		return find_teddy_ssse3(set, t, len, id);
	case LIT_TEDDY_AVX2:
		return find_teddy_avx2(set, t, len, id);
#endif
	default:
		return find_scalar(set, t, len, id);
	}
	if (at < len)
		*id = set->lits[0].id;
	return at;
}
