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
