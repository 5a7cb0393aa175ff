package evidence

import (
	"fmt"
	"html"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"augur/analyzer/exec/vm"
	"augur/analyzer/judge/classify"
)

// The interleaving timeline: a replay drawn as one column per thread, time
// going down, one row per thing a thread did (a synchronization, a free, a
// racing access with the value it read or wrote, the failure), each with
// its statement, function and line; the racing accesses and the failing
// step marked, and the outcome of this order beside the other order's.
// `augur replay --format svg|html` writes it; the VS Code extension shows
// the HTML in a webview (in the editor's theme colours, through VS Code's
// CSS variables, which a plain browser lacks and replaces by light ones),
// and any other client can open the file.

// Picture formats of a timeline.
const (
	SVG  = "svg"
	HTML = "html"
)

// maxRows bounds the rows an SVG timeline draws: the rows around the
// racing accesses and the end are kept, the rest summed up in one line.
// An HTML timeline keeps up to maxPageRows, those outside the same
// windows folded (a click shows them), and sums up only what is past that.
const (
	maxRows     = 300
	maxPageRows = 4000
)

// row is one event as the timeline shows it.
type row struct {
	Event
	step int    // 1-based, counted over every event of the replay
	code string // the statement's source text
	at   string // "function · file:line"
	far  bool   // outside the windows around the racing accesses and the end
}

// rows turns the transcript's events into rows, keeping at most limit:
// those outside the windows around the racing accesses, the failure and
// the end are marked far, and the earliest far rows are left out when
// there are more than limit (elided counts them).
func (r *renderer) rows(tr *Transcript, limit int) (out []row, elided int) {
	all := make([]row, len(tr.Events))
	prev := 0 // the step of the row before
	for i, e := range tr.Events {
		all[i] = row{Event: e, step: i + 1}
		if e.Step != 0 {
			// The replay kept its events around the race (maxEvents):
			// those it dropped are left out here too.
			all[i].step = e.Step
			elided += e.Step - 1 - prev
		}
		prev = all[i].step
		if e.Loc.File != "" {
			all[i].code = withoutComment(strings.TrimSpace(r.src.line(e.Loc.File, e.Loc.Line)))
			all[i].at = fmt.Sprintf("%s:%d", r.show(e.Loc.File), e.Loc.Line)
		}
		if e.Function != "" {
			all[i].at = strings.TrimPrefix(e.Function+" · "+all[i].at, " · ")
		}
	}
	if len(all) <= maxRows {
		return all, elided
	}
	near := map[int]bool{}
	for i, x := range all {
		if x.Racing != 0 || x.Failed {
			for j := max(i-maxRows/4, 0); j < min(i+maxRows/8, len(all)); j++ {
				near[j] = true
			}
		}
	}
	for j := max(len(all)-maxRows/4, 0); j < len(all); j++ {
		near[j] = true
	}
	kept := 0
	for i := range all {
		all[i].far = !near[i] || kept >= maxRows
		if !all[i].far {
			kept++
		}
	}
	// The far rows to leave out: the earliest, as many as pass the limit.
	drop := max(len(all)-limit, 0)
	for _, x := range all {
		if x.far && drop > 0 {
			drop--
			elided++
			continue
		}
		out = append(out, x)
	}
	return out, elided
}

// show names a file for the picture: relative to base when inside it,
// else its base name (a long absolute path would fill the column).
func (r *renderer) show(file string) string {
	if rel := r.rel(file); !filepath.IsAbs(rel) {
		return rel
	}
	return filepath.Base(file)
}

// threadsOf lists the threads of rows in order, each with its start
// function (thread 0's is main).
func threadsOf(rows []row, starts map[int]string) (ids []int, fn map[int]string) {
	fn = map[int]string{}
	for _, x := range rows {
		if x.Thread < 0 {
			continue
		}
		if _, ok := fn[x.Thread]; !ok {
			fn[x.Thread] = starts[x.Thread]
			ids = append(ids, x.Thread)
		}
	}
	sort.Ints(ids)
	return ids, fn
}

// Timeline writes the replay tr of ev as a picture: format SVG or HTML.
// Paths are shown relative to base when inside it.
func (tr *Transcript) Timeline(w io.Writer, ev *Evidence, base, format string) error {
	r := renderer{base: base, src: sourceLines{}, starts: tr.Starts}
	this, other := r.outcomeLines(ev, tr)
	switch format {
	case SVG:
		// A picture cannot unfold: what is far from the race is left out.
		rows, elided := r.rows(tr, maxRows)
		var b strings.Builder
		r.w = &b
		r.drawSVG(ev, rows, elided, this, other)
		_, err := io.WriteString(w, b.String())
		return err
	case HTML:
		rows, elided := r.rows(tr, maxPageRows)
		var b strings.Builder
		r.w = &b
		r.drawHTML(ev, rows, elided, this, other)
		_, err := io.WriteString(w, b.String())
		return err
	}
	return fmt.Errorf("unknown timeline format %q (want svg or html)", format)
}

// title says what the picture shows, in a line.
func title(ev *Evidence) string {
	if ev.Kind == KindFailure {
		return fmt.Sprintf("How the program reaches the %s%s", ev.Expected.Termination, failurePlace(ev, filepath.Base))
	}
	switch ev.Category {
	case "spec-violated":
		return fmt.Sprintf("How the race on %s makes the program fail", ev.Race.Object)
	case "output-differs":
		return fmt.Sprintf("How the race on %s changes the output", ev.Race.Object)
	}
	return fmt.Sprintf("The race on %s", ev.Race.Object)
}

// pageStyle colours the page with VS Code's theme variables when it is in
// a webview, and light colours elsewhere; the table fits its column.
const pageStyle = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #222); background: var(--vscode-editor-background, #fff); margin: 12px; }
h1 { font-size: 1.3em; margin: 0 0 4px; }
p.lede { margin: 0 0 12px; color: var(--vscode-descriptionForeground, #57606a); }
table.timeline { border-collapse: separate; border-spacing: 6px 4px; table-layout: fixed; width: 100%; }
th { text-align: left; font-weight: 600; padding: 4px 8px; border-bottom: 2px solid var(--vscode-panel-border, #d0d7de); overflow-wrap: anywhere; }
th.step, td.step { width: 3em; text-align: right; color: var(--vscode-descriptionForeground, #57606a); vertical-align: top; padding-top: 8px; }
td { vertical-align: top; }
.ev { border: 1px solid var(--vscode-panel-border, #8c959f); border-radius: 4px; padding: 4px 8px; overflow-wrap: anywhere;
  background: var(--vscode-editorWidget-background, #fff); cursor: pointer; }
.ev .op { font-weight: 600; }
.ev code { font-family: var(--vscode-editor-font-family, monospace); display: block; white-space: pre-wrap; }
.ev .at { font-size: 0.9em; color: var(--vscode-descriptionForeground, #57606a); }
.ev .val { font-family: var(--vscode-editor-font-family, monospace); }
.ev.racing { border: 2px solid #cf222e; background: var(--vscode-inputValidation-errorBackground, #ffebe9); }
.ev.racing .op { color: var(--vscode-errorForeground, #cf222e); }
.ev.failed { border: 2px solid #cf222e; background: #cf222e; color: #fff; }
.ev.failed .at { color: #fff; }
.outcome { margin-top: 12px; display: grid; grid-template-columns: 1fr 1fr; gap: 8px; }
.outcome div { border: 1px solid #bf8700; border-radius: 4px; padding: 6px 8px; background: #fff8c5; color: #222; overflow-wrap: anywhere; }
.elided { color: var(--vscode-descriptionForeground, #57606a); font-style: italic; }
.fold label { cursor: pointer; }
tbody.folded { display: none; }
tbody.fold:has(input:checked) + tbody.folded { display: table-row-group; }
`

// drawHTML writes the page: a table with a column per thread.
func (r *renderer) drawHTML(ev *Evidence, rows []row, elided int, this, other string) {
	threads, fn := threadsOf(rows, r.starts)
	col := map[int]int{}
	for i, t := range threads {
		col[t] = i
	}
	esc := html.EscapeString
	fmt.Fprintf(r.w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>augur: %s</title>\n<style>%s</style></head>\n<body>\n",
		esc(title(ev)), pageStyle)
	how := lede
	if ev.Kind == KindFailure {
		how = failureLede
	}
	fmt.Fprintf(r.w, "<h1>%s</h1>\n<p class=\"lede\">%s %s</p>\n", esc(title(ev)), esc(r.kindLine(ev)), esc(how))
	width := ""
	if len(threads) > 3 {
		// Many threads: lanes keep a width code reads in, and the page
		// scrolls sideways, rather than five columns of a word a line.
		width = fmt.Sprintf(" style=\"width: %dem\"", 4+16*len(threads))
	}
	fmt.Fprintf(r.w, "<table class=\"timeline\"%s><thead><tr><th class=\"step\">step</th>", width)
	for _, t := range threads {
		name := fmt.Sprintf("thread %d", t)
		if fn[t] != "" {
			name += " (" + fn[t] + ")"
		}
		fmt.Fprintf(r.w, "<th>%s</th>", esc(name))
	}
	fmt.Fprint(r.w, "</tr></thead>\n<tbody>\n")
	if elided > 0 {
		fmt.Fprintf(r.w, "<tr><td></td><td class=\"elided\" colspan=\"%d\">(%d steps far from the race left out: augur replay lists the schedule's steps)</td></tr>\n", len(threads), elided)
	}
	for _, g := range groups(rows) {
		if g.folded {
			// A run of steps that shows nothing of the race (locks and
			// unlocks, mostly): one line that unfolds them, with no
			// script, so it works in a browser and in a webview alike.
			fmt.Fprintf(r.w, "</tbody>\n<tbody class=\"fold\"><tr><td></td><td class=\"elided\" colspan=\"%d\"><label><input type=\"checkbox\"> %s</label></td></tr></tbody>\n<tbody class=\"folded\">\n",
				len(threads), esc(g.summary()))
		}
		for _, x := range g.rows {
			r.htmlRow(ev, x, col, len(threads))
		}
		if g.folded {
			fmt.Fprint(r.w, "</tbody>\n<tbody>\n")
		}
	}
	fmt.Fprint(r.w, "</tbody></table>\n")
	if ev.Kind == KindFailure {
		fmt.Fprintf(r.w, "<div class=\"outcome\"><div><b>Outcome:</b> %s</div></div>\n", esc(this))
	} else {
		fmt.Fprintf(r.w, "<div class=\"outcome\"><div><b>This order (%s):</b> %s</div><div><b>The other order:</b> %s</div></div>\n",
			esc(ev.Order), esc(this), esc(other))
	}
	fmt.Fprint(r.w, "</body></html>\n")
}

// htmlRow writes one step: its number, and its box in its thread's column.
func (r *renderer) htmlRow(ev *Evidence, x row, col map[int]int, lanes int) {
	esc := html.EscapeString
	c, ok := col[x.Thread]
	if !ok {
		return
	}
	fmt.Fprintf(r.w, "<tr><td class=\"step\">%d</td>", x.step)
	for i := 0; i < c; i++ {
		fmt.Fprint(r.w, "<td></td>")
	}
	class, op := "ev", x.Op
	switch {
	case x.Failed:
		class += " failed"
		op = "fails: " + strings.ReplaceAll(x.Op, r.base+"/", "")
	case x.Racing != 0:
		class += " racing"
		op = fmt.Sprintf("racing access %d: %s %s", x.Racing, x.Op, shortObject(ev.Race.Object))
	}
	link := ""
	if x.Loc.File != "" {
		link = fmt.Sprintf(" data-file=\"%s\" data-line=\"%d\" title=\"open %s\"", esc(x.Loc.File), x.Loc.Line, esc(x.at))
	}
	fmt.Fprintf(r.w, "<td><div class=\"%s\"%s><span class=\"op\">%s</span>", class, link, esc(op))
	if x.Value != "" {
		verb := "value"
		if x.Op == "reads" {
			verb = "read"
		} else if x.Op == "writes" {
			verb = "wrote"
		}
		fmt.Fprintf(r.w, " <span class=\"val\">(%s %s)</span>", verb, esc(x.Value))
	}
	if x.code != "" {
		fmt.Fprintf(r.w, "<code>%s</code>", esc(x.code))
	}
	fmt.Fprintf(r.w, "<span class=\"at\">%s</span></div></td>", esc(x.at))
	for i := c + 1; i < lanes; i++ {
		fmt.Fprint(r.w, "<td></td>")
	}
	fmt.Fprint(r.w, "</tr>\n")
}

// kindLine says what the evidence is of, in a sentence.
func (r *renderer) kindLine(ev *Evidence) string {
	if ev.Kind == KindFailure {
		return "A failure reached under one schedule (" + ev.Reason + ")."
	}
	return ev.Category + " race."
}

// lede says how to read the picture.
const lede = "Each column is a thread, time goes down; each box is something the thread did, with its statement and line " +
	"(click to open it). The racing accesses are in red."

// failureLede says how to read the picture of a failure: the accesses
// shown are those the schedule could switch threads at, the accesses of
// the races found.
const failureLede = "Each column is a thread, time goes down; each box is something the thread did, with its statement and line " +
	"(click to open it). The memory accesses shown, with their values, are those of the races found, where this schedule " +
	"could switch threads; the failing step is in red."

// Layout of the SVG picture, in pixels.
const (
	laneWidth = 300
	laneGap   = 16
	margin    = 16
	headerH   = 40
	lineH     = 16
	boxPad    = 6
	stepW     = 36
)

// drawSVG draws the same picture as drawHTML as one SVG: lanes, a box per
// row, and the outcome (light colours: an SVG has no theme).
func (r *renderer) drawSVG(ev *Evidence, rows []row, elided int, this, other string) {
	threads, fn := threadsOf(rows, r.starts)
	lane := map[int]int{}
	for i, t := range threads {
		lane[t] = i
	}
	width := margin*2 + stepW + len(threads)*(laneWidth+laneGap)
	boxH := boxPad*2 + lineH*3
	y := headerH + margin
	if elided > 0 {
		y += lineH
	}
	outcomeY := y + len(rows)*(boxH+6) + 16
	height := outcomeY + 4*lineH + margin
	esc := html.EscapeString
	fmt.Fprintf(r.w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="monospace" font-size="12">`+"\n", width, height)
	fmt.Fprintf(r.w, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", width, height)
	fmt.Fprintf(r.w, `<title>%s</title>`+"\n", esc(title(ev)))
	for i, t := range threads {
		x := margin + stepW + i*(laneWidth+laneGap)
		fmt.Fprintf(r.w, `<rect class="lane" x="%d" y="%d" width="%d" height="%d" fill="#f4f6f8" stroke="#d0d7de"/>`+"\n",
			x, margin, laneWidth, outcomeY-margin-8)
		name := fmt.Sprintf("thread %d", t)
		if fn[t] != "" {
			name += " (" + fn[t] + ")"
		}
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", x+8, margin+22, esc(clip(name, 36)))
	}
	if elided > 0 {
		fmt.Fprintf(r.w, `<text x="%d" y="%d" fill="#57606a">(%d steps far from the race left out)</text>`+"\n", margin, headerH+margin+12, elided)
	}
	for _, x := range rows {
		l, ok := lane[x.Thread]
		if !ok {
			continue
		}
		bx := margin + stepW + l*(laneWidth+laneGap) + 6
		w := laneWidth - 12
		fill, stroke, text := "#ffffff", "#8c959f", "#222222"
		op := x.Op
		switch {
		case x.Failed:
			fill, stroke, text = "#cf222e", "#cf222e", "#ffffff"
			op = "fails: " + strings.ReplaceAll(x.Op, r.base+"/", "")
		case x.Racing != 0:
			fill, stroke, text = "#ffebe9", "#cf222e", "#cf222e"
			op = fmt.Sprintf("racing access %d: %s %s", x.Racing, x.Op, shortObject(ev.Race.Object))
		}
		if x.Value != "" {
			op += " (" + x.Value + ")"
		}
		fmt.Fprintf(r.w, `<text x="%d" y="%d" fill="#57606a" text-anchor="end">%d</text>`+"\n", margin+stepW-6, y+boxPad+12, x.step)
		fmt.Fprintf(r.w, `<rect class="%s" x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="%s" stroke-width="%d"/>`+"\n",
			boxClass(x.Racing, x.Failed), bx, y, w, boxH, fill, stroke, 1+min(x.Racing+b2i(x.Failed), 1))
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-weight="bold" fill="%s">%s</text>`+"\n", bx+boxPad, y+boxPad+12, text, esc(clip(op, 44)))
		fmt.Fprintf(r.w, `<text x="%d" y="%d" fill="%s">%s</text>`+"\n", bx+boxPad, y+boxPad+12+lineH, text, esc(clip(x.code, 44)))
		fmt.Fprintf(r.w, `<text x="%d" y="%d" fill="%s" font-size="11">%s</text>`+"\n", bx+boxPad, y+boxPad+12+2*lineH, text, esc(clip(x.at, 48)))
		y += boxH + 6
	}
	y = outcomeY
	fmt.Fprintf(r.w, `<rect class="outcome" x="%d" y="%d" width="%d" height="%d" rx="4" fill="#fff8c5" stroke="#bf8700"/>`+"\n",
		margin, y, width-2*margin, 3*lineH+8)
	if ev.Kind == KindFailure {
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-weight="bold">outcome: %s</text>`+"\n", margin+8, y+lineH,
			esc(clip(this, (width-2*margin)/7-12)))
	} else {
		fmt.Fprintf(r.w, `<text x="%d" y="%d" font-weight="bold">this order (%s): %s</text>`+"\n", margin+8, y+lineH,
			esc(ev.Order), esc(clip(this, (width-2*margin)/7-24)))
		fmt.Fprintf(r.w, `<text x="%d" y="%d">the other order: %s</text>`+"\n", margin+8, y+2*lineH+4, esc(clip(other, (width-2*margin)/7-18)))
	}
	fmt.Fprint(r.w, "</svg>\n")
}

// shortObject names the racing memory briefly inside a box: a variable by
// its name, a heap or stack object as "it" (the title says which).
func shortObject(o string) string {
	if strings.HasPrefix(o, "heap object") || strings.HasPrefix(o, "stack object") {
		return "it"
	}
	return o
}

// withoutComment drops a trailing // comment from a line of C (not one
// inside a string literal).
func withoutComment(line string) string {
	inStr := false
	for i := 0; i+1 < len(line); i++ {
		switch {
		case line[i] == '\\' && inStr:
			i++
		case line[i] == '"':
			inStr = !inStr
		case !inStr && line[i] == '/' && line[i+1] == '/':
			return strings.TrimSpace(line[:i])
		}
	}
	return line
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func boxClass(racing int, failed bool) string {
	switch {
	case failed:
		return "step failed"
	case racing != 0:
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
	case tr.Result != nil && ev.Category == "output-differs" && ev.Expected.Stdout == ev.Expected.OtherStdout &&
		len(ev.Expected.Files) > 0 && len(ev.Expected.OtherFiles) > 0:
		// The same output; the first file the orders left differently,
		// where it first differs.
		mine, theirs := fileSides(ev.Expected.Files[0], ev.Expected.OtherFiles[0])
		this = fmt.Sprintf("exit %d, %s", tr.Result.Term.Status, mine)
		other = theirs
	case tr.Result != nil && ev.Category == "output-differs":
		// The two outputs, where they first differ: their first lines
		// are often the same banner.
		mine, theirs := FirstDifference(ev.Expected.Stdout, ev.Expected.OtherStdout).Sides()
		this = "exit " + fmt.Sprint(tr.Result.Term.Status) + ", printing at " + mine
		other = "prints at " + theirs
	case tr.Result != nil:
		this = "exit " + fmt.Sprint(tr.Result.Term.Status) + ", printing " + FirstLine(ev.Expected.Stdout)
	default:
		this = ev.Expected.Termination
	}
	if !tr.Reproduced {
		this += " (not reproduced: " + tr.Mismatch + ")"
	}
	if ev.Category == "output-differs" {
		if other == "" {
			other = "prints " + FirstLine(ev.Expected.OtherStdout)
		}
		return this, other
	}
	return this, "runs to its end"
}

// Difference is where two outputs first differ: the 1-based line, each
// output's text there (A and B; "" past an output's end, with AEnded or
// BEnded set), and the line before it both printed (Before, for context;
// "" at the first line). Equal outputs have Line 0.
type Difference struct {
	Line           int
	A, B, Before   string
	AEnded, BEnded bool
}

// FirstDifference compares two outputs line by line.
func FirstDifference(a, b string) Difference {
	as, bs := outputLines(a), outputLines(b)
	for i := 0; i < max(len(as), len(bs)); i++ {
		if i < len(as) && i < len(bs) && as[i] == bs[i] {
			continue
		}
		d := Difference{Line: i + 1, AEnded: i >= len(as), BEnded: i >= len(bs)}
		if !d.AEnded {
			d.A = as[i]
		}
		if !d.BEnded {
			d.B = bs[i]
		}
		if i > 0 {
			d.Before = as[i-1]
		}
		return d
	}
	return Difference{}
}

// fileSides says how two orders left a file, where its versions first
// differ: "leaving out.txt with line 2: \"7\"" and "leaves out.txt with
// line 2: \"8\"", or that an order removed it or left it as given.
func fileSides(f, o classify.File) (this, other string) {
	d := FirstDifference(f.Contents, o.Contents)
	side := func(x classify.File, text string) string {
		switch {
		case x.Untouched:
			return x.Name() + " as given, or without making it"
		case x.Removed:
			return x.Name() + " removed"
		case d.Line == 0: // the same first vm.MaxFileHead bytes
			return fmt.Sprintf("%s with %d bytes", x.Name(), x.Size)
		}
		return x.Name() + " with " + text
	}
	a, b := d.Sides()
	return "leaving " + side(f, a), "leaves " + side(o, b)
}

// outputLines splits an output into its lines, without the empty one
// after a final newline.
func outputLines(out string) []string {
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// Sides says a difference as two quotes, for a sentence: "line 3:
// \"task 7\"" and "line 3: \"task 8\"", or "nothing from line 3 on".
func (d Difference) Sides() (a, b string) {
	side := func(text string, ended bool) string {
		if ended {
			return fmt.Sprintf("nothing from line %d on", d.Line)
		}
		return fmt.Sprintf("line %d: %q", d.Line, text)
	}
	return side(d.A, d.AEnded), side(d.B, d.BEnded)
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
	if n < 4 || len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// minFold is the shortest run of uneventful steps a timeline folds.
const minFold = 4

// group is a run of a timeline's rows, folded when none of them shows the
// race or the failure: a lock a thread takes and releases a hundred times
// before the race would push the racing accesses thousands of pixels down.
type group struct {
	rows   []row
	folded bool
}

// groups splits rows into runs: each run of at least minFold uneventful
// rows is folded, the rest shown.
func groups(rows []row) []group {
	var out []group
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && !rows[j].eventful() {
			j++
		}
		switch {
		case j-i >= minFold:
			out = append(out, group{rows: rows[i:j], folded: true})
		case j > i:
			out = appendShown(out, rows[i:j])
		}
		if j < len(rows) {
			out = appendShown(out, rows[j:j+1])
			j++
		}
		i = j
	}
	return out
}

// appendShown adds rows to the last group when it is shown too.
func appendShown(gs []group, rows []row) []group {
	if n := len(gs); n > 0 && !gs[n-1].folded {
		gs[n-1].rows = append(gs[n-1].rows, rows...)
		return gs
	}
	return append(gs, group{rows: append([]row(nil), rows...)})
}

// eventful reports whether a row shows something of the race or the
// failure: a racing access, the failure, an access with its value (a
// failure's timeline shows the accesses its schedule switched at), or a
// thread created, joined or memory freed, which order the racing threads.
// A far row (rows) is folded whatever it holds, so the race is in view
// first.
func (x row) eventful() bool {
	if x.far {
		return false
	}
	if x.Racing != 0 || x.Failed || x.Value != "" {
		return true
	}
	for _, p := range []string{"creates thread", "joins thread", "frees"} {
		if strings.HasPrefix(x.Op, p) {
			return true
		}
	}
	return false
}

// summary says what a folded run holds: "36 steps of threads 1 and 3:
// locks, unlocks (show them)".
func (g group) summary() string {
	count := map[string]int{}
	var ops []string
	threads := map[int]bool{}
	var ids []int
	for _, x := range g.rows {
		if count[x.Op] == 0 {
			ops = append(ops, x.Op)
		}
		count[x.Op]++
		if !threads[x.Thread] {
			threads[x.Thread] = true
			ids = append(ids, x.Thread)
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return count[ops[i]] > count[ops[j]] })
	if len(ops) > 3 {
		ops = append(ops[:3], "…")
	}
	sort.Ints(ids)
	who := make([]string, len(ids))
	for i, t := range ids {
		who[i] = fmt.Sprint(t)
	}
	of := "thread " + who[0]
	if len(who) > 1 {
		of = "threads " + strings.Join(who[:len(who)-1], ", ") + " and " + who[len(who)-1]
	}
	return fmt.Sprintf("%d steps of %s: %s (show them)", len(g.rows), of, strings.Join(ops, ", "))
}
