package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"
)

// CodeLens puts, above each line that holds a racing access with
// evidence, the commands that show it: "Replay evidence", "Show
// interleaving" and, for an output difference, "Show output difference".
// Races without evidence (harmless, single-ordering, or still
// classifying) get none: a lens is for what there is to look at. A
// failure some schedule reached gets the first two on its line.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &lines{s: s}
	sites := s.shownSites(path, l)
	// A line's lenses are short ("Replay evidence"); only a line with
	// several races names which race each is for.
	races := map[uint32]map[string]bool{}
	for _, site := range sites {
		if site.race.Evidence != "" && site.category != classifying {
			if races[site.rng.Start.Line] == nil {
				races[site.rng.Start.Line] = map[string]bool{}
			}
			races[site.rng.Start.Line][site.race.ID] = true
		}
	}
	lenses := []protocol.CodeLens{}
	seen := map[string]bool{}
	for i := range sites {
		site := &sites[i]
		key := fmt.Sprintf("%d %s", site.rng.Start.Line, site.race.ID)
		if seen[key] || site.category == classifying {
			continue
		}
		seen[key] = true
		for _, c := range evidenceCommands(site.race) {
			if len(races[site.rng.Start.Line]) > 1 {
				c.Title += " · " + s.story(site, l).name
			}
			lenses = append(lenses, protocol.CodeLens{Range: site.rng, Command: c})
		}
	}
	// A failure's lenses on a line with a race's say which is the failure's.
	return append(lenses, s.failureLenses(path, l, func(line uint32) bool { return len(races[line]) > 0 })...), nil
}

// lensesChanged asks a client that accepts it to ask for code lenses
// again, after an analysis changed the races. Caller holds mu.
func (s *Server) lensesChanged() {
	if s.lensRefresh != nil {
		s.refresh(s.lensRefresh)
	}
}
