package lsp

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// nopWriteCloser discards what the stream answers.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// FuzzStream feeds the frame reader arbitrary bytes: it must answer what
// it cannot read and go on, never panic, and always come to the end of
// its input; a well-formed message after garbage must still be read.
func FuzzStream(f *testing.F) {
	msg := func(body string) string { return "Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body }
	good := msg(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	f.Add([]byte(good))
	f.Add([]byte("Content-Length: lots\r\n\r\n{}" + good))
	f.Add([]byte("X-Nothing: here\r\n\r\n" + good + good))
	f.Add([]byte(msg(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":5}}`)))
	f.Add([]byte("Content-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("\r\n\r\ncontent-length:4\r\n\r\nnull"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, tail := range []string{"", good} {
			var out bytes.Buffer
			in := io.NopCloser(bytes.NewReader(append(append([]byte(nil), data...), tail...)))
			st := newStream(in, nopWriteCloser{&out}, nil, 0)
			sawGood := false
			for i := 0; ; i++ {
				m, _, err := st.Read(context.Background())
				if err != nil {
					break
				}
				if i > len(data)+2 {
					t.Fatalf("more messages (%d) than the input could hold", i)
				}
				if call, ok := m.(interface{ Method() string }); ok && call.Method() == "initialize" {
					sawGood = true
				}
			}
			if tail != "" && !sawGood && len(data) < maxHeaderLine && !bytes.Contains(data, []byte("Content-Length")) && !bytes.Contains(bytes.ToLower(data), []byte("content-length")) {
				t.Fatalf("a good message after %q was lost", data)
			}
		}
	})
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}
