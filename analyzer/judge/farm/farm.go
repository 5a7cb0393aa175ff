// Package farm classifies races on many processes or machines through NATS
// JetStream, and on one machine through the same code with an embedded
// NATS server.
//
// Each race's classification is an independent job (classify.Job), as the
// Portend+ paper notes; a verdict depends only on its job. A coordinator
// (Classify) puts a run's program into a JetStream object store once,
// content-addressed, and its jobs into a work-queue stream; workers (Work,
// `augur worker`) pull jobs from one durable consumer with explicit acks,
// load the program once per process, classify, publish each verdict to a
// results stream and only then ack. A worker that dies leaves its job
// unacknowledged, and JetStream delivers it again after the ack wait; a
// worker working on a long job says so (in progress) so it is not
// redelivered early. Verdicts are deterministic, so a job classified twice
// gives the same verdict twice, and the coordinator keeps one per job.
// The results stream keeps verdicts while the server restarts or the
// coordinator reconnects.
//
// Without a server URL, Embedded starts nats-server inside the process
// (no listening port, JetStream in a temporary directory) and runs the
// workers as goroutines: one implementation serves one machine and many.
package farm

import (
	"context"
	"errors"
	"fmt"
	"net"
	neturl "net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The JetStream names a farm uses. Jobs of run R go to "augur.jobs.R",
// their verdicts to "augur.results.R".
const (
	JobStream     = "AUGUR_JOBS"
	ResultStream  = "AUGUR_RESULTS"
	WorkerGroup   = "augur-workers"
	BitcodeBucket = "augur-bitcode"
	// JobBucket holds the jobs too large for one message.
	JobBucket     = "augur-jobs"
	jobSubject    = "augur.jobs"
	resultSubject = "augur.results"
)

// Config tunes a farm's streams; the zero value is the default.
type Config struct {
	// AckWait is how long a delivered job may go without an ack or an
	// in-progress notice before JetStream delivers it to another worker
	// (default 30s). Workers send in-progress notices every third of it.
	AckWait time.Duration
	// MaxDeliver bounds the deliveries of one job (default 5): a job that
	// every worker dies on is given up and reported unclassified.
	MaxDeliver int
	// Configure sets the workers' consumer to AckWait and MaxDeliver.
	// Workers (and the embedded farm) do; a coordinator takes the
	// consumer as it finds it, and creates it with these values only
	// when there is none.
	Configure bool
	// Log, when set, is told when the server cannot be reached and the
	// connection is retried.
	Log func(format string, args ...any)
	// memory keeps the streams and the bitcode in memory rather than on
	// disk: the embedded farm lives as long as its process.
	memory bool
}

func (c Config) withDefaults() Config {
	if c.AckWait <= 0 {
		c.AckWait = 30 * time.Second
	}
	if c.MaxDeliver <= 0 {
		c.MaxDeliver = 5
	}
	return c
}

// Farm is a connection to a NATS server with the farm's streams.
type Farm struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	cfg    Config
	server *server.Server // the embedded server, nil when connected to one
	dir    string         // the embedded server's JetStream directory
}

// Connect connects to the NATS server at url (nats://HOST:PORT, or
// tls://) and makes sure the farm's streams, consumer and object store
// exist. A malformed URL fails at once; an unreachable server is tried
// connectAttempts times, saying so through cfg.Log, and then fails with
// the reason. Once connected, the connection reconnects by itself while
// the server restarts.
func Connect(ctx context.Context, url string, cfg Config) (*Farm, error) {
	nc, err := dial(ctx, url, cfg.Log)
	if err != nil {
		return nil, err
	}
	f, err := setUp(ctx, nc, cfg)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("%s: %w", url, err)
	}
	return f, nil
}

// why replaces the NATS client's "no servers available" with the reason
// the first server could not be reached, as dialing it says.
func why(url string, err error) error {
	if !errors.Is(err, nats.ErrNoServers) {
		return err
	}
	u, perr := neturl.Parse(strings.TrimSpace(strings.Split(url, ",")[0]))
	if perr != nil {
		return err
	}
	port := u.Port()
	if port == "" {
		port = strconv.Itoa(nats.DefaultPort)
	}
	c, derr := net.DialTimeout("tcp", net.JoinHostPort(u.Hostname(), port), 2*time.Second)
	if derr != nil {
		return fmt.Errorf("%w: %v", err, derr)
	}
	c.Close()
	return err
}

// Reach checks that the NATS server at url can be reached (retrying as
// Connect does), so a command can fail before it starts its work.
func Reach(ctx context.Context, url string, logf func(string, ...any)) error {
	nc, err := dial(ctx, url, logf)
	if err != nil {
		return err
	}
	nc.Close()
	return nil
}

// ParseURL checks the URL of a farm's NATS server: nats:// or tls://, a
// host and a port. A list of servers, comma-separated, is checked one
// by one.
func ParseURL(s string) error {
	for _, one := range strings.Split(s, ",") {
		u, err := neturl.Parse(strings.TrimSpace(one))
		if err != nil {
			return fmt.Errorf("NATS server URL %q: %w", one, err)
		}
		switch {
		case u.Scheme != "nats" && u.Scheme != "tls":
			return fmt.Errorf("NATS server URL %q: want nats://HOST:PORT (or tls://), not a %q URL", one, u.Scheme)
		case u.Hostname() == "":
			return fmt.Errorf("NATS server URL %q: no host (want nats://HOST:PORT)", one)
		case u.Port() != "":
			if p, err := strconv.Atoi(u.Port()); err != nil || p <= 0 || p > 65535 {
				return fmt.Errorf("NATS server URL %q: bad port %q", one, u.Port())
			}
		}
	}
	return nil
}

// How an unreachable server is retried: connectAttempts tries, the
// first retry after connectBackoff, each later one after twice the last.
const connectAttempts = 4

var connectBackoff = 500 * time.Millisecond

// dial connects to url, retrying a few times while the server cannot be
// reached.
func dial(ctx context.Context, url string, logf func(string, ...any)) (*nats.Conn, error) {
	if err := ParseURL(url); err != nil {
		return nil, err
	}
	wait := connectBackoff
	for attempt := 1; ; attempt++ {
		nc, err := nats.Connect(url, nats.Name("augur"), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond),
			nats.Timeout(2*time.Second))
		if err == nil {
			return nc, nil
		}
		err = why(url, err)
		if attempt == connectAttempts || ctx.Err() != nil {
			return nil, fmt.Errorf("connect to %s: %w (tried %d times)", url, err, attempt)
		}
		if logf != nil {
			logf("cannot reach %s (%v); retrying in %v (%d of %d)", url, err, wait, attempt+1, connectAttempts)
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to %s: %w (%v)", url, ctx.Err(), err)
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// Embedded starts a NATS server with JetStream inside this process, reachable
// only from it, and connects to it.
func Embedded(ctx context.Context, cfg Config) (*Farm, error) {
	dir, err := os.MkdirTemp("", "augur-farm-")
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	cfg.Configure, cfg.memory = true, true
	ns, err := server.NewServer(&server.Options{ServerName: "augur-embedded", DontListen: true, JetStream: true,
		StoreDir: dir, NoLog: true, NoSigs: true})
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		os.RemoveAll(dir)
		return nil, errors.New("embedded NATS server: not ready after 10s")
	}
	nc, err := nats.Connect("", nats.InProcessServer(ns))
	if err == nil {
		var f *Farm
		if f, err = setUp(ctx, nc, cfg); err == nil {
			f.server, f.dir = ns, dir
			return f, nil
		}
		nc.Close()
	}
	ns.Shutdown()
	os.RemoveAll(dir)
	return nil, fmt.Errorf("embedded NATS server: %w", err)
}

// setUp creates (or updates) the streams, the workers' consumer and the
// bitcode store.
func setUp(ctx context.Context, nc *nats.Conn, cfg Config) (*Farm, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	storage := jetstream.FileStorage
	if cfg.memory {
		storage = jetstream.MemoryStorage
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: JobStream, Subjects: []string{jobSubject + ".>"},
		Retention: jetstream.WorkQueuePolicy, Storage: storage, Duplicates: 10 * time.Minute}); err != nil {
		return nil, fmt.Errorf("stream %s: %w", JobStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: ResultStream, Subjects: []string{resultSubject + ".>"},
		Retention: jetstream.LimitsPolicy, Storage: storage, MaxAge: 24 * time.Hour,
		Duplicates: 10 * time.Minute}); err != nil {
		return nil, fmt.Errorf("stream %s: %w", ResultStream, err)
	}
	cc := jetstream.ConsumerConfig{Durable: WorkerGroup, AckPolicy: jetstream.AckExplicitPolicy, AckWait: cfg.AckWait,
		MaxDeliver: cfg.MaxDeliver, MaxAckPending: 10000}
	var cons jetstream.Consumer
	if cfg.Configure {
		cons, err = js.CreateOrUpdateConsumer(ctx, JobStream, cc)
	} else if cons, err = js.Consumer(ctx, JobStream, WorkerGroup); errors.Is(err, jetstream.ErrConsumerNotFound) {
		cons, err = js.CreateConsumer(ctx, JobStream, cc)
	}
	if err != nil {
		return nil, fmt.Errorf("consumer %s: %w", WorkerGroup, err)
	}
	if info := cons.CachedInfo(); info != nil {
		cfg.AckWait, cfg.MaxDeliver = info.Config.AckWait, info.Config.MaxDeliver
	}
	for _, bucket := range []string{BitcodeBucket, JobBucket} {
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: bucket,
			Storage: storage}); err != nil {
			return nil, fmt.Errorf("object store %s: %w", bucket, err)
		}
	}
	return &Farm{nc: nc, js: js, cfg: cfg}, nil
}

// Close closes the connection, and stops the embedded server if there is one.
func (f *Farm) Close() {
	f.nc.Close()
	if f.server != nil {
		f.server.Shutdown()
		f.server.WaitForShutdown()
		os.RemoveAll(f.dir)
	}
}

// Objects counts the bitcode files in the store.
func (f *Farm) Objects(ctx context.Context) (int, error) {
	obs, err := f.js.ObjectStore(ctx, BitcodeBucket)
	if err != nil {
		return 0, err
	}
	list, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0, nil
	}
	return len(list), err
}

// QueueState is what the workers' consumer holds: jobs delivered and not
// yet acknowledged, and jobs no worker has taken yet. Scale workers on
// Waiting.
type QueueState struct {
	Unacknowledged int
	Waiting        uint64
}

// Queue reports the state of the job queue.
func (f *Farm) Queue(ctx context.Context) (QueueState, error) {
	cons, err := f.js.Consumer(ctx, JobStream, WorkerGroup)
	if err != nil {
		return QueueState{}, err
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return QueueState{}, err
	}
	return QueueState{Unacknowledged: info.NumAckPending, Waiting: info.NumPending}, nil
}
