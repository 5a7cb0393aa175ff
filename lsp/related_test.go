package lsp_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A race diagnostic carries what clangd users expect of a diagnostic: its
// category as code, linked to the category's documentation, and related
// information for every place the race involves — the other access, the
// allocation, where the harmful order fails, where it freed the memory,
// and who called the racing functions.
func TestRaceDiagnosticsPointAtEverythingTheRaceInvolves(t *testing.T) {
	c, path := analyzed(t, "retire.c")
	want := expectations(t, path)
	got := map[int]Diagnostic{}
	for _, d := range raceDiags(c.diagnostics(path)) {
		got[d.Range.Start.Line] = d
	}
	for line, cats := range want {
		d, ok := got[line]
		if !ok {
			t.Fatalf("no diagnostic on line %d (%s)", line+1, cats)
		}
		if !slices.Contains(cats, d.Code) {
			t.Errorf("line %d: code %q, want one of %q", line+1, d.Code, cats)
		}
		checkCategoryLink(t, d)
	}

	// The read of the freed job (line 35): every place, each once.
	related := relatedAt(got[34])
	for _, want := range []string{
		"27 the other access: free of `j->id`",
		"19 the racing object is allocated here",
		"35 the harmful order fails here, in thread 1: use after free",
		"27 the memory is freed here",
		"46 this access: peek is called here, from reporter",
		"40 the other access: retire is called here, from finisher",
	} {
		if !hasPrefixed(related, want) {
			t.Errorf("the use's related information lacks %q; it is:\n%s", want, strings.Join(related, "\n"))
		}
	}
	seen := map[string]bool{}
	for _, r := range related {
		if seen[r] {
			t.Errorf("related information repeats %q", r)
		}
		seen[r] = true
	}
	// Every place is the program's own file, as an editor opens it: the
	// report names files relative to the workspace, the client needs
	// them whole.
	for _, r := range got[34].RelatedInformation {
		if r.Location.URI != fileURI(path) {
			t.Errorf("%q points at %s, want %s", r.Message, r.Location.URI, fileURI(path))
		}
	}
	// The other race (on the pointer) has no allocation, a global, and
	// its harmful order fails at the same use of the freed job.
	fails := false
	for _, r := range relatedAt(got[31]) {
		if strings.Contains(r, "allocated") {
			t.Errorf("the race on current points at %q", r)
		}
		fails = fails || strings.HasPrefix(r, "35 the harmful order fails here")
	}
	if !fails {
		t.Errorf("the race on current does not point at where its harmful order fails: %s", strings.Join(relatedAt(got[31]), "\n"))
	}
}

// A C++ thread's lambda is called through libstdc++'s headers: the related
// information names the program's own callers and none of those frames,
// which the user neither wrote nor can change.
func TestRelatedInformationSkipsLibraryFrames(t *testing.T) {
	c, path := analyzed(t, "workers.cpp")
	var d *Diagnostic
	for _, rd := range raceDiags(c.diagnostics(path)) {
		if rd.Range.Start.Line == 9 {
			d = &rd
		}
	}
	if d == nil {
		t.Fatalf("no race diagnostic on line 10: %+v", c.diagnostics(path))
	}
	related := relatedAt(*d)
	for _, want := range []string{
		"10 the other access: ",
		"16 this access: serve_one is called here, from main::$_0::operator()",
		"16 the other access: serve_one is called here, from main::$_0::operator()",
	} {
		if !hasPrefixed(related, want) {
			t.Errorf("related information lacks %q; it is:\n%s", want, strings.Join(related, "\n"))
		}
	}
	for _, r := range d.RelatedInformation {
		if r.Location.URI != fileURI(path) {
			t.Errorf("%q points at %s, outside the program", r.Message, r.Location.URI)
		}
	}
}

// hasPrefixed reports whether one of lines begins with prefix.
func hasPrefixed(lines []string, prefix string) bool {
	return slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, prefix) })
}

// relatedAt renders a diagnostic's related information as "LINE message",
// with 1-based lines.
func relatedAt(d Diagnostic) []string {
	var out []string
	for _, r := range d.RelatedInformation {
		out = append(out, fmt.Sprintf("%d %s", r.Location.Range.Start.Line+1, r.Message))
	}
	return out
}

// checkCategoryLink checks that a race diagnostic links to its category's
// section of docs/categories.md, and that the section exists.
func checkCategoryLink(t *testing.T, d Diagnostic) {
	t.Helper()
	if d.CodeDescription == nil {
		t.Errorf("%s diagnostic has no codeDescription", d.Code)
		return
	}
	u, err := url.Parse(d.CodeDescription.Href)
	if err != nil || u.Scheme != "file" || u.Fragment != d.Code {
		t.Errorf("codeDescription %q: want a file URI with the fragment %q", d.CodeDescription.Href, d.Code)
		return
	}
	doc, err := os.ReadFile(u.Path)
	if err != nil || filepath.Base(u.Path) != "categories.md" {
		t.Errorf("codeDescription %q: %v", d.CodeDescription.Href, err)
		return
	}
	if !strings.Contains(string(doc), "\n## "+d.Code+"\n") {
		t.Errorf("%s has no section %q", u.Path, d.Code)
	}
}

// Races inside a library are shown at the program's call into it: two
// threads inserting into one std::map race on dozens of words of
// libstdc++'s tree, and the editor shows one diagnostic at the insert,
// naming the call and standing for the rest, with no place in a header
// or in augur's runtime.
func TestLibraryRacesShowAtTheProgramsCall(t *testing.T) {
	c, path := analyzed(t, "shared_map.cpp")
	// The failures of the corrupted tree inside operator[] show at the
	// call too, with the program's callers only.
	failures := 0
	for _, d := range c.diagnostics(path) {
		if d.Code == "memory-error" || d.Code == "crash" {
			failures++
			if d.Range.Start.Line != 11 {
				t.Errorf("failure on line %d, want the insert (line 12): %s", d.Range.Start.Line+1, d.Message)
			}
			for _, r := range d.RelatedInformation {
				if r.Location.URI != fileURI(path) {
					t.Errorf("failure's %q points at %s, outside the program", r.Message, r.Location.URI)
				}
			}
		}
	}
	if failures == 0 {
		t.Errorf("no failure shown at the insert: %+v", c.diagnostics(path))
	}
	var lib []Diagnostic
	for _, d := range raceDiags(c.diagnostics(path)) {
		if d.Range.Start.Line != 11 {
			t.Errorf("race diagnostic on line %d, want all on the insert (line 12): %s", d.Range.Start.Line+1, d.Message)
		}
		if strings.Contains(d.Message, "std::map::operator[], called from fill (line 12)") {
			lib = append(lib, d)
		}
		for _, r := range d.RelatedInformation {
			if r.Location.URI != fileURI(path) {
				t.Errorf("%q points at %s, outside the program", r.Message, r.Location.URI)
			}
		}
	}
	if len(lib) != 1 {
		t.Fatalf("want one diagnostic for the races inside std::map, got %d: %+v", len(lib), c.diagnostics(path))
	}
	if d := lib[0]; d.Code != "spec-violated" || !strings.Contains(d.Message, "more races inside the library's code, between the same two calls") {
		t.Errorf("the library races' diagnostic: want the most severe (spec-violated) standing for the rest, got %s: %s", d.Code, d.Message)
	}
}
