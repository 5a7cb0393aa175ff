// Package category is what augur knows about each race category, in one
// table: its name, how severe it is (an editor's diagnostic severity and a
// SARIF level), what it means in a sentence, whether it comes with
// evidence, and where its documentation is. The classifier, the reports
// (text, JSON, SARIF), the language server's diagnostics and hovers all
// read it; a new category is added here and nowhere else.
package category

// Category is a race's classification (Portend+'s four, plus unclassified).
type Category string

// The categories of design.md.
const (
	SpecViolated   Category = "spec-violated"
	OutputDiffers  Category = "output-differs"
	Harmless       Category = "k-witness-harmless"
	SingleOrdering Category = "single-ordering"
	Unclassified   Category = "unclassified"
)

// Severity is an LSP diagnostic severity (1 error to 4 hint).
type Severity int

const (
	Error       Severity = 1
	Warning     Severity = 2
	Information Severity = 3
	Hint        Severity = 4
)

// Info is what is known about one category.
type Info struct {
	Category Category
	Severity Severity
	// SARIF is the result level in a SARIF log: error, warning or note.
	SARIF string
	// Meaning says what the category means, for a developer, in a
	// sentence or two (hovers).
	Meaning string
	// Short is the meaning in a few words (reports, lists).
	Short string
	// Harmful categories come with evidence that replays the harm.
	Harmful bool
	// Doc is where the category is documented, relative to the
	// repository's docs/ directory.
	Doc string
}

var table = []Info{
	{SpecViolated, Error, "error",
		"Some order of these two accesses makes the program fail: a crash, a memory error, a failed assertion, " +
			"a deadlock or a hang. Fix it.",
		"an order of the race makes the program fail", true, "categories.md#spec-violated"},
	{OutputDiffers, Warning, "warning",
		"The two orders of these accesses make the program print different output. Unless every such output " +
			"is acceptable, order the accesses.",
		"the two orders print different output", true, "categories.md#output-differs"},
	{Harmless, Hint, "note",
		"Both orders of these accesses gave the same outcome in every execution augur compared. Probably " +
			"harmless, though not proven: more paths or schedules could still tell them apart.",
		"no harm seen in k tries", false, "categories.md#k-witness-harmless"},
	{SingleOrdering, Information, "note",
		"Only one order of these accesses is possible in practice (the program orders them by itself, with a " +
			"flag, a spin loop or a join), so the race cannot change the outcome.",
		"only one order is possible", false, "categories.md#single-ordering"},
	{Unclassified, Information, "warning",
		"augur could not classify this race.",
		"not classified", false, "categories.md#unclassified"},
}

// Of returns what is known about c; an unknown category reads as
// unclassified.
func Of(c Category) Info {
	for _, i := range table {
		if i.Category == c {
			return i
		}
	}
	return table[len(table)-1]
}

// Known reports whether c is one of the categories.
func Known(c Category) bool {
	for _, i := range table {
		if i.Category == c {
			return true
		}
	}
	return false
}

// Named is Of for a category's name.
func Named(name string) Info { return Of(Category(name)) }

// All returns every category, most severe first.
func All() []Info { return append([]Info(nil), table...) }
