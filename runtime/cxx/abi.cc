// The C++ ABI support libstdc++ and libsupc++ provide out of line, written
// for augur: run-time type information and dynamic_cast, the functions the
// library calls to throw (augur compiles C++ without exceptions, so a throw
// ends the program the way an uncaught exception does natively: the
// verbose terminate handler's message, then abort), and a few globals of
// the C library's C++ support.
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <pthread.h>
#include <typeinfo>

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

[[noreturn]] void uncaught(const char *type, const char *what) {
	fprintf(stderr, "terminate called after throwing an instance of '%s'\n", type);
	if (what)
		fprintf(stderr, "  what():  %s\n", what);
	abort();
}

} // namespace

extern "C" void *__dynamic_cast(const void *src, const void *, const void *dst, ptrdiff_t) {
	const char *vptr = *static_cast<const char *const *>(src);
	ptrdiff_t toTop = reinterpret_cast<const ptrdiff_t *>(vptr)[-2];
	const TypeInfo *whole = reinterpret_cast<const TypeInfo *const *>(vptr)[-1];
	const char *obj = static_cast<const char *>(src) + toTop;
	return const_cast<void *>(find(whole, obj, static_cast<const TypeInfo *>(dst)));
}

extern "C" [[noreturn]] void __cxa_bad_cast() { uncaught("std::bad_cast", "std::bad_cast"); }
extern "C" [[noreturn]] void __cxa_bad_typeid() { uncaught("std::bad_typeid", "std::bad_typeid"); }
extern "C" [[noreturn]] void __cxa_throw_bad_array_new_length() {
	uncaught("std::bad_array_new_length", "std::bad_array_new_length");
}

namespace std _GLIBCXX_VISIBILITY(default) {

type_info::~type_info() {}
bool type_info::__is_pointer_p() const { return false; }
bool type_info::__is_function_p() const { return false; }
bool type_info::__do_catch(const type_info *thrown, void **, unsigned) const { return *this == *thrown; }
bool type_info::__do_upcast(const __cxxabiv1::__class_type_info *, void **) const { return false; }

void terminate() noexcept {
	fputs("terminate called without an active exception\n", stderr);
	abort();
}

void __throw_bad_alloc() { uncaught("std::bad_alloc", "std::bad_alloc"); }
void __throw_bad_array_new_length() { uncaught("std::bad_array_new_length", "std::bad_array_new_length"); }
void __throw_bad_cast() { uncaught("std::bad_cast", "std::bad_cast"); }
void __throw_bad_typeid() { uncaught("std::bad_typeid", "std::bad_typeid"); }
void __throw_bad_function_call() { uncaught("std::bad_function_call", "bad_function_call"); }
void __throw_logic_error(const char *s) { uncaught("std::logic_error", s); }
void __throw_domain_error(const char *s) { uncaught("std::domain_error", s); }
void __throw_invalid_argument(const char *s) { uncaught("std::invalid_argument", s); }
void __throw_length_error(const char *s) { uncaught("std::length_error", s); }
void __throw_out_of_range(const char *s) { uncaught("std::out_of_range", s); }
void __throw_runtime_error(const char *s) { uncaught("std::runtime_error", s); }
void __throw_range_error(const char *s) { uncaught("std::range_error", s); }
void __throw_overflow_error(const char *s) { uncaught("std::overflow_error", s); }
void __throw_underflow_error(const char *s) { uncaught("std::underflow_error", s); }
void __throw_ios_failure(const char *s) { uncaught("std::ios_base::failure[abi:cxx11]", s); }
void __throw_ios_failure(const char *s, int) { uncaught("std::ios_base::failure[abi:cxx11]", s); }
void __throw_system_error(int e) { uncaught("std::system_error", strerror(e)); }

void __throw_out_of_range_fmt(const char *fmt, ...) {
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	uncaught("std::out_of_range", buf);
}

void __throw_future_error(int code) {
	static const char *const messages[] = {"std::future_error: Unknown error",
	                                       "std::future_error: Future already retrieved",
	                                       "std::future_error: Promise already satisfied",
	                                       "std::future_error: No associated state", "std::future_error: Broken promise"};
	uncaught("std::future_error", messages[code >= 1 && code <= 4 ? code : 0]);
}

// Without exceptions no exception_ptr ever holds an exception.
namespace __exception_ptr {
void exception_ptr::_M_addref() noexcept {}
void exception_ptr::_M_release() noexcept {}
} // namespace __exception_ptr
void rethrow_exception(exception_ptr) { terminate(); }

} // namespace std
