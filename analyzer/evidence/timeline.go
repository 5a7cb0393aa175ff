package evidence

import (
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"augur/analyzer/vm"
)

// The interleaving timeline: a replay drawn as one lane per thread, time
// going down, each stretch of one thread's steps a box in its lane with
// the source lines it ran, the two racing accesses marked, and the outcome
// of the order at the bottom beside the other order's. `augur replay
// --format svg|html` writes it; the VS Code extension shows the HTML in a
// webview, and any other client can open the file.

// Picture formats of a timeline.
const (
	SVG  = "svg"
	HTML = "html"
)

// maxBoxes bounds the boxes a timeline draws: a replay that switches
// threads at every shared access can have thousands of steps, and the
// stretches past the bound are summed up in one line.
const maxBoxes = 300

// box is a stretch of consecutive steps of one thread.
type box struct {
	thread     int
	first, end int // step indexes [first, end)
	lines      []string
	racing     int // 1 or 2 when it holds a racing access
	racingAt   string
	file       string // the first step's file and line, for links
	line       int
}

// boxes groups a transcript's steps into stretches of one thread; a racing
// access always starts a stretch of its own, so it stands out.
func (r *renderer) boxes(tr *Transcript) []box {
	var out []box
	for i, s := range tr.Steps {
		at := ""
		if s.Loc.File != "" {
			at = fmt.Sprintf("%s:%d", r.rel(s.Loc.File), s.Loc.Line)
		}
		last := len(out) - 1
		if last < 0 || out[last].thread != s.Thread || s.Racing != 0 || out[last].racing != 0 {
			out = append(out, box{thread: s.Thread, first: i, file: s.Loc.File, line: s.Loc.Line})
			last++
		}
		b := &out[last]
		b.end = i + 1
		if s.Racing != 0 {
			b.racing, b.racingAt = s.Racing, at
		}
		if at != "" && (len(b.lines) == 0 || b.lines[len(b.lines)-1] != at) {
			b.lines = append(b.lines, at)
		}
	}
	return out
}

// Timeline writes the replay tr of ev as a picture: format SVG or HTML
// (an SVG inside a page, with each box linked to its source line). Paths
// are shown relative to base when inside it.
func (tr *Transcript) Timeline(w io.Writer, ev *Evidence, base, format string) error {
	r := renderer{base: base, src: sourceLines{}}
	bs := r.boxes(tr)
	var threads []int
	seen := map[int]bool{}
	for _, b := range bs {
		if b.thread >= 0 && !seen[b.thread] {
			seen[b.thread] = true
			threads = append(threads, b.thread)
		}
	}
	sort.Ints(threads)
	lane := map[int]int{}
	for i, t := range threads {
		lane[t] = i
	}
	elided := 0
	if len(bs) > maxBoxes {
		// Keep the stretches around the racing accesses and the end.
		keep := map[int]bool{}
		for i, b := range bs {
			if b.racing != 0 {
				for j := max(i-maxBoxes/4, 0); j < min(i+maxBoxes/4, len(bs)); j++ {
					keep[j] = true
				}
			}
		}
		for j := max(len(bs)-maxBoxes/4, 0); j < len(bs); j++ {
			keep[j] = true
		}
		var kept []box
		for i, b := range bs {
			if keep[i] && len(kept) < maxBoxes {
				kept = append(kept, b)
			} else {
				elided++
			}
		}
		bs = kept
	}
	var svg strings.Builder
	r.w = &svg
	r.drawSVG(ev, tr, bs, threads, lane, elided, format == HTML)
	switch format {
	case SVG:
		_, err := io.WriteString(w, svg.String())
		return err
	case HTML:
		_, err := fmt.Fprintf(w, `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>augur: %s race on %s</title>
<style>
body { font-family: sans-serif; margin: 16px; background: #fff; color: #222; }
a.step { cursor: pointer; }
a.step:hover rect { stroke-width: 3; }
</style></head>
<body>
<h1>%s race on <code>%s</code></h1>
<p>%s</p>
%s
</body></html>
`, html.EscapeString(ev.Category), html.EscapeString(ev.Race.Object), html.EscapeString(ev.Category),
			html.EscapeString(ev.Race.Object), html.EscapeString(ev.Reason), svg.String())
		return err
	}
	return fmt.Errorf("unknown timeline format %q (want svg or html)", format)
}

// Layout of the picture, in pixels.
const (
	laneWidth = 320
	laneGap   = 24
	margin    = 16
	headerH   = 40
	lineH     = 16
	boxPad    = 6
)

// drawSVG draws the lanes, the boxes and the outcome.
func (r *renderer) drawSVG(ev *Evidence, tr *Transcript, bs []box, threads []int, lane map[int]int, elided int, links bool) {
	width := margin*2 + len(threads)*(laneWidth+laneGap)
	y := headerH + margin
	type placed struct {
		box
		y, h int
	}
	var ps []placed
	for _, b := range bs {
		n := min(len(b.lines), 4)
		h := boxPad*2 + lineH*(1+n)
		ps = append(ps, placed{b, y, h})
		y += h + 8
	}
	outcomeY := y + 16
	height := outcomeY + 4*lineH + margin*2
	if elided > 0 {
		height += lineH
	}
	fmt.Fprintf(r.w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="12">`+"\n", width, height)
	fmt.Fprintf(r.w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	for i, t := range threads {
		x := margin + i*(laneWidth+laneGap)
		fmt.Fprintf(r.w, `<rect class="lane" x="%d" y="%d" width="%d" height="%d" fill="#f4f6f8" stroke="#d0d7de"/>`+"\n",
			x, margin, laneWidth, outcomeY-margin-8)
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-size="14" font-weight="bold">thread %d</text>`+"\n", x+8, margin+22, t)
	}
	prevX, prevY := -1, 0
	for _, p := range ps {
		l, ok := lane[p.thread]
		if !ok {
			continue // a step of an exited thread
		}
		x := margin + l*(laneWidth+laneGap) + 8
		w := laneWidth - 16
		fill, stroke := "#ffffff", "#8c959f"
		title := fmt.Sprintf("steps %d-%d", p.first+1, p.end)
		if p.racing != 0 {
			fill, stroke = "#ffebe9", "#cf222e"
			title = fmt.Sprintf("racing access %d (step %d)", p.racing, p.first+1)
		}
		if prevX >= 0 && prevX != x {
			// The scheduler switched threads here.
			fmt.Fprintf(r.w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#57606a" stroke-dasharray="4 3"/>`+"\n",
				prevX+w/2, prevY, x+w/2, p.y)
		}
		if links && p.file != "" {
			fmt.Fprintf(r.w, `<a class="step" href="%s" data-file="%s" data-line="%d">`, html.EscapeString(fileURL(p.file, p.line)),
				html.EscapeString(p.file), p.line)
		}
		fmt.Fprintf(r.w, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="%s" stroke-width="%d"><title>%s</title></rect>`+"\n",
			boxClass(p.racing), x, p.y, w, p.h, fill, stroke, 1+min(p.racing, 1), html.EscapeString(title))
		head := title
		if p.racing != 0 {
			head = fmt.Sprintf("racing access %d: %s", p.racing, p.racingAt)
		}
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-weight="bold" fill="%s">%s</text>`+"\n", x+boxPad, p.y+boxPad+12, stroke,
			html.EscapeString(head))
		for i, line := range p.lines {
			if i == 4 {
				break
			}
			text := line
			if file, n, ok := splitLoc(line); ok {
				if code := r.src.line(r.abs(file), n); code != "" {
					text = line + "  " + code
				}
			}
			if i == 3 && len(p.lines) > 4 {
				text = fmt.Sprintf("... and %d more lines", len(p.lines)-3)
			}
			fmt.Fprintf(r.w, `<text x="%d" y="%d">%s</text>`+"\n", x+boxPad, p.y+boxPad+12+lineH*(i+1), html.EscapeString(clip(text, 40)))
		}
		if links && p.file != "" {
			fmt.Fprint(r.w, "</a>\n")
		}
		prevX, prevY = x, p.y+p.h
	}
	y = outcomeY
	if elided > 0 {
		fmt.Fprintf(r.w, `<text x="%d" y="%d" fill="#57606a">(%d stretches of steps before the race are left out)</text>`+"\n", margin, y, elided)
		y += lineH
	}
	this, other := r.outcomeLines(ev, tr)
	fmt.Fprintf(r.w, `<rect class="outcome" x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fff8c5" stroke="#bf8700"/>`+"\n",
		margin, y, width-2*margin, 3*lineH+8)
	fmt.Fprintf(r.w, `<text x="%d" y="%d" font-weight="bold">outcome of this order (%s): %s</text>`+"\n", margin+8, y+lineH,
		html.EscapeString(ev.Order), html.EscapeString(clip(this, 100)))
	fmt.Fprintf(r.w, `<text x="%d" y="%d">the other order: %s</text>`+"\n", margin+8, y+2*lineH+4, html.EscapeString(clip(other, 110)))
	fmt.Fprint(r.w, "</svg>\n")
}

func boxClass(racing int) string {
	if racing != 0 {
		return "step racing"
	}
	return "step"
}

// outcomeLines says how this order ended and what the other did.
func (r *renderer) outcomeLines(ev *Evidence, tr *Transcript) (this, other string) {
	switch {
	case tr.Result != nil && tr.Result.Term.Kind != vm.TermExit:
		t := tr.Result.Term
		this = fmt.Sprintf("%s: %s", t.Kind, strings.ReplaceAll(t.Message, r.base+"/", ""))
	case tr.Result != nil:
		this = "exit " + fmt.Sprint(tr.Result.Term.Status) + ", printing " + FirstLine(ev.Expected.Stdout)
	default:
		this = ev.Expected.Termination
	}
	if !tr.Reproduced {
		this += " (not reproduced: " + tr.Mismatch + ")"
	}
	if ev.Category == "output-differs" {
		return this, "prints " + FirstLine(ev.Expected.OtherStdout)
	}
	return this, "runs to its end"
}

// FirstLine quotes the first line of a program's output, marking what
// follows, for a sentence about it ("nothing" when it printed nothing).
func FirstLine(out string) string {
	if out == "" {
		return "nothing"
	}
	line, rest, _ := strings.Cut(out, "\n")
	if strings.TrimSpace(rest) != "" {
		return fmt.Sprintf("%q and more", line)
	}
	return fmt.Sprintf("%q", line)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// splitLoc splits "file:line".
func splitLoc(loc string) (string, int, bool) {
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		return "", 0, false
	}
	var n int
	if _, err := fmt.Sscan(loc[i+1:], &n); err != nil {
		return "", 0, false
	}
	return loc[:i], n, true
}

// abs undoes rel for reading a source line.
func (r *renderer) abs(p string) string {
	if r.base != "" && !strings.HasPrefix(p, "/") {
		return r.base + "/" + p
	}
	return p
}

// fileURL links a source line: a file URL with the line as its fragment,
// which editors and the VS Code webview (through data-file and
// data-line) open at that line.
func fileURL(file string, line int) string {
	return fmt.Sprintf("file://%s#L%d", file, line)
}
