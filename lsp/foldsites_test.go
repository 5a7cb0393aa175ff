package lsp

import (
	"testing"

	"augur/analyzer/output/report"
)

// Races inside a library between the same two calls fold into one site,
// whatever their categories, the most severe standing for the rest; races
// of the program's own fold only with their category.
func TestFoldSitesKeepsTheMostSevereOfALibrarysRaces(t *testing.T) {
	call := report.Access{File: "/w/map.cpp", Line: 12, Kind: "write"}
	site := func(category, via string) raceSite {
		s := raceSite{race: &report.Race{}, category: category, shown: [2]report.Access{call, call}}
		s.via = [2]string{via, via}
		return s
	}
	got := foldSites([]raceSite{site("k-witness-harmless", "std::map::operator[]"), site("spec-violated", "std::map::operator[]"),
		site("output-differs", "std::map::operator[]"), site("k-witness-harmless", ""), site("output-differs", "")})
	if len(got) != 3 {
		t.Fatalf("want 3 sites (the library's, and the program's two categories), got %d: %+v", len(got), got)
	}
	if got[0].category != "spec-violated" || got[0].also != 2 || !got[0].inLibrary() {
		t.Errorf("the library's site: %s standing for %d more, want spec-violated for 2", got[0].category, got[0].also)
	}
	if got[1].category != "k-witness-harmless" || got[2].category != "output-differs" || got[1].also+got[2].also != 0 {
		t.Errorf("the program's sites: %s (+%d), %s (+%d)", got[1].category, got[1].also, got[2].category, got[2].also)
	}
}
