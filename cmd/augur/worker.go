package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"augur/analyzer/judge/farm"
)

// workerCmd classifies races for `augur analyze --workers URL` runs: it
// takes jobs from the NATS JetStream work queue at URL until it is
// stopped (SIGINT or SIGTERM hand its running jobs back to the queue).
func workerCmd(args []string) int {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: augur worker [flags] nats://HOST:PORT\n\n"+
			"Classifies races for `augur analyze --workers nats://HOST:PORT` (docs/scale-out.md) until stopped; logs go to standard error.")
		fs.PrintDefaults()
	}
	jobs := fs.Int("jobs", 1, "jobs run at once, and so the most this worker holds unacknowledged")
	cacheDir := fs.String("cache-dir", "", "where downloaded bitcode is kept (default: farm/ in $AUGUR_CACHE_DIR or the user cache directory's augur/)")
	name := fs.String("name", "", "this worker's name in logs and verdicts (default: host name and process id)")
	ackWait := &flagDuration{d: 30 * time.Second}
	fs.Var(ackWait, "ack-wait", "how long a job may go unacknowledged before another worker gets it (workers say a long job is in progress every third of it)")
	maxDeliver := fs.Int("max-deliver", 5, "deliveries of one job before it is given up (reported unclassified)")
	delay := &flagDuration{}
	fs.Var(delay, "delay", "wait this long before each job (to test a slow worker)")
	quiet := fs.Bool("quiet", false, "log nothing per job")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	url := fs.Arg(0)
	if err := farm.ParseURL(url); err != nil {
		fmt.Fprintf(os.Stderr, "augur worker: %v\n", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logger := log.New(os.Stderr, "augur worker: ", log.LstdFlags|log.Lmicroseconds)
	setUp, cancel := context.WithTimeout(ctx, time.Minute)
	f, err := farm.Connect(setUp, url, farm.Config{AckWait: ackWait.d, MaxDeliver: *maxDeliver, Configure: true,
		Log: logger.Printf})
	cancel()
	if err != nil {
		logger.Print(err)
		return 1
	}
	defer f.Close()
	logger.Printf("taking jobs from %s, %d at a time", url, max(*jobs, 1))
	opts := farm.WorkerOptions{Jobs: *jobs, CacheDir: *cacheDir, Name: *name, Delay: delay.d}
	if !*quiet {
		opts.Log = logger.Printf
	}
	if err := f.Work(ctx, opts); err != nil {
		logger.Print(err)
		return 1
	}
	logger.Print("stopped")
	return 0
}
