// Package bytesize reads and writes byte counts the way augur's users give
// them: a number with an optional binary unit ("512MiB", "4GiB", "4G").
package bytesize

import (
	"fmt"
	"strconv"
	"strings"
)

// units are the suffixes Parse accepts, longest first; K, M and G mean
// powers of 1024 too, as in `ulimit` and most tools' memory flags.
var units = []struct {
	suffix string
	shift  uint
}{{"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}, {"KB", 10}, {"MB", 20}, {"GB", 30}, {"TB", 40},
	{"K", 10}, {"M", 20}, {"G", 30}, {"T", 40}, {"B", 0}}

// Parse reads a byte count such as "512MiB", "4G", "1.5GiB" or "1048576".
func Parse(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	shift := uint(0)
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, shift = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.shift
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v < 0 || v*float64(uint64(1)<<shift) >= 1<<62 {
		return 0, fmt.Errorf("want a size such as 512MiB or 4GiB, got %q", s)
	}
	return uint64(v * float64(uint64(1)<<shift)), nil
}

// Format renders n in the largest binary unit that keeps a digit before the
// point: "4.0 GiB", "512.0 MiB", "300 bytes".
func Format(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return Count(n)
}

// Count says exactly n bytes in English: "1 byte", "16 bytes" (an access's
// or an object's size, where Format's rounding would hide the number).
func Count[N ~int | ~int64 | ~uint64 | ~uint32](n N) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// Flag renders n as a flag value Parse reads back: "4GiB", "512MiB" or a
// plain number.
func Flag(n uint64) string {
	switch {
	case n == 0:
		return "0"
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	}
	return strconv.FormatUint(n, 10)
}
