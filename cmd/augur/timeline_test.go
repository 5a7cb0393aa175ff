package main

import (
	"encoding/xml"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
	checkTimelinePage(t, page)
	// Evidence of a program named by its absolute path shows its source
	// lines too, with short file names.
	absDir := t.TempDir()
	src, _ := filepath.Abs("../../testdata/classify/double_free.c")
	if _, errOut, code := augur(t, "", "analyze", "--evidence-dir", absDir, src); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	absEvs, _ := filepath.Glob(filepath.Join(absDir, "race-*.json"))
	absPage := filepath.Join(absDir, "timeline.html")
	if len(absEvs) == 0 {
		t.Fatal("no evidence written")
	}
	if _, errOut, code := augur(t, "", "replay", "--format", "html", "-o", absPage, absEvs[0]); code != 0 {
		t.Fatalf("replay --format html: exit %d: %s", code, errOut)
	}
	checkTimelinePage(t, absPage)
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

// checkTimelinePage checks what the timeline of double_free.c says: what
// each thread did (thread 1 frees the buffer), the racing access with the
// value it read, the failing step in a box of its own, steps numbered one
// after another, and source text rather than long paths.
func checkTimelinePage(t *testing.T, page string) {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, want := range []string{"frees the memory allocated at double_free.c:19", "<code>free(buf);</code>",
		"racing access 1: reads buf", "(read a non-NULL pointer)", `class="ev failed"`, "fails: crash: double free",
		"release · double_free.c:12", "var(--vscode-editor-background"} {
		if !strings.Contains(doc, want) {
			t.Errorf("%s lacks %q", page, want)
		}
	}
	if strings.Contains(doc, "/…/") || strings.Contains(doc, "release · /") {
		t.Errorf("%s shows absolute paths", page)
	}
	steps := regexp.MustCompile(`<td class="step">(\d+)</td>`).FindAllStringSubmatch(doc, -1)
	for i, m := range steps {
		if m[1] != strconv.Itoa(i+1) {
			t.Errorf("step %d is numbered %s: the numbers jump", i+1, m[1])
			break
		}
	}
	if len(steps) < 4 {
		t.Errorf("%d steps in %s", len(steps), page)
	}
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

// The text report names places relative to the working directory in
// every line, the verdict's reason ("Decided by") included, even for a
// program given by its absolute path.
func TestReportPathsAreRelative(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/classify/double_free.c")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "double_free.c")
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(augurBin, "analyze", src)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "AUGUR_CACHE_DIR="+t.TempDir())
	out, _ := cmd.Output()
	if !strings.Contains(string(out), "Decided by") || !strings.Contains(string(out), "double_free.c:19") {
		t.Fatalf("no verdict naming the allocation in the report:\n%s", out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, dir) {
			t.Errorf("an absolute path in %q", line)
		}
	}
}
