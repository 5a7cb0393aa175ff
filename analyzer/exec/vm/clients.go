package vm

import (
	"errors"
	"fmt"

	"augur/analyzer/frontend/ir"
)

// Client programs: a server and the programs that talk to it, run in one
// execution, as a test harness runs them on one machine. bitcode.LinkClient
// links each client's code into the program under names of its own, and
// the machine runs client k as a process: its threads carry proc k+1, its
// exit ends them alone (closing the sockets and pipes it opened, so the
// server sees the connection end), and the run ends when the server exits
// or when every client has.
//
// The clients start when the program first waits with nothing to do: no
// thread of it can run (each waits for a connection, for data, for a
// timeout or a sleep to pass). A harness starts its clients once the
// server is ready for them, and a client started before that would only
// meet a refused connection; a server is ready when it waits for its
// clients, whether on a listening socket, a datagram socket or anything
// else. The start orders the server's set-up before the clients, as the
// harness's wait does. A program that never waits never meets its
// clients.
//
// What the processes share: one address space (nothing of the program
// names the client's objects, so no program access crosses over), the
// runtime's state (stdio's buffers, the heap, the environment), the
// descriptor table (a client's descriptors are closed at its exit), and
// the atexit handlers' table, whose entries run only in the process that
// registered them. The program's destructors run only at its own exit.

// maxClients bounds Config.Clients: each is a process the run carries.
const maxClients = 16

// clientState is where the client programs of an execution are. It is
// plain data: a fork copies it with the machine.
type clientState struct {
	started bool
	exited  uint64 // bit k: client k's process has ended
	// status is the first nonzero exit status a client ended with, the
	// run's status when the clients end it.
	status int
}

// checkClients verifies the configuration's clients against the program:
// each must have been linked in (bitcode.LinkClient).
func checkClients(prog *ir.Program, cfg Config) error {
	if len(cfg.Clients) > maxClients {
		return fmt.Errorf("%d client programs: augur runs at most %d", len(cfg.Clients), maxClients)
	}
	for k, argv := range cfg.Clients {
		if f := prog.Func(ir.ClientEntry(k)); f == nil || f.Decl {
			return fmt.Errorf("client program %d (%v) is not linked into the program", k+1, argv)
		}
		if len(argv) == 0 {
			return fmt.Errorf("client program %d has no argv[0]", k+1)
		}
	}
	if f := prog.Func("__augur_client_start"); len(cfg.Clients) > 0 && (f == nil || f.Decl) {
		return errors.New("client programs: the runtime's __augur_client_start is missing")
	}
	return nil
}

// startClients starts every client program, once, each on a thread of
// its own, when the program is first idle (reschedule found no thread to
// run), and returns their threads.
func (m *Machine) startClients() []int {
	if m.clients.started || len(m.cfg.Clients) == 0 {
		return nil
	}
	m.clients.started = true
	start := m.prog.Func("__augur_client_start")
	loc := m.cur.curLocOr0()
	var ids []int
	for k, argv := range m.cfg.Clients {
		entry := m.prog.Func(ir.ClientEntry(k))
		nt := m.newThread()
		nt.proc = k + 1
		if m.mon != nil || m.weak != nil {
			m.emitSync(SyncEvent{Op: Fork, Thread: m.cur.ID, Other: nt.ID, Site: m.site(m.cur, loc)})
		}
		args := []Value{val(uint64(len(argv))), val(m.stringVector("argv", argv)), val(m.environment()), val(ir.Addr(entry.ID, 0))}
		// checkClients made sure the functions are there: pushFrame can
		// fail only on a stack overflow, which a first frame is not.
		_ = m.pushFrame(nt, start, args, nil, -2, loc)
		ids = append(ids, nt.ID)
	}
	return ids
}

// clientExit ends the process of client thread t with status: every
// thread of it exits and the descriptors it opened close. When it was the
// last client running, the run ends, with the first nonzero status a
// client ended with; otherwise t's thread has exited (errExited).
func (m *Machine) clientExit(t *Thread, status int) error {
	proc := t.proc
	for _, th := range m.threads {
		if th.proc != proc || th.status == exited {
			continue
		}
		m.sync.remove(th.ID)
		if th.wakeAt != 0 {
			m.endSleep(th)
		}
		th.waiting, th.timedWait, th.timedUntil = false, false, 0
		m.threadExit(th, uint64(status))
	}
	m.lib.ProcessExit(proc)
	m.clients.exited |= 1 << (proc - 1)
	if status != 0 && m.clients.status == 0 {
		m.clients.status = status
	}
	if m.clients.exited == 1<<len(m.cfg.Clients)-1 {
		m.lib.Flush()
		return &termError{&Termination{Kind: TermExit, Status: m.clients.status,
			Message: fmt.Sprintf("every client program exited (status %d)", m.clients.status)}}
	}
	return errExited
}

// procOf is the process of the running thread: who opens a descriptor.
func (s *state) procOf() int {
	if s.cur == nil {
		return 0
	}
	return s.cur.proc
}
