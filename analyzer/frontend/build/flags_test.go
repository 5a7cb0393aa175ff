package build

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Flags that only change how the source is parsed pass; everything that
// could run code, write files or read flags from elsewhere is refused.
func TestCheckFlags(t *testing.T) {
	ok := [][]string{
		{"-I/usr/include/foo"}, {"-I", "include"}, {"-isystem", "/opt/x"}, {"-iquote", "q"}, {"-include", "config.h"},
		{"-DNDEBUG"}, {"-D", "X=1"}, {"-UX"}, {"-std=c11"}, {"-std=gnu++17"}, {"-ansi"}, {"-pedantic"},
		{"-Wall"}, {"-Wno-unused-variable"}, {"-Werror=format"}, {"-w"}, {"-fsigned-char"}, {"-funsigned-char"},
		{"-fms-extensions"}, {"-fno-builtin-printf"}, {"-msse4.2"}, {"-mavx2"}, {"-march=x86-64-v3"},
		{"-mno-red-zone"}, {"-mgeneral-regs-only"},
		{"-pthread"}, {"-x", "c++"}, {"--sysroot=/opt/sysroot"}, {"-fpack-struct=4"},
		{"-fno-strict-return"},
	}
	for _, f := range ok {
		if err := CheckFlags(f); err != nil {
			t.Errorf("%q refused: %v", f, err)
		}
	}
	bad := [][]string{
		{"-fplugin=/tmp/evil.so"}, {"-fpass-plugin=/tmp/evil.so"}, {"-Xclang", "-load"}, {"-Xclang"},
		{"-MJ", "/tmp/x.json"}, {"-MD"}, {"-MF", "deps"}, {"-o", "/tmp/out"}, {"@/tmp/flags"},
		{"--config", "/tmp/c.cfg"}, {"--config=/tmp/c.cfg"}, {"-B/tmp/bin"}, {"-specs=/tmp/s"},
		{"-Wl,-rpath,/tmp"}, {"-Wp,-MD,/tmp/x"}, {"-Wa,--foo"}, {"-mllvm", "-debug"}, {"-save-temps"},
		{"-fprofile-generate=/tmp/p"}, {"-ftime-trace"}, {"-m32"}, {"main.c"}, {"-I"},
		{"-I", "-fplugin=/tmp/evil.so"}, {"-D", "@/tmp/x"}, {"-x", "assembler"}, {"-O2"}, {"-c"},
		// -m options that take the next argument, which would slip past the check.
		{"-module-dependency-dir", "/tmp/x"}, {"-meabi", "gnu"}, {"-mthread-model", "posix"}, {"-mllvm"},
	}
	for _, f := range bad {
		if err := CheckFlags(f); err == nil {
			t.Errorf("%q accepted", f)
		}
	}
	var fe *FlagError
	if err := CheckFlags([]string{"-Wall", "-DX", "-fplugin=p.so"}); !errors.As(err, &fe) || fe.Index != 2 {
		t.Errorf("the error names the wrong flag: %v", err)
	}
}

// A refused flag never reaches clang, whoever filled the options.
func TestCompileRefusesFlags(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.c")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	marker := filepath.Join(dir, "written.json")
	_, err := CompileTU(context.Background(), src, Options{CacheDir: dir, Flags: []string{"-MJ", marker}}, "")
	if err == nil || !strings.Contains(err.Error(), "refused compiler flag") {
		t.Fatalf("compile with -MJ: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("clang ran with -MJ and wrote its file")
	}
	_, err = CompileTU(context.Background(), src, Options{CacheDir: dir, FileFlags: map[string][]string{src: {"-fplugin=/nonexistent.so"}}}, "")
	if err == nil || !strings.Contains(err.Error(), "refused compiler flag") {
		t.Fatalf("compile with -fplugin from a compilation database: %v", err)
	}
}
