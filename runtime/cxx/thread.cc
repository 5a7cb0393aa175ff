// The out-of-line parts of libstdc++'s thread support (what libstdc++.so
// holds for <thread>, <condition_variable>, <mutex> and <future>), written
// for augur over the POSIX calls it models. Everything else of those
// headers is template or inline code the program compiles itself.
#include <cerrno>
#include <cxxabi.h>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <time.h>

namespace std _GLIBCXX_VISIBILITY(default) {

// std::thread: a started thread owns its _State; the new thread runs it
// and frees it, as libstdc++'s execute_native_thread_routine does.
extern "C" void *__augur_run_thread(void *p) {
	thread::_State_ptr state{static_cast<thread::_State *>(p)};
	state->_M_run();
	return nullptr;
}

thread::_State::~_State() = default;

void thread::_M_start_thread(_State_ptr state, void (*)()) {
	int err = pthread_create(&_M_id._M_thread, nullptr, &__augur_run_thread, state.get());
	if (err)
		__throw_system_error(err);
	state.release();
}

void thread::join() {
	int err = EINVAL;
	if (_M_id != id())
		err = pthread_join(_M_id._M_thread, nullptr);
	if (err)
		__throw_system_error(err);
	_M_id = id();
}

void thread::detach() {
	int err = EINVAL;
	if (_M_id != id())
		err = pthread_detach(_M_id._M_thread);
	if (err)
		__throw_system_error(err);
	_M_id = id();
}

// The number of processors augur reports: fixed, so that every run of a
// program sizes its thread pools the same way.
unsigned int thread::hardware_concurrency() noexcept { return 4; }

// std::condition_variable wraps a pthread condition variable.
condition_variable::condition_variable() noexcept = default;
condition_variable::~condition_variable() noexcept = default;
void condition_variable::wait(unique_lock<mutex> &lock) { _M_cond.wait(*lock.mutex()); }
void condition_variable::notify_one() noexcept { _M_cond.notify_one(); }
void condition_variable::notify_all() noexcept { _M_cond.notify_all(); }

// The clocks read the virtual clock clock_gettime models.
namespace chrono {
inline namespace _V2 {
static long long nanos(clockid_t clock) {
	timespec ts;
	clock_gettime(clock, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
system_clock::time_point system_clock::now() noexcept {
	return time_point(duration_cast<duration>(nanoseconds(nanos(CLOCK_REALTIME))));
}
steady_clock::time_point steady_clock::now() noexcept {
	return time_point(duration_cast<duration>(nanoseconds(nanos(CLOCK_MONOTONIC))));
}
} // namespace _V2
} // namespace chrono

// std::call_once passes its callable through these thread-locals to the
// function pthread_once calls.
__thread void *__once_callable;
__thread void (*__once_call)();

// __atomic_futex_unsigned (std::future's state) waits for a word to change.
// A futex is modeled by one mutex and condition variable for all words:
// notify wakes every waiter, each rechecks its own word.
static pthread_mutex_t futex_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t futex_cond = PTHREAD_COND_INITIALIZER;

static bool futex_wait(unsigned *addr, unsigned val, bool has_timeout, clockid_t clock, chrono::seconds s,
                       chrono::nanoseconds ns) {
	timespec deadline{(time_t)s.count(), (long)ns.count()};
	bool ok = true;
	pthread_mutex_lock(&futex_lock);
	while (__atomic_load_n(addr, __ATOMIC_ACQUIRE) == val) {
		if (!has_timeout) {
			pthread_cond_wait(&futex_cond, &futex_lock);
		} else if (pthread_cond_clockwait(&futex_cond, &futex_lock, clock, &deadline) == ETIMEDOUT) {
			ok = false;
			break;
		}
	}
	pthread_mutex_unlock(&futex_lock);
	return ok;
}

bool __atomic_futex_unsigned_base::_M_futex_wait_until(unsigned *addr, unsigned val, bool has_timeout,
                                                       chrono::seconds s, chrono::nanoseconds ns) {
	return futex_wait(addr, val, has_timeout, CLOCK_REALTIME, s, ns);
}

bool __atomic_futex_unsigned_base::_M_futex_wait_until_steady(unsigned *addr, unsigned val, bool has_timeout,
                                                              chrono::seconds s, chrono::nanoseconds ns) {
	return futex_wait(addr, val, has_timeout, CLOCK_MONOTONIC, s, ns);
}

void __atomic_futex_unsigned_base::_M_futex_notify_all(unsigned *) {
	pthread_mutex_lock(&futex_lock);
	pthread_cond_broadcast(&futex_cond);
	pthread_mutex_unlock(&futex_lock);
}

__future_base::_Result_base::_Result_base() = default;
__future_base::_Result_base::~_Result_base() = default;

// promise::set_value_at_thread_exit stores the value now and makes the
// state ready when the setting thread ends: _M_set registers _S_run with
// the thread's thread_local destructors (__cxa_thread_atexit), which run
// at its exit, and _S_run wakes the waiters if the state still exists.
void __future_base::_State_baseV2::_Make_ready::_S_run(void *p) {
	unique_ptr<_Make_ready> mr{static_cast<_Make_ready *>(p)};
	if (auto state = mr->_M_shared_state.lock())
		state->_M_status._M_store_notify_all(_Status::__ready, memory_order_release);
}

void __future_base::_State_baseV2::_Make_ready::_M_set() { __cxxabiv1::__cxa_thread_atexit(_S_run, this, nullptr); }

// The atomic operations on a shared_ptr (std::atomic_load(&sp),
// atomic_store, atomic_exchange, atomic_compare_exchange) hold a lock the
// library picks by the shared_ptr's address, one of sixteen; an exchange
// of two takes both, the lower first, so that two such exchanges cannot
// deadlock. An address's lock is always the same one, which is what makes
// these operations atomic with each other (and ordered, for the detector).
static pthread_mutex_t spLocks[16] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static unsigned char spKey(const void *p) {
	unsigned long a = reinterpret_cast<unsigned long>(p);
	return static_cast<unsigned char>((a >> 4 ^ a >> 9) & 15);
}

_Sp_locker::_Sp_locker(const void *p) noexcept {
	_M_key1 = _M_key2 = spKey(p);
	pthread_mutex_lock(&spLocks[_M_key1]);
}

_Sp_locker::_Sp_locker(const void *p1, const void *p2) noexcept {
	_M_key1 = spKey(p1);
	_M_key2 = spKey(p2);
	unsigned char lo = _M_key1 < _M_key2 ? _M_key1 : _M_key2, hi = _M_key1 ^ _M_key2 ^ lo;
	pthread_mutex_lock(&spLocks[lo]);
	if (hi != lo)
		pthread_mutex_lock(&spLocks[hi]);
}

_Sp_locker::~_Sp_locker() {
	pthread_mutex_unlock(&spLocks[_M_key1]);
	if (_M_key2 != _M_key1)
		pthread_mutex_unlock(&spLocks[_M_key2]);
}

} // namespace std

// pthread_once's routine for std::call_once.
extern "C" void __once_proxy() {
	void (*call)() = std::__once_call;
	call();
}
