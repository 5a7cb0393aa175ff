package vm

import "testing"

// A release wakes every thread waiting for the mutex. One that has not run
// when another thread takes the mutex waits again at once (retake), so no
// scheduler is offered a step that would only find the mutex taken; one
// that ran already is left alone, as are the waiters of other objects
// and a timed waiter, whose wait has a deadline to keep.
func TestWokenWaitersWaitAgainWhenTheMutexIsRetaken(t *testing.T) {
	const mu, other = 0x1000, 0x2000
	m := &Machine{}
	m.sync = newSyncTable()
	for id := range 5 {
		m.threads = append(m.threads, &Thread{ID: id, status: runnable})
	}
	m.sync.block(m.threads[1], waitKey{waitMutex, mu})
	m.sync.block(m.threads[2], waitKey{waitMutex, mu})
	m.threads[3].SetDeadline(5)
	m.sync.block(m.threads[3], waitKey{waitMutex, mu})
	m.sync.block(m.threads[4], waitKey{waitMutex, other})

	m.Wake(waitMutex, mu)
	for _, id := range []int{1, 2, 3} {
		if m.threads[id].status != runnable {
			t.Fatalf("thread %d not woken by the release", id)
		}
	}
	m.switchTo(m.threads[2], false) // thread 2 runs: its lock call is its own again
	m.MutexTaken(other)             // another mutex: nothing to do with them
	if m.threads[1].status != runnable {
		t.Fatal("taking another mutex sent thread 1 back to wait")
	}
	m.MutexTaken(mu)
	if th := m.threads[1]; th.status != blocked || !th.waiting || th.waitOn != (waitKey{waitMutex, mu}) {
		t.Errorf("thread 1, woken and not run, is %v waiting %v on %v; want blocked on the mutex again", th.status, th.waiting, th.waitOn)
	}
	if m.threads[2].status != runnable {
		t.Error("thread 2 ran after its wake-up and was sent back to wait")
	}
	if m.threads[3].status != runnable {
		t.Error("the timed waiter was sent back to wait")
	}
	if m.threads[4].status != blocked {
		t.Error("the other mutex's waiter was woken")
	}
	if m.sync.woken != 0 {
		t.Errorf("%d threads still counted as woken and not run", m.sync.woken)
	}
	if i := m.sync.find(waitKey{waitMutex, mu}); i < 0 || len(m.sync.queues[i].threads) != 1 || m.sync.queues[i].threads[0] != 1 {
		t.Errorf("the mutex's queue after the retake: %v, want thread 1 alone", m.sync.queues)
	}
}
