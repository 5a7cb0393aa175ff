package classify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"augur/analyzer/exec/vm"
)

// Files are output. What a program writes to its files is as much its
// output as what it prints (Portend+ compares both): a clustering written
// to output.txt, a compressed archive. Each execution's output digest
// covers the files it left made, changed or removed (vm.Result.Written),
// so every comparison of outputs (a pair's two orders, the steering
// toward the other order's output, the weak model's sets) compares them
// too. This file holds what a verdict shows of them: the files the two
// orders left differently, each order's version, and the words that name
// them.

// File is a written file as one order of a race left it, in a verdict
// whose two orders left it differently.
type File struct {
	Path string `json:"path"`
	// Untouched is set when the order left the file as the program was
	// given it, or did not make it.
	Untouched bool   `json:"untouched,omitempty"`
	Removed   bool   `json:"removed,omitempty"`
	Size      uint64 `json:"size,omitempty"`
	Hash      uint64 `json:"hash,omitempty"` // FNV-1a of the contents
	// Contents are the file's first vm.MaxFileHead bytes.
	Contents string `json:"contents,omitempty"`
}

// Name is the file's name as the program's working directory sees it.
func (f File) Name() string { return displayPath(f.Path) }

// displayPath is a virtual file system path as the user wrote it (the
// file system's root is the program's working directory), quoted when it
// holds characters a sentence cannot show: a name made from an explored
// argument can hold any byte.
func displayPath(p string) string {
	if rel := strings.TrimPrefix(p, "/"); rel != "" {
		p = rel
	}
	if strings.IndexFunc(p, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(p)
	}
	return p
}

// pairOutputs is what the primary and the alternate printed, each with
// its version of every file the two left differently.
func pairOutputs(primary, alt *vm.Result) [2]Printed {
	out := [2]Printed{printed(primary.Output), printed(alt.Output)}
	out[0].Files, out[1].Files = filesDiffer(primary.Written, alt.Written)
	return out
}

// filesDiffer returns, for each file a and b (two executions' written
// files, sorted by path) left differently, its version in a and in b.
func filesDiffer(a, b []vm.WrittenFile) (fa, fb []File) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].Path < b[j].Path:
			fa, fb = append(fa, fileOf(a[i])), append(fb, File{Path: a[i].Path, Untouched: true})
			i++
		case i == len(a) || b[j].Path < a[i].Path:
			fa, fb = append(fa, File{Path: b[j].Path, Untouched: true}), append(fb, fileOf(b[j]))
			j++
		default:
			if !sameFile(a[i], b[j]) {
				fa, fb = append(fa, fileOf(a[i])), append(fb, fileOf(b[j]))
			}
			i, j = i+1, j+1
		}
	}
	return fa, fb
}

func sameFile(x, y vm.WrittenFile) bool {
	return x.Removed == y.Removed && x.Size == y.Size && x.Hash == y.Hash
}

func fileOf(w vm.WrittenFile) File {
	return File{Path: w.Path, Removed: w.Removed, Size: w.Size, Hash: w.Hash, Contents: string(w.Head)}
}

// LeftAs reports whether execution res left file f as f says.
func LeftAs(res *vm.Result, f File) bool {
	for _, w := range res.Written {
		if w.Path == f.Path {
			return !f.Untouched && w.Removed == f.Removed && w.Size == f.Size && w.Hash == f.Hash
		}
	}
	return f.Untouched
}

// sameOutput reports whether execution res printed what p says and left
// p's files as p says.
func sameOutput(res *vm.Result, p Printed) bool {
	got := printed(res.Output)
	if got.Stdout != p.Stdout || got.Stderr != p.Stderr {
		return false
	}
	for _, f := range p.Files {
		if !LeftAs(res, f) {
			return false
		}
	}
	return true
}

// outputNoun names what of x's output y does not share, for a reason:
// "output" when they printed differently, otherwise the files they left
// differently ("output.txt", "a.txt and b.txt").
func outputNoun(x, y *vm.Result) (noun string, printedDiffers bool) {
	if x.Digest.PrintedOtherwise(y.Digest) {
		return "output", true
	}
	fx, _ := filesDiffer(x.Written, y.Written)
	return FileNames(fx), false
}

// FileNames joins the names of files: "output.txt", "a.txt and b.txt",
// "a.txt, b.txt and 3 more files".
func FileNames(fs []File) string {
	var names []string
	for i, f := range fs {
		if i == 2 && len(fs) > 3 {
			names = append(names, fmt.Sprintf("%d more files", len(fs)-2))
			break
		}
		names = append(names, f.Name())
	}
	if len(names) == 0 {
		// The digests differ in files past the listed ones.
		return "files"
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// cannotProduce says that order x produced output the order other never
// produced under any post-race schedule: printed it, or left files so.
func cannotProduce(x, y *vm.Result, name, other string) string {
	noun, isPrinted := outputNoun(x, y)
	if isPrinted {
		return fmt.Sprintf("the %s order prints output the %s order did not print under any post-race schedule", name, other)
	}
	return fmt.Sprintf("the %s order leaves %s with contents the %s order did not leave under any post-race schedule", name, noun, other)
}

// PrintedSame reports whether the verdict's two orders printed the same
// and differ only in the files they left.
func (v *Verdict) PrintedSame() bool {
	a, b := v.Outputs[0], v.Outputs[1]
	return a.Stdout == b.Stdout && a.Stderr == b.Stderr && len(a.Files) > 0
}
