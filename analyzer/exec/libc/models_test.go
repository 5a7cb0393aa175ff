package libc

import "testing"

// TestModelTraits checks the traits other packages rely on: lock-order
// reversals need every lock to acquire, and multipath classification needs
// the input markers.
func TestModelTraits(t *testing.T) {
	tab := Models()
	for _, n := range []string{"pthread_mutex_lock", "pthread_mutex_trylock", "pthread_cond_wait", "sem_wait", "pthread_rwlock_rdlock", "pthread_spin_lock"} {
		if !tab.AcquiresAt(n) {
			t.Errorf("%s does not acquire", n)
		}
	}
	for _, n := range []string{"pthread_mutex_unlock", "printf", "malloc", "not_a_libc_function"} {
		if tab.AcquiresAt(n) {
			t.Errorf("%s acquires", n)
		}
	}
	for _, n := range []string{"pthread_cond_signal", "pthread_cond_broadcast", "sem_post", "pthread_mutex_lock"} {
		if !tab.ReordersAt(n) {
			t.Errorf("%s is not reordered by interleaving generation", n)
		}
	}
	if tab.ReordersAt("pthread_mutex_unlock") {
		t.Errorf("pthread_mutex_unlock is reordered")
	}
	if m := tab.Lookup("llvm.memcpy.p0i8.p0i8.i64"); m == nil || m.Name != "llvm.memcpy" {
		t.Errorf("overloaded intrinsic resolves to %v", m)
	}
	if m := tab.Lookup("augur_make_symbolic"); m == nil || !m.Input {
		t.Errorf("augur_make_symbolic is not an input model: %+v", m)
	}
}
