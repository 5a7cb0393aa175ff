/* SIMD as C code has it: GCC vector extensions (arithmetic, compares,
 * shuffles, conversions, an element by a variable index) and SSE to
 * SSE4.2 intrinsics (loads and stores, integer and float arithmetic,
 * compares and masks, shuffles and unpacks, shifts, saturating packs,
 * sums of differences, byte shuffles, blends, rounding, CRC-32C), with
 * two threads summing halves of an array sixteen bytes at a time. */
// cflags: -msse4.2
#include <immintrin.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef int v4si __attribute__((vector_size(16)));
typedef float v4sf __attribute__((vector_size(16)));
typedef double v2df __attribute__((vector_size(16)));
typedef unsigned char v16qu __attribute__((vector_size(16)));
typedef short v8hi __attribute__((vector_size(16)));

static void show8(const char *what, __m128i v) {
	uint8_t b[16];
	_mm_storeu_si128((__m128i *)b, v);
	printf("%-10s", what);
	for (int i = 0; i < 16; i++)
		printf(" %02x", b[i]);
	printf("\n");
}

static void showps(const char *what, __m128 v) {
	float f[4];
	_mm_storeu_ps(f, v);
	printf("%-10s %g %g %g %g\n", what, f[0], f[1], f[2], f[3]);
}

static uint8_t data[4096];
static uint64_t halves[2];

static void *sum_half(void *arg) {
	long h = (long)arg;
	__m128i acc = _mm_setzero_si128();
	for (int i = h * 2048; i < (h + 1) * 2048; i += 16)
		acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_loadu_si128((const __m128i *)(data + i)), _mm_setzero_si128()));
	halves[h] = (uint64_t)_mm_cvtsi128_si64(acc) + (uint64_t)_mm_extract_epi64(acc, 1);
	return NULL;
}

int main(int argc, char **argv) {
	(void)argv;
	/* Vector extensions. */
	v4si a = {1, -2, 3, -4}, b = {10, 20, 30, 40};
	v4si c = a * b + (b >> 1) - (a << 2) ^ (v4si){0xff, 0, 0xff, 0};
	v4si lt = a < b, eq = a == (v4si){1, 2, 3, 4};
	printf("ints %d %d %d %d | %d %d %d %d | %d %d %d %d\n", c[0], c[1], c[2], c[3], lt[0], lt[1], lt[2], lt[3], eq[0], eq[1],
	       eq[2], eq[3]);
	v4sf f = {1.5f, -2.25f, 3.0f, 0.5f};
	v4sf g = f * f / (v4sf){2, 2, 2, 2} - f;
	v4si fi = __builtin_convertvector(g, v4si);
	v2df d = __builtin_convertvector(__builtin_shufflevector(f, f, 3, 0), v2df);
	printf("floats %g %g %g %g -> %d %d %d %d; doubles %g %g\n", g[0], g[1], g[2], g[3], fi[0], fi[1], fi[2], fi[3], d[0], d[1]);
	v4si rev = __builtin_shufflevector(a, b, 7, 2, 5, 0);
	int k = argc + 1; /* an index known only at run time */
	v4si ins = a;
	ins[k] = 99;
	printf("shuffle %d %d %d %d; a[%d]=%d; inserted %d %d %d %d\n", rev[0], rev[1], rev[2], rev[3], k, a[k], ins[0], ins[1], ins[2],
	       ins[3]);
	v16qu bytes = (v16qu)a;
	v8hi halfs = (v8hi)b;
	printf("views %u %u %u %u | %d %d\n", bytes[0], bytes[4], bytes[5], bytes[15], halfs[0], halfs[1]);

	/* SSE2 integers. */
	__m128i x = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1);
	__m128i y = _mm_set1_epi8(3);
	show8("add_epi8", _mm_add_epi8(x, y));
	show8("subs_epu8", _mm_subs_epu8(x, y));
	show8("adds_epi8", _mm_adds_epi8(x, _mm_set1_epi8(125)));
	show8("cmpgt", _mm_cmpgt_epi8(x, y));
	printf("movemask %04x %x %x\n", _mm_movemask_epi8(x), _mm_movemask_ps(_mm_setr_ps(-1, 2, -3, 4)),
	       _mm_movemask_pd(_mm_setr_pd(1, -2)));
	show8("andnot", _mm_andnot_si128(y, x));
	show8("unpacklo", _mm_unpacklo_epi8(x, y));
	show8("unpackhi16", _mm_unpackhi_epi16(x, y));
	show8("shuf32", _mm_shuffle_epi32(x, _MM_SHUFFLE(0, 1, 2, 3)));
	show8("shuflo16", _mm_shufflelo_epi16(x, _MM_SHUFFLE(0, 1, 2, 3)));
	show8("slli16", _mm_slli_epi16(x, 3));
	show8("srli32", _mm_srli_epi32(x, 9));
	show8("srai16", _mm_srai_epi16(x, 4));
	show8("sll64v", _mm_sll_epi64(x, _mm_cvtsi32_si128(12)));
	show8("srl32big", _mm_srli_epi32(x, 40));
	show8("slli_si128", _mm_slli_si128(x, 5));
	show8("srli_si128", _mm_srli_si128(x, 3));
	__m128i w = _mm_setr_epi16(-30000, 30000, 200, -200, 7, 300, -1, 32767);
	show8("packs16", _mm_packs_epi16(w, w));
	show8("packus16", _mm_packus_epi16(w, w));
	show8("packs32", _mm_packs_epi32(_mm_setr_epi32(70000, -70000, 5, -5), _mm_set1_epi32(40000)));
	show8("madd", _mm_madd_epi16(w, _mm_set1_epi16(3)));
	show8("mulhi", _mm_mulhi_epi16(w, w));
	show8("mulhi_u", _mm_mulhi_epu16(w, w));
	show8("mullo", _mm_mullo_epi16(w, w));
	show8("mul_epu32", _mm_mul_epu32(_mm_setr_epi32(-1, 5, 7, 9), _mm_setr_epi32(3, 0, -2, 0)));
	show8("avg", _mm_avg_epu8(x, y));
	show8("max_epu8", _mm_max_epu8(x, y));
	show8("min_epi16", _mm_min_epi16(w, _mm_setzero_si128()));
	show8("sad", _mm_sad_epu8(x, y));
	/* SSSE3 to SSE4.2. */
	show8("pshufb", _mm_shuffle_epi8(x, _mm_setr_epi8(15, 14, 13, -128, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)));
	show8("abs_epi8", _mm_abs_epi8(x));
	show8("alignr", _mm_alignr_epi8(x, y, 4));
	show8("blendv", _mm_blendv_epi8(x, y, _mm_cmplt_epi8(x, _mm_setzero_si128())));
	show8("mullo32", _mm_mullo_epi32(_mm_setr_epi32(100000, -3, 7, 1 << 20), _mm_set1_epi32(70000)));
	show8("min_epi32", _mm_min_epi32(_mm_setr_epi32(5, -5, 0, 9), _mm_set1_epi32(1)));
	show8("insert32", _mm_insert_epi32(x, 0x11223344, 2));
	printf("extract %d %d testz %d %d testc %d\n", _mm_extract_epi32(x, 3), _mm_extract_epi16(x, 5), _mm_testz_si128(x, y),
	       _mm_testz_si128(_mm_setzero_si128(), x), _mm_testc_si128(x, x));
	const char *msg = "augur checks every race";
	uint32_t crc = 0xffffffff;
	for (size_t i = 0; i < strlen(msg); i++)
		crc = _mm_crc32_u8(crc, (uint8_t)msg[i]);
	printf("crc32c %08x %08x %016llx\n", ~crc, _mm_crc32_u32(1, 0xdeadbeef), (unsigned long long)_mm_crc32_u64(7, 0x0123456789abcdefULL));

	/* SSE floats. */
	__m128 p = _mm_setr_ps(1.5f, -2.5f, 9.0f, 0.25f), q = _mm_set1_ps(2.0f);
	showps("arith", _mm_div_ps(_mm_sub_ps(_mm_mul_ps(p, q), q), _mm_add_ps(q, q)));
	showps("sqrt", _mm_sqrt_ps(_mm_max_ps(p, _mm_setzero_ps())));
	showps("min", _mm_min_ps(p, q));
	showps("round", _mm_round_ps(p, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
	showps("floor", _mm_floor_ps(p));
	showps("ceil_ss", _mm_ceil_ss(p, _mm_set1_ps(-1.5f)));
	showps("shuffle", _mm_shuffle_ps(p, q, _MM_SHUFFLE(3, 0, 1, 2)));
	showps("unpackhi", _mm_unpackhi_ps(p, q));
	showps("cmplt", _mm_and_ps(_mm_cmplt_ps(p, q), q));
	showps("cvtepi32", _mm_cvtepi32_ps(_mm_setr_epi32(-7, 0, 1 << 24, 3)));
	show8("cvtps", _mm_cvtps_epi32(_mm_setr_ps(2.5f, 3.5f, -2.5f, 1e10f)));
	show8("cvttps", _mm_cvttps_epi32(_mm_setr_ps(2.7f, -3.7f, 0.5f, 8.0f)));
	__m128d pd = _mm_setr_pd(2.5, -0.5);
	double out[2];
	_mm_storeu_pd(out, _mm_add_pd(_mm_round_pd(pd, _MM_FROUND_TO_NEG_INF), _mm_sqrt_pd(_mm_set1_pd(16))));
	printf("doubles %g %g sum %g\n", out[0], out[1], _mm_cvtsd_f64(_mm_hadd_pd(pd, pd)));

	/* Two threads, each summing its half sixteen bytes at a time. */
	for (int i = 0; i < 4096; i++)
		data[i] = (uint8_t)(i * 37 + 11);
	pthread_t t[2];
	for (long h = 0; h < 2; h++)
		pthread_create(&t[h], NULL, sum_half, (void *)h);
	for (int h = 0; h < 2; h++)
		pthread_join(t[h], NULL);
	uint64_t want = 0;
	for (int i = 0; i < 4096; i++)
		want += data[i];
	printf("threads %llu + %llu = %llu (%s)\n", (unsigned long long)halves[0], (unsigned long long)halves[1],
	       (unsigned long long)(halves[0] + halves[1]), halves[0] + halves[1] == want ? "right" : "wrong");
	return 0;
}
