package main

import (
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The interleaving timeline of a harmful race: `augur replay --format svg`
// writes well-formed SVG with a lane per thread and the racing access
// marked, and `--format html` is a page headless Chromium renders; the
// screenshot is kept (the test prints where) and must show the marked
// access and the outcome.
func TestReplayTimeline(t *testing.T) {
	dir := t.TempDir()
	if _, errOut, code := augur(t, "", "analyze", "--evidence-dir", dir, "../../testdata/classify/double_free.c"); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	evs, _ := filepath.Glob(filepath.Join(dir, "race-*.json"))
	if len(evs) == 0 {
		t.Fatal("no evidence written")
	}
	svg, errOut, code := augur(t, "", "replay", "--format", "svg", evs[0])
	if code != 0 {
		t.Fatalf("replay --format svg: exit %d: %s", code, errOut)
	}
	lanes, racing := 0, 0
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed: %v\n%s", err, svg)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" {
			for _, a := range el.Attr {
				if a.Name.Local == "class" && a.Value == "lane" {
					lanes++
				}
				if a.Name.Local == "class" && strings.Contains(a.Value, "racing") {
					racing++
				}
			}
		}
	}
	if lanes < 2 || racing == 0 || !strings.Contains(svg, "double free") {
		t.Fatalf("SVG with %d lanes and %d racing accesses:\n%s", lanes, racing, svg)
	}

	page := filepath.Join(dir, "timeline.html")
	if _, errOut, code := augur(t, "", "replay", "--format", "html", "-o", page, evs[0]); code != 0 {
		t.Fatalf("replay --format html: exit %d: %s", code, errOut)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium is not installed: `make setup` installs Debian's chromium for this test")
	}
	shot := filepath.Join(dir, "timeline.png")
	cmd := exec.Command(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+filepath.Join(dir, "chromium"), "--window-size=1100,700", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	red, yellow := countColor(img, 0xcf, 0x22, 0x2e), countColor(img, 0xff, 0xf8, 0xc5)
	if red < 50 || yellow < 1000 {
		t.Errorf("the screenshot shows %d pixels of the racing access's red and %d of the outcome's yellow", red, yellow)
	}
	if keep := os.Getenv("AUGUR_SCREENSHOT_DIR"); keep != "" {
		data, _ := os.ReadFile(shot)
		os.MkdirAll(keep, 0o755)
		shot = filepath.Join(keep, "timeline.png")
		os.WriteFile(shot, data, 0o644)
	}
	t.Logf("timeline screenshot: %s (%d racing-red and %d outcome-yellow pixels)", shot, red, yellow)
}

// countColor counts the pixels of img close to the color (r, g, b).
func countColor(img image.Image, r, g, b uint8) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			pr, pg, pb, _ := img.At(x, y).RGBA()
			if near(pr>>8, r) && near(pg>>8, g) && near(pb>>8, b) {
				n++
			}
		}
	}
	return n
}

func near(a uint32, b uint8) bool { return a+8 >= uint32(b) && a <= uint32(b)+8 }
