// C++ exceptions for augur: the Itanium C++ ABI's __cxa_* functions over
// the machine's unwinder (__augur_raise, analyzer/exec/vm/except.go), the
// standard exception classes whose members libstdc++.so holds, the error
// categories, and what happens to an exception nobody catches: libstdc++'s
// verbose terminate handler's message, then abort.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <ios>
#include <memory>
#include <regex>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <typeinfo>

extern "C" {
// Unwind to a handler of the exception at obj of type tinfo; returns only
// when no frame catches it.
int __augur_raise(void *obj, const std::type_info *tinfo);
// The pointer the handler being entered receives (the object, a base
// subobject of it, or the pointer a pointer exception holds).
void *__augur_exception_adjusted(void);
// Writes the demangled form of a type's mangled name into buf.
void __augur_demangle(const char *name, char *buf, size_t n);
// Ends the program as an uncaught exception does (abort), naming it in
// augur's report.
[[noreturn]] void __augur_uncaught(const char *type, const char *what);
// The base of type want in the object of type type at obj (abi.cc).
const void *__augur_find_base(const std::type_info *type, const void *obj, const std::type_info *want);
}

namespace {

// header precedes every exception object.
struct header {
	const std::type_info *tinfo;
	void (*dtor)(void *);
	int handlers;  // catch blocks in progress for it
	int refs;      // the throw itself and every exception_ptr
	bool rethrown; // rethrown from the catch block in progress
	header *next;  // the next exception being handled by this thread
};

const size_t headerSize = (sizeof(header) + 15) & ~size_t(15);

header *headerOf(void *obj) { return reinterpret_cast<header *>(static_cast<char *>(obj) - headerSize); }
void *objectOf(header *h) { return reinterpret_cast<char *>(h) + headerSize; }

thread_local header *caught;        // exceptions being handled, innermost first
thread_local int uncaughtExceptions; // thrown and not yet caught

void release(header *h) {
	if (--h->refs > 0)
		return;
	if (h->dtor)
		h->dtor(objectOf(h));
	free(h);
}

// asException returns the std::exception base of an object of type t, or
// null when it is no std::exception.
std::exception *asException(void *obj, const std::type_info *t);

[[noreturn]] void uncaught(void *obj, const std::type_info *t) {
	char name[512];
	__augur_demangle(t->name(), name, sizeof name);
	fprintf(stderr, "terminate called after throwing an instance of '%s'\n", name);
	const char *what = nullptr;
	if (std::exception *e = asException(obj, t)) {
		what = e->what();
		fprintf(stderr, "  what():  %s\n", what);
	}
	__augur_uncaught(name, what);
}

[[noreturn]] void raise(header *h) {
	uncaughtExceptions++;
	__augur_raise(objectOf(h), h->tinfo);
	uncaught(objectOf(h), h->tinfo);
}

} // namespace

extern "C" {

void *__cxa_allocate_exception(size_t size) noexcept {
	void *p = calloc(1, headerSize + size);
	if (!p) {
		fputs("terminate called after failing to allocate an exception\n", stderr);
		abort();
	}
	return static_cast<char *>(p) + headerSize;
}

void __cxa_free_exception(void *obj) noexcept { free(headerOf(obj)); }

__cxxabiv1::__cxa_refcounted_exception *__cxa_init_primary_exception(void *obj, std::type_info *tinfo,
                                                                       void (*dtor)(void *)) noexcept {
	header *h = headerOf(obj);
	h->tinfo = tinfo;
	h->dtor = dtor;
	h->refs = 0; // the exception_ptr made from it adds the first reference
	return reinterpret_cast<__cxxabiv1::__cxa_refcounted_exception *>(h);
}

[[noreturn]] void __cxa_throw(void *obj, std::type_info *tinfo, void (*dtor)(void *)) {
	header *h = headerOf(obj);
	h->tinfo = tinfo;
	h->dtor = dtor;
	h->refs = 1;
	raise(h);
}

void *__cxa_get_exception_ptr(void *) noexcept { return __augur_exception_adjusted(); }

void *__cxa_begin_catch(void *obj) noexcept {
	void *adjusted = __augur_exception_adjusted();
	if (!obj)
		return adjusted;
	header *h = headerOf(obj);
	if (h->handlers++ == 0) {
		h->next = caught;
		caught = h;
		uncaughtExceptions--;
	}
	h->rethrown = false;
	return adjusted;
}

void __cxa_end_catch() {
	header *h = caught;
	if (!h || --h->handlers > 0)
		return;
	caught = h->next;
	if (h->rethrown)
		return; // still in flight: its next handler owns it
	release(h);
}

[[noreturn]] void __cxa_rethrow() {
	header *h = caught;
	if (!h) {
		fputs("terminate called without an active exception\n", stderr);
		abort();
	}
	h->rethrown = true;
	raise(h);
}

std::type_info *__cxa_current_exception_type() noexcept {
	return caught ? const_cast<std::type_info *>(caught->tinfo) : nullptr;
}

[[noreturn]] void __cxa_call_unexpected(void *) { std::terminate(); }

// The personality routine is the machine's; the symbol only has to exist.
int __gxx_personality_v0(...) { return 0; }

} // extern "C"

namespace std _GLIBCXX_VISIBILITY(default) {

void terminate() noexcept {
	if (caught)
		uncaught(objectOf(caught), caught->tinfo);
	fputs("terminate called without an active exception\n", stderr);
	abort();
}

bool uncaught_exception() noexcept { return uncaughtExceptions > 0; }
int uncaught_exceptions() noexcept { return uncaughtExceptions; }

exception_ptr current_exception() noexcept {
	if (!caught)
		return exception_ptr();
	return exception_ptr(objectOf(caught)); // the constructor adds a reference
}

void rethrow_exception(exception_ptr p) {
	void *obj = p.__cxa_exception_type() ? *reinterpret_cast<void **>(&p) : nullptr;
	if (!obj)
		terminate();
	header *h = headerOf(obj);
	h->refs++;
	raise(h);
}

namespace __exception_ptr {
exception_ptr::exception_ptr(void *obj) noexcept : _M_exception_object(obj) { _M_addref(); }
void exception_ptr::_M_addref() noexcept {
	if (_M_exception_object)
		headerOf(_M_exception_object)->refs++;
}
void exception_ptr::_M_release() noexcept {
	if (_M_exception_object)
		release(headerOf(_M_exception_object));
}
const type_info *exception_ptr::__cxa_exception_type() const noexcept {
	return _M_exception_object ? headerOf(_M_exception_object)->tinfo : nullptr;
}
} // namespace __exception_ptr

// The standard exception classes. Their messages live in a __cow_string,
// which here holds one heap copy of the text.
__cow_string::__cow_string() : _M_p(nullptr) {}
__cow_string::__cow_string(const std::string &s) : __cow_string(s.data(), s.size()) {}
__cow_string::__cow_string(const char *s, size_t n) {
	char *p = static_cast<char *>(malloc(n + 1));
	memcpy(p, s, n);
	p[n] = '\0';
	_M_p = p;
}
__cow_string::__cow_string(const __cow_string &o) noexcept : _M_p(o._M_p ? strdup(o._M_p) : nullptr) {}
__cow_string &__cow_string::operator=(const __cow_string &o) noexcept {
	if (this != &o) {
		free(const_cast<char *>(_M_p));
		_M_p = o._M_p ? strdup(o._M_p) : nullptr;
	}
	return *this;
}
__cow_string::__cow_string(__cow_string &&o) noexcept : _M_p(o._M_p) { o._M_p = nullptr; }
__cow_string &__cow_string::operator=(__cow_string &&o) noexcept {
	std::swap(_M_p, o._M_p);
	return *this;
}
__cow_string::~__cow_string() { free(const_cast<char *>(_M_p)); }

exception::~exception() noexcept {}
const char *exception::what() const noexcept { return "std::exception"; }
bad_exception::~bad_exception() noexcept {}
const char *bad_exception::what() const noexcept { return "std::bad_exception"; }
bad_alloc::~bad_alloc() noexcept {}
const char *bad_alloc::what() const noexcept { return "std::bad_alloc"; }
bad_array_new_length::~bad_array_new_length() noexcept {}
const char *bad_array_new_length::what() const noexcept { return "std::bad_array_new_length"; }
bad_cast::~bad_cast() noexcept {}
const char *bad_cast::what() const noexcept { return "std::bad_cast"; }
bad_typeid::~bad_typeid() noexcept {}
const char *bad_typeid::what() const noexcept { return "std::bad_typeid"; }
bad_function_call::~bad_function_call() noexcept {}
const char *bad_function_call::what() const noexcept { return "bad_function_call"; }

logic_error::logic_error(const string &s) : _M_msg(s) {}
logic_error::logic_error(const char *s) : _M_msg(s, strlen(s)) {}
logic_error::logic_error(const logic_error &) noexcept = default;
logic_error &logic_error::operator=(const logic_error &) noexcept = default;
logic_error::logic_error(logic_error &&) noexcept = default;
logic_error &logic_error::operator=(logic_error &&) noexcept = default;
logic_error::~logic_error() noexcept {}
const char *logic_error::what() const noexcept { return _M_msg._M_p ? _M_msg._M_p : ""; }

runtime_error::runtime_error(const string &s) : _M_msg(s) {}
runtime_error::runtime_error(const char *s) : _M_msg(s, strlen(s)) {}
runtime_error::runtime_error(const runtime_error &) noexcept = default;
runtime_error &runtime_error::operator=(const runtime_error &) noexcept = default;
runtime_error::runtime_error(runtime_error &&) noexcept = default;
runtime_error &runtime_error::operator=(runtime_error &&) noexcept = default;
runtime_error::~runtime_error() noexcept {}
const char *runtime_error::what() const noexcept { return _M_msg._M_p ? _M_msg._M_p : ""; }

#define AUGUR_ERROR(name, base)                                                                                    \
	name::name(const string &s) : base(s) {}                                                                   \
	name::name(const char *s) : base(s) {}                                                                     \
	name::~name() noexcept {}
AUGUR_ERROR(domain_error, logic_error)
AUGUR_ERROR(invalid_argument, logic_error)
AUGUR_ERROR(length_error, logic_error)
AUGUR_ERROR(out_of_range, logic_error)
AUGUR_ERROR(range_error, runtime_error)
AUGUR_ERROR(overflow_error, runtime_error)
AUGUR_ERROR(underflow_error, runtime_error)
#undef AUGUR_ERROR

// Error categories: generic and system give strerror's messages.
error_category::~error_category() {}
__cow_string error_category::_M_message(int v) const {
	string s = message(v);
	return __cow_string(s.data(), s.size());
}
error_condition error_category::default_error_condition(int v) const noexcept { return error_condition(v, *this); }
bool error_category::equivalent(int v, const error_condition &c) const noexcept {
	return default_error_condition(v) == c;
}
bool error_category::equivalent(const error_code &c, int v) const noexcept { return *this == c.category() && c.value() == v; }
error_condition error_code::default_error_condition() const noexcept { return category().default_error_condition(value()); }

namespace {
struct genericCategory : error_category {
	const char *name() const noexcept override { return "generic"; }
	string message(int v) const override { return strerror(v); }
};
struct systemCategory : error_category {
	const char *name() const noexcept override { return "system"; }
	string message(int v) const override { return strerror(v); }
	error_condition default_error_condition(int v) const noexcept override {
		return error_condition(v, std::generic_category());
	}
};
struct futureCategory : error_category {
	const char *name() const noexcept override { return "future"; }
	string message(int v) const override {
		switch (future_errc(v)) {
		case future_errc::future_already_retrieved: return "Future already retrieved";
		case future_errc::promise_already_satisfied: return "Promise already satisfied";
		case future_errc::no_state: return "No associated state";
		case future_errc::broken_promise: return "Broken promise";
		}
		return "Unknown error";
	}
};
struct iostreamCategory : error_category {
	const char *name() const noexcept override { return "iostream"; }
	string message(int v) const override { return v == int(io_errc::stream) ? "iostream error" : "Unknown error"; }
};
} // namespace

inline namespace _V2 {
const error_category &generic_category() noexcept {
	static genericCategory c;
	return c;
}
const error_category &system_category() noexcept {
	static systemCategory c;
	return c;
}
} // namespace _V2
const error_category &future_category() noexcept {
	static futureCategory c;
	return c;
}

const error_category &iostream_category() noexcept {
	static iostreamCategory c;
	return c;
}

// ios_base::failure, which a stream throws from clear() when its
// exceptions() mask says so: a system_error of io_errc::stream, so what()
// reads "basic_ios::clear: iostream error" as natively.
ios_base::failure::failure(const string &s) : system_error(make_error_code(io_errc::stream), s) {}
ios_base::failure::failure(const string &s, const error_code &ec) : system_error(ec, s) {}
ios_base::failure::failure(const char *s, const error_code &ec) : system_error(ec, s) {}
ios_base::failure::~failure() throw() {}
const char *ios_base::failure::what() const throw() { return system_error::what(); }

void __throw_ios_failure(const char *s) { throw ios_base::failure(s); }
void __throw_ios_failure(const char *s, int err) {
	throw ios_base::failure(s, err != 0 ? error_code(err, system_category()) : make_error_code(io_errc::stream));
}

// The library classes whose key functions (their destructors) libstdc++
// defines out of line: defined here, their vtables and type_info objects
// are the program's, so a handler or a dynamic_cast can read them.
nested_exception::~nested_exception() noexcept = default;

bad_weak_ptr::~bad_weak_ptr() noexcept {}
const char *bad_weak_ptr::what() const noexcept { return "bad_weak_ptr"; }

namespace {
// regexMessage is what() of a regex_error made from its code alone, as
// libstdc++ words it.
const char *regexMessage(regex_constants::error_type e) {
	static const char *const text[] = {
		"Invalid collating element in regular expression",
		"Invalid character class in regular expression",
		"Invalid escape in regular expression",
		"Invalid back reference in regular expression",
		"Mismatched '[' and ']' in regular expression",
		"Mismatched '(' and ')' in regular expression",
		"Mismatched '{' and '}' in regular expression",
		"Invalid range in '{}' in regular expression",
		"Invalid character range in regular expression",
		"Insufficient memory to compile regular expression",
		"Invalid '?', '*', or '+' in regular expression",
		"Complexity of regex match exceeded implementation limits",
		"Insufficient memory to determine regex match",
	};
	size_t i = size_t(e);
	return i < sizeof text / sizeof text[0] ? text[i] : "regex_error";
}
} // namespace

regex_error::regex_error(regex_constants::error_type e) : runtime_error(regexMessage(e)), _M_code(e) {}
regex_error::~regex_error() throw() {}
void __throw_regex_error(regex_constants::error_type e) { throw regex_error(e); }

system_error::~system_error() noexcept {}
future_error::~future_error() noexcept {}
const char *future_error::what() const noexcept { return logic_error::what(); }

} // namespace std

namespace {
std::exception *asException(void *obj, const std::type_info *t) {
	return static_cast<std::exception *>(const_cast<void *>(__augur_find_base(t, obj, &typeid(std::exception))));
}
} // namespace
