// The C++ ABI support libstdc++ and libsupc++ provide out of line, written
// for augur: run-time type information and dynamic_cast, function-local
// statics, the functions the library calls to throw, and a few globals of
// the C library's C++ support. Exceptions themselves are in except.cc.
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <bits/cxxabi_forced.h> // __forced_unwind alone: <cxxabi.h> declares what this file defines
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <new>
#include <pthread.h>
#include <stdexcept>
#include <system_error>
#include <typeinfo>

namespace std _GLIBCXX_VISIBILITY(default) {
// The tag new (std::nothrow) takes.
const nothrow_t nothrow{};
} // namespace std

// The exception a thread's cancellation unwinds with, which std::thread
// and the futures' code catch and rethrow; augur never throws it, but the
// handlers name its type_info, defined with its key function here.
__cxxabiv1::__forced_unwind::~__forced_unwind() throw() {}

extern "C" {
// The shared object handle __cxa_atexit receives; one program, one handle.
void *__dso_handle = &__dso_handle;
// glibc's flag for single-threaded processes: libstdc++ skips atomic
// reference counts when it is set. augur says "threaded" always, so every
// run of a program takes the same path.
char __libc_single_threaded = 0;
}

// Function-local statics (Itanium C++ ABI 3.3.2). The guard's first byte
// says "initialized" and is read by the program's inline fast path with
// acquire order; the second says "being initialized". A thread that finds
// another initializing waits for it, as glibc's futex-based guard does:
// an initializer may block or be preempted, and must run once.
static pthread_mutex_t guardLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t guardDone = PTHREAD_COND_INITIALIZER;

extern "C" int __cxa_guard_acquire(long long *guard) {
	char *g = reinterpret_cast<char *>(guard);
	if (__atomic_load_n(g, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&guardLock);
	int first = 0;
	for (;;) {
		if (__atomic_load_n(g, __ATOMIC_ACQUIRE))
			break;
		if (!g[1]) {
			g[1] = 1;
			first = 1;
			break;
		}
		pthread_cond_wait(&guardDone, &guardLock);
	}
	pthread_mutex_unlock(&guardLock);
	return first;
}

extern "C" void __cxa_guard_release(long long *guard) {
	char *g = reinterpret_cast<char *>(guard);
	pthread_mutex_lock(&guardLock);
	g[1] = 0;
	__atomic_store_n(g, 1, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&guardDone);
	pthread_mutex_unlock(&guardLock);
}

extern "C" void __cxa_guard_abort(long long *guard) {
	pthread_mutex_lock(&guardLock);
	reinterpret_cast<char *>(guard)[1] = 0;
	pthread_cond_broadcast(&guardDone);
	pthread_mutex_unlock(&guardLock);
}

// The vtables of the type_info classes. Type information objects point at
// them; augur's dynamic_cast tells the kinds apart by that pointer and
// reads the objects' layout (Itanium C++ ABI 2.9.5) itself, so no virtual
// function of theirs is ever called.
extern "C" {
extern const void *const class_vtable[8] __asm__("_ZTVN10__cxxabiv117__class_type_infoE");
extern const void *const si_vtable[8] __asm__("_ZTVN10__cxxabiv120__si_class_type_infoE");
extern const void *const vmi_vtable[8] __asm__("_ZTVN10__cxxabiv121__vmi_class_type_infoE");
const void *const class_vtable[8] = {};
const void *const si_vtable[8] = {};
const void *const vmi_vtable[8] = {};
}

namespace {

struct TypeInfo {
	const void *vptr;
	const char *name;
};
struct SITypeInfo : TypeInfo {
	const TypeInfo *base;
};
struct BaseInfo {
	const TypeInfo *type;
	long offset_flags; // offset << 8 | flags (1: virtual, 2: public)
};
struct VMITypeInfo : TypeInfo {
	unsigned flags, count;
	BaseInfo bases[1];
};

bool sameType(const TypeInfo *a, const TypeInfo *b) {
	if (a == b)
		return true;
	const char *x = a->name[0] == '*' ? a->name + 1 : a->name;
	const char *y = b->name[0] == '*' ? b->name + 1 : b->name;
	return strcmp(x, y) == 0;
}

// find returns the address of the subobject of type want in the object of
// type type at obj, reached through public bases, or null.
const void *find(const TypeInfo *type, const char *obj, const TypeInfo *want) {
	if (sameType(type, want))
		return obj;
	if (type->vptr == &si_vtable[2])
		return find(static_cast<const SITypeInfo *>(type)->base, obj, want);
	if (type->vptr != &vmi_vtable[2])
		return nullptr;
	const VMITypeInfo *vmi = static_cast<const VMITypeInfo *>(type);
	for (unsigned i = 0; i < vmi->count; i++) {
		long of = vmi->bases[i].offset_flags;
		if (!(of & 2))
			continue;
		long off = of >> 8;
		if (of & 1) {
			const char *vptr = *reinterpret_cast<const char *const *>(obj);
			off = *reinterpret_cast<const long *>(vptr + off);
		}
		if (const void *p = find(vmi->bases[i].type, obj + off, want))
			return p;
	}
	return nullptr;
}

} // namespace

extern "C" void *__dynamic_cast(const void *src, const void *, const void *dst, ptrdiff_t) {
	const char *vptr = *static_cast<const char *const *>(src);
	ptrdiff_t toTop = reinterpret_cast<const ptrdiff_t *>(vptr)[-2];
	const TypeInfo *whole = reinterpret_cast<const TypeInfo *const *>(vptr)[-1];
	const char *obj = static_cast<const char *>(src) + toTop;
	return const_cast<void *>(find(whole, obj, static_cast<const TypeInfo *>(dst)));
}

// find for the rest of the runtime (except.cc: is an exception a
// std::exception?).
extern "C" const void *__augur_find_base(const std::type_info *type, const void *obj, const std::type_info *want) {
	return find(reinterpret_cast<const TypeInfo *>(type), static_cast<const char *>(obj),
	            reinterpret_cast<const TypeInfo *>(want));
}

extern "C" [[noreturn]] void __cxa_bad_cast() { throw std::bad_cast(); }
extern "C" [[noreturn]] void __cxa_bad_typeid() { throw std::bad_typeid(); }
extern "C" [[noreturn]] void __cxa_throw_bad_array_new_length() { throw std::bad_array_new_length(); }

namespace std _GLIBCXX_VISIBILITY(default) {

type_info::~type_info() {}
bool type_info::__is_pointer_p() const { return false; }
bool type_info::__is_function_p() const { return false; }
bool type_info::__do_catch(const type_info *thrown, void **, unsigned) const { return *this == *thrown; }
bool type_info::__do_upcast(const __cxxabiv1::__class_type_info *, void **) const { return false; }

// The library's error paths throw the standard exceptions.
void __throw_bad_alloc() { throw bad_alloc(); }
void __throw_bad_array_new_length() { throw bad_array_new_length(); }
void __throw_bad_cast() { throw bad_cast(); }
void __throw_bad_typeid() { throw bad_typeid(); }
void __throw_bad_function_call() { throw bad_function_call(); }
void __throw_bad_exception() { throw bad_exception(); }
void __throw_logic_error(const char *s) { throw logic_error(s); }
void __throw_domain_error(const char *s) { throw domain_error(s); }
void __throw_invalid_argument(const char *s) { throw invalid_argument(s); }
void __throw_length_error(const char *s) { throw length_error(s); }
void __throw_out_of_range(const char *s) { throw out_of_range(s); }
void __throw_runtime_error(const char *s) { throw runtime_error(s); }
void __throw_range_error(const char *s) { throw range_error(s); }
void __throw_overflow_error(const char *s) { throw overflow_error(s); }
void __throw_underflow_error(const char *s) { throw underflow_error(s); }
void __throw_system_error(int e) { throw system_error(error_code(e, generic_category())); }
void __throw_future_error(int code) { throw future_error(future_errc(code)); }

void __throw_out_of_range_fmt(const char *fmt, ...) {
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	throw out_of_range(buf);
}

} // namespace std
