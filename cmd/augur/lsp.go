package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"augur/lsp"
)

// lspCmd serves the Language Server Protocol on standard input and output.
func lspCmd(args []string) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: augur lsp [flags]\n\nServes the Language Server Protocol on standard input and output; logs go to standard error.")
		fs.PrintDefaults()
	}
	cacheDir := fs.String("cache-dir", "", "where bitcode, evidence and replay transcripts go (default: $AUGUR_CACHE_DIR or the user cache directory)")
	workers := fs.Int("workers", 0, "races classified in parallel (default: one per CPU but one)")
	docs := fs.String("docs", installedDocs(), "augur's documentation directory, which diagnostics link to (default: docs/ beside the binary's directory, when there)")
	// Editors often pass --stdio; standard input and output is what augur serves on anyway.
	maxMessage := &flagSize{lsp.DefaultMaxMessage}
	fs.Var(maxMessage, "max-message", "largest message body and header line a client may send, e.g. 64MiB; past it the server drops the connection")
	fs.Bool("stdio", true, "serve on standard input and output (the only transport)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return lsp.Serve(ctx, os.Stdin, os.Stdout, lsp.Options{CacheDir: *cacheDir, Workers: *workers, Log: os.Stderr,
		DocsDir: *docs, MaxMessage: int(maxMessage.n)})
}

// installedDocs finds augur's documentation beside the binary: docs/ in
// the directory above bin/ (the repository's layout), or share/augur/docs
// under an installation prefix. It is "" when neither is there.
func installedDocs() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	prefix := filepath.Dir(filepath.Dir(exe))
	for _, dir := range []string{filepath.Join(prefix, "docs"), filepath.Join(prefix, "share", "augur", "docs")} {
		if _, err := os.Stat(filepath.Join(dir, "categories.md")); err == nil {
			return dir
		}
	}
	return ""
}
