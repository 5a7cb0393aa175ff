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
// classifying) get none: a lens is for what there is to look at.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	lenses := []protocol.CodeLens{}
	seen := map[string]bool{}
	for _, site := range s.racesIn(path, &lines{s: s}) {
		key := fmt.Sprintf("%d %s", site.rng.Start.Line, site.race.ID)
		if seen[key] || site.category == classifying {
			continue
		}
		seen[key] = true
		for _, c := range evidenceCommands(site.race) {
			c.Title = fmt.Sprintf("%s (%s race on %s)", c.Title, site.category, site.race.Object)
			lenses = append(lenses, protocol.CodeLens{Range: site.rng, Command: c})
		}
	}
	return lenses, nil
}

// lensesChanged asks a client that accepts it to ask for code lenses
// again, after an analysis changed the races. Caller holds mu.
func (s *Server) lensesChanged() {
	if s.lensRefresh != nil {
		s.refresh(s.lensRefresh)
	}
}
