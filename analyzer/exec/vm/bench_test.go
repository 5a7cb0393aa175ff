package vm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"augur/analyzer/exec/libc"
	"augur/analyzer/exec/vm"
	"augur/analyzer/frontend/bitcode"
	"augur/analyzer/frontend/build"
	"augur/analyzer/frontend/ir"
	"augur/analyzer/frontend/load/loadtest"
)

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// BenchmarkInterpretVsNative runs testdata/bench/compute.c natively
// (clang-14 -O0, the code augur interprets) and under the VM, alternating,
// and reports the median slowdown (target: at most 50x) and the VM's
// instructions per second.
func BenchmarkInterpretVsNative(b *testing.B) {
	src := "../../../testdata/bench/compute.c"
	bin := filepath.Join(b.TempDir(), "compute")
	if out, err := exec.Command("clang-14", "-O0", "-g", "-o", bin, src).CombinedOutput(); err != nil {
		b.Fatalf("native build: %v\n%s", err, out)
	}
	prog := loadtest.Program(b, b.TempDir(), src)
	// Native runs are short and noisy: take the median of many, interleaved
	// with the interpreted runs so both see the same machine load.
	const rounds, nativePerRound = 3, 5
	var native, interp []time.Duration
	var insts uint64
	var want string
	for i := 0; i < rounds; i++ {
		for k := 0; k < nativePerRound; k++ {
			start := time.Now()
			out, err := exec.Command(bin).Output()
			native = append(native, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			want = string(out)
		}
		var so bytes.Buffer
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"compute"}, Stdout: &so})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		res := m.Run()
		interp = append(interp, time.Since(start))
		if res.Term.Kind != vm.TermExit || so.String() != want {
			b.Fatalf("interpreted run: %s, output %q, want %q", res.Term.Report(), so.String(), want)
		}
		insts = res.Instructions
	}
	nm, im := median(native), median(interp)
	ratio := float64(im) / float64(nm)
	b.ReportMetric(ratio, "x-native")
	b.ReportMetric(float64(insts)/im.Seconds()/1e6, "Minst/s")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("interpret/native: native median %v, augur median %v, ratio %.1fx (target <= 50x), %d instructions, %.1f M instructions/s\n",
		nm, im, ratio, insts, float64(insts)/im.Seconds()/1e6)
	for i := 0; i < b.N; i++ {
	}
}

// BenchmarkHangProbeCost runs testdata/bench/compute.c under the VM with
// the periodic hang probes on (as every run has them) and off, in turn,
// and prints the median ratio: what looking for a loop that makes no
// progress costs a program that makes some (a probe watches 65,536
// instructions of every 32 Mi; the target is within 1.05x).
func BenchmarkHangProbeCost(b *testing.B) {
	src := "../../../testdata/bench/compute.c"
	prog := loadtest.Program(b, b.TempDir(), src)
	defer vm.SetHangProbes(true)
	run := func(probes bool) time.Duration {
		vm.SetHangProbes(probes)
		m, err := vm.New(prog, vm.Config{Models: libc.Models(), Args: []string{"compute"}, Stdout: &bytes.Buffer{}})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if res := m.Run(); res.Term.Kind != vm.TermExit {
			b.Fatalf("compute.c: %s", res.Term.Report())
		}
		return time.Since(start)
	}
	var on, off []time.Duration
	for i := 0; i < 9; i++ { // in turn, each first in every other round, from a collected heap
		for _, probes := range [][2]bool{{true, false}, {false, true}}[i%2] {
			runtime.GC()
			if d := run(probes); probes {
				on = append(on, d)
			} else {
				off = append(off, d)
			}
		}
	}
	ratio := float64(median(on)) / float64(median(off))
	b.ReportMetric(ratio, "probes/none")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("hang probes: compute.c median %v with, %v without, ratio %.3fx (target <= 1.05x)\n", median(on), median(off), ratio)
	for i := 0; i < b.N; i++ {
	}
}

// genProgram writes a C program of at least lines lines: many small
// functions with loops, branches, structs and calls between them.
func genProgram(path string, funcs int) (int, error) {
	var sb strings.Builder
	sb.WriteString("#include <stdio.h>\n#include <string.h>\n\nstruct rec { int a; long b; char name[16]; double w; };\n\n")
	for i := 0; i < funcs; i++ {
		fmt.Fprintf(&sb, "static struct rec table_%d[8];\n\n", i)
		fmt.Fprintf(&sb, "long work_%d(int n, struct rec *r) {\n", i)
		sb.WriteString("\tlong acc = 0;\n\tfor (int i = 0; i < n; i++) {\n")
		sb.WriteString("\t\tif (i % 3 == 0)\n\t\t\tacc += r->a * i;\n")
		sb.WriteString("\t\telse if (i % 3 == 1)\n\t\t\tacc -= (long)(r->w * 2.5);\n")
		sb.WriteString("\t\telse\n\t\t\tacc ^= r->b << (i & 7);\n\t}\n")
		fmt.Fprintf(&sb, "\ttable_%d[n & 7] = *r;\n", i)
		fmt.Fprintf(&sb, "\tsnprintf(table_%d[0].name, sizeof table_%d[0].name, \"f%%d\", n);\n", i, i)
		sb.WriteString("\tswitch (n & 3) {\n\tcase 0:\n\t\tacc += 1;\n\t\tbreak;\n\tcase 1:\n\t\tacc += 2;\n\t\tbreak;\n\tdefault:\n\t\tacc += 3;\n\t}\n")
		if i > 0 {
			fmt.Fprintf(&sb, "\treturn acc + (n > 0 ? work_%d(n - 1, r) : 0);\n}\n\n", i-1)
		} else {
			sb.WriteString("\treturn acc;\n}\n\n")
		}
	}
	sb.WriteString("int main(void) {\n\tstruct rec r = {3, 4, \"x\", 1.5};\n")
	fmt.Fprintf(&sb, "\tprintf(\"%%ld\\n\", work_%d(4, &r));\n\treturn 0;\n}\n", funcs-1)
	text := sb.String()
	return strings.Count(text, "\n"), os.WriteFile(path, []byte(text), 0o644)
}

// BenchmarkLoadLower measures loading and lowering the bitcode of a
// generated program of over 5,000 lines (target: under 0.5 s), with clang's
// compile time, measured in the same run, as the baseline.
func BenchmarkLoadLower(b *testing.B) {
	dir := b.TempDir()
	src := filepath.Join(dir, "big.c")
	lines, err := genProgram(src, 220)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	bc, err := build.Build(context.Background(), []string{src}, build.Options{CacheDir: dir})
	if err != nil {
		b.Fatal(err)
	}
	compile := time.Since(start)
	var loads []time.Duration
	var prog *ir.Program
	for i := 0; i < 5; i++ {
		start := time.Now()
		prog, err = bitcode.Load(bc.All())
		if err != nil {
			b.Fatal(err)
		}
		loads = append(loads, time.Since(start))
	}
	n := 0
	for _, f := range prog.Funcs {
		n += len(f.Insts)
	}
	lm := median(loads)
	b.ReportMetric(float64(lm.Milliseconds()), "ms/load")
	b.ReportMetric(0, "ns/op")
	fmt.Printf("load+lower: %d source lines, %d instructions, median %v (target < 500ms); clang -O0 compile of the same file %v (%.2fx of compile)\n",
		lines, n, lm, compile, float64(lm)/float64(compile))
	if lm > 500*time.Millisecond {
		b.Errorf("load+lower took %v, target is under 500ms", lm)
	}
	for i := 0; i < b.N; i++ {
	}
}
