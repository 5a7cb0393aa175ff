package build

import "testing"

// The runtime's std::filesystem and std::pmr parts are linked only into a
// program whose sources include their headers (or that brings bitcode of
// its own); the rest of the runtime always is.
func TestRuntimePartsFollowTheHeadersIncluded(t *testing.T) {
	const lib = "/usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/"
	plain := []string{lib + "string", lib + "bits/basic_string.h", "/work/p/main.cpp"}
	withFS := append(append([]string(nil), plain...), lib+"filesystem", lib+"bits/fs_path.h")
	withPMR := append(append([]string(nil), plain...), lib+"memory_resource")
	sources := []string{"/work/p/main.cpp"}
	cases := []struct {
		name         string
		inputs       []string
		files        []string
		fs, pmr, abi bool
	}{
		{"plain", plain, sources, false, false, true},
		{"filesystem", withFS, sources, true, false, true},
		{"memory_resource", withPMR, sources, false, true, true},
		{"bitcode of its own", plain, append(sources, "/work/p/lib.bc"), true, true, true},
	}
	for _, c := range cases {
		for base, want := range map[string]bool{"fs_path.cc": c.fs, "fs_ops.cc": c.fs, "fs_dir.cc": c.fs,
			"memory_resource.cc": c.pmr, "abi.cc": c.abi, "iostream.cc": c.abi} {
			if got := includesGate(base, c.inputs, c.files); got != want {
				t.Errorf("%s: %s linked %v, want %v", c.name, base, got, want)
			}
		}
	}
}
