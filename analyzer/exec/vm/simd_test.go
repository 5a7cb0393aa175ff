package vm_test

import (
	"os"
	"path/filepath"
	"testing"

	"augur/analyzer/exec/sched"
	"augur/analyzer/frontend/load/loadtest"
)

// AVX code runs without an AVX processor: its 256-bit vectors are eight
// floats or integers to the interpreter, its fused multiply-add and
// compares are lowered element by element, and its movemask is modeled
// (simd.go). The output is what an AVX2 processor prints; the
// differential test cannot run this natively on a machine without AVX2,
// so it is written here. (testdata/run/simd_sse.c covers SSE natively.)
func TestAVXRunsAsItsElements(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "avx.c")
	code := `// cflags: -mavx2 -mfma
#include <immintrin.h>
#include <stdio.h>
int main(void) {
	__m256 a = _mm256_setr_ps(1, 2, 3, 4, 5, 6, 7, 8), b = _mm256_set1_ps(0.5f);
	float out[8];
	_mm256_storeu_ps(out, _mm256_fmadd_ps(a, b, a));
	for (int i = 0; i < 8; i++)
		printf("%g ", out[i]);
	__m256i y = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8);
	int iz[8];
	_mm256_storeu_si256((__m256i *)iz, _mm256_mullo_epi32(_mm256_add_epi32(_mm256_set1_epi32(7), y), y));
	for (int i = 0; i < 8; i++)
		printf("%d ", iz[i]);
	__m256i bytes = _mm256_cmpgt_epi8(_mm256_set1_epi8(3), _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7,
	                                                                         0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7));
	printf("| %d %x %x\n", _mm256_movemask_ps(_mm256_cmp_ps(a, _mm256_set1_ps(4.5f), _CMP_GT_OQ)),
	       _mm256_movemask_pd(_mm256_setr_pd(-1, 1, -1, 1)), (unsigned)_mm256_movemask_epi8(bytes));
	return 0;
}
`
	if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := runWithinBudget(t, loadtest.Program(t, dir, src), sched.RoundRobin{})
	const want = "1.5 3 4.5 6 7.5 9 10.5 12 8 18 30 44 60 78 98 120 | 240 5 7070707\n"
	if out != want {
		t.Errorf("printed %q, want %q", out, want)
	}
}
