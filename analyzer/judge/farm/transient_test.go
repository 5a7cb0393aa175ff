package farm

import (
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
)

// A publication is retried only while the server may come back; one it
// refused for what the message is fails at once.
func TestOnlyTransientFailuresAreRetried(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nats.ErrTimeout, true},
		{fmt.Errorf("publish: %w", nats.ErrNoResponders), true},
		{nats.ErrMaxPayload, false},
		{fmt.Errorf("nats: maximum payload exceeded"), false},
	} {
		if got := transient(c.err); got != c.want {
			t.Errorf("transient(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
