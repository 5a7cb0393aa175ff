package lsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// countingReader counts the bytes the stream took from its input.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// A client that breaks the framing beyond repair is answered, and the
// connection dropped, without reading or waiting for what it declared: a
// header line with no end is read no further than the line limit, and a
// body over the message limit is not waited for (its bytes may never
// come).
func TestStreamDropsBrokenFraming(t *testing.T) {
	good := "Content-Length: 2\r\n\r\n{}"
	for _, c := range []struct {
		name, in string
		max      int
		want     string
	}{
		{"header line without end", "Content-Length: 2" + strings.Repeat("x", 1<<20) + "\r\n\r\n{}" + good, 0, "header line longer than 65536 bytes"},
		{"body of 3 GB", "Content-Length: 3000000000\r\n\r\n", 0, "3000000000 bytes is over the 67108864-byte limit"},
		{"body over a configured limit", "Content-Length: 2048\r\n\r\n" + strings.Repeat(" ", 2048) + good, 1024, "2048 bytes is over the 1024-byte limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			// A pipe that never ends: a stream that waits for more blocks
			// the test (and go test's timeout names it).
			pr, pw := io.Pipe()
			go func() { _, _ = pw.Write([]byte(c.in)) }()
			cr := &countingReader{r: pr}
			var logged []string
			st := newStream(io.NopCloser(cr), nopWriteCloser{&out}, func(m string) { logged = append(logged, m) }, c.max)
			_, _, err := st.Read(context.Background())
			var be errBroken
			if !errors.As(err, &be) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Read: %v, want the framing broken: %s", err, c.want)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("no error answered to the client: %q", out.String())
			}
			if len(logged) == 0 || !strings.Contains(logged[len(logged)-1], "dropping the connection") {
				t.Errorf("log: %q", logged)
			}
			if cr.n > maxHeaderLine+(64<<10)+len(good)+4096 {
				t.Errorf("read %d bytes of input, past the limit", cr.n)
			}
			pw.Close()
		})
	}
}
