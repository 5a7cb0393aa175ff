package build

import (
	"maps"
	"slices"
	"testing"
)

// The runtime's gated parts (std::filesystem, std::pmr, time_get, the
// string streams' C++20 members) are linked only into a program whose
// sources include their headers (or that brings bitcode of its own); the
// rest of the runtime always is.
func TestRuntimePartsFollowTheHeadersIncluded(t *testing.T) {
	const lib = "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/"
	plain := []string{lib + "string", lib + "bits/basic_string.h", "/work/p/main.cpp"}
	with := func(headers ...string) []string {
		out := append([]string(nil), plain...)
		for _, h := range headers {
			out = append(out, lib+h)
		}
		return out
	}
	sources := []string{"/work/p/main.cpp"}
	fs := []string{"fs_path.cc", "fs_ops.cc", "fs_dir.cc"}
	cases := []struct {
		name   string
		inputs []string
		files  []string
		linked []string // the gated parts linked; abi.cc and iostream.cc always are
	}{
		{"plain", plain, sources, nil},
		{"filesystem", with("filesystem", "bits/fs_path.h"), sources, fs},
		{"memory_resource", with("memory_resource"), sources, []string{"memory_resource.cc"}},
		{"iomanip", with("iomanip", "locale", "bits/locale_facets_nonio.h"), sources, []string{"time_get.cc"}},
		{"sstream", with("sstream"), sources, []string{"sstream20.cc"}},
		{"iconv", append(with(), "/usr/include/iconv.h"), sources, []string{"iconv.c"}},
		{"wordexp", append(with(), "/usr/include/wordexp.h"), sources, []string{"wordexp.c"}},
		{"wchar", append(with(), "/usr/include/wchar.h"), sources, []string{"wstdio.c"}},
		{"mqueue", append(with(), "/usr/include/mqueue.h"), sources, []string{"mqueue.c"}},
		{"sysv ipc", append(with(), "/usr/include/x86_64-linux-gnu/sys/ipc.h"), sources, []string{"sysv_ipc.c"}},
		{"bitcode of its own", plain, append(sources, "/work/p/lib.bc"),
			append(fs, "memory_resource.cc", "time_get.cc", "sstream20.cc", "iconv.c", "wordexp.c", "wstdio.c", "mqueue.c", "sysv_ipc.c")},
	}
	for _, c := range cases {
		for _, base := range append(slices.Collect(maps.Keys(gatedRuntime)), "abi.cc", "iostream.cc") {
			_, gated := gatedRuntime[base]
			want := !gated || slices.Contains(c.linked, base)
			if got := includesGate(base, c.inputs, c.files); got != want {
				t.Errorf("%s: %s linked %v, want %v", c.name, base, got, want)
			}
		}
	}
}
