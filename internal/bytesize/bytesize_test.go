package bytesize

import "testing"

func TestParse(t *testing.T) {
	for in, want := range map[string]uint64{"0": 0, "1048576": 1 << 20, "512MiB": 512 << 20, "4GiB": 4 << 30,
		"4G": 4 << 30, "1.5GiB": 3 << 29, "64 KiB": 64 << 10, "2MB": 2 << 20, "10B": 10} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
		if back, err := Parse(Flag(got)); err != nil || back != got {
			t.Errorf("Flag(%d) = %q reads back as %d, %v", got, Flag(got), back, err)
		}
	}
	for _, bad := range []string{"", "lots", "-1GiB", "4XB", "1e30G"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
	if got := Format(3 << 29); got != "1.5 GiB" {
		t.Errorf("Format(1.5GiB) = %q", got)
	}
}

func TestCountAndFormatSaySingular(t *testing.T) {
	for n, want := range map[uint64]string{1: "1 byte", 0: "0 bytes", 16: "16 bytes", 4096: "4096 bytes"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Format(1); got != "1 byte" {
		t.Errorf("Format(1) = %q, want 1 byte", got)
	}
}
