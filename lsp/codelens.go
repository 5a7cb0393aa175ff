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
// failure some schedule reached gets the first two on its line. A line
// with several races or failures gets each command once, for all of
// them ("Replay evidence (3)"); running it asks which (pickSubject):
// lenses named one per race piled up past the editor's width.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	path, err := filePath(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := &lines{s: s}
	var ls lineLenses
	seen := map[string]bool{}
	for _, site := range s.shownSites(path, l) {
		key := fmt.Sprintf("%d %s", site.rng.Start.Line, site.race.ID)
		if seen[key] || site.category == classifying {
			continue
		}
		seen[key] = true
		for _, c := range evidenceCommands(site.race) {
			ls.add(site.rng, c)
		}
	}
	for _, site := range s.failuresIn(path, l) {
		for _, c := range failureCommands(site.f) {
			ls.add(site.rng, c)
		}
	}
	return ls.lenses(), nil
}

// lineLenses gathers the evidence commands of each line, by command, in
// the order they come.
type lineLenses struct {
	order []lensKey
	by    map[lensKey]*lineLens
}

type lensKey struct {
	line    uint32
	command string
}

type lineLens struct {
	rng   protocol.Range
	title string
	args  []protocol.LSPAny
}

func (ls *lineLenses) add(rng protocol.Range, c protocol.Command) {
	k := lensKey{rng.Start.Line, c.Command}
	if ls.by == nil {
		ls.by = map[lensKey]*lineLens{}
	}
	if ls.by[k] == nil {
		ls.by[k] = &lineLens{rng: rng, title: c.Title}
		ls.order = append(ls.order, k)
	}
	ls.by[k].args = append(ls.by[k].args, c.Arguments...)
}

func (ls *lineLenses) lenses() []protocol.CodeLens {
	out := []protocol.CodeLens{}
	for _, k := range ls.order {
		ll := ls.by[k]
		title := ll.title
		if len(ll.args) > 1 {
			title = fmt.Sprintf("%s (%d)", title, len(ll.args))
		}
		out = append(out, protocol.CodeLens{Range: ll.rng, Command: protocol.Command{Title: title, Command: k.command, Arguments: ll.args}})
	}
	return out
}

// lensesChanged asks a client that accepts it to ask for code lenses
// again, after an analysis changed the races. Caller holds mu.
func (s *Server) lensesChanged() {
	if s.lensRefresh != nil {
		s.refresh(s.lensRefresh)
	}
}
