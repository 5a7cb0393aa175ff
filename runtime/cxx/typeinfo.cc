// The type_info objects of the fundamental types, written for augur.
// Compilers emit the type information of a program's own classes, and of
// pointers to them, into the program; that of the fundamental types
// (`typeid(int)`, `throw 3L`, `catch (const char *)`) and of pointers to
// them they leave to the C++ library, which defines it out of line. Without
// these objects, `typeid(int).name()` read past an undefined global, and a
// catch clause for one fundamental type caught another.
//
// The layout is the Itanium C++ ABI's (2.9.5): a fundamental type's object
// is its vtable pointer and its mangled name; a pointer type's
// (__pointer_type_info) adds the pointee's qualifiers (1 const, 2
// volatile) and the pointee's type_info. augur's exception matching
// (analyzer/exec/vm/except.go) reads those fields and tells the kinds
// apart by the vtable pointer, so no virtual function of these objects is
// called and the vtables are only addresses.

extern "C" {
extern const void *const fundamental_vtable[8] __asm__("_ZTVN10__cxxabiv123__fundamental_type_infoE");
extern const void *const pointer_vtable[8] __asm__("_ZTVN10__cxxabiv119__pointer_type_infoE");
const void *const fundamental_vtable[8] = {};
const void *const pointer_vtable[8] = {};
}

namespace augur_rtti {

struct TypeInfo {
	const void *vptr;
	const char *name;
};

struct PointerTypeInfo {
	TypeInfo base;
	unsigned flags;
	const TypeInfo *pointee;
};

} // namespace augur_rtti

// FUNDAMENTAL defines the type_info of the fundamental type whose mangled
// name is code, of a pointer to it and of a pointer to it const, under
// the names libstdc++ gives them (_ZTIi, _ZTIPi, _ZTIPKi for int).
#define FUNDAMENTAL(code)                                                                      \
	extern "C" const augur_rtti::TypeInfo ti_##code __asm__("_ZTI" #code);                    \
	extern "C" const augur_rtti::PointerTypeInfo tip_##code __asm__("_ZTIP" #code);           \
	extern "C" const augur_rtti::PointerTypeInfo tipk_##code __asm__("_ZTIPK" #code);         \
	const augur_rtti::TypeInfo ti_##code = {&fundamental_vtable[2], #code};                  \
	const augur_rtti::PointerTypeInfo tip_##code = {{&pointer_vtable[2], "P" #code}, 0, &ti_##code}; \
	const augur_rtti::PointerTypeInfo tipk_##code = {{&pointer_vtable[2], "PK" #code}, 1, &ti_##code};

// The list of libstdc++'s fundamental_type_info.cc, but for the decimal
// floating types, which clang does not have.
FUNDAMENTAL(v)  // void
FUNDAMENTAL(Dn) // decltype(nullptr)
FUNDAMENTAL(b)  // bool
FUNDAMENTAL(w)  // wchar_t
FUNDAMENTAL(c)  // char
FUNDAMENTAL(a)  // signed char
FUNDAMENTAL(h)  // unsigned char
FUNDAMENTAL(Du) // char8_t
FUNDAMENTAL(Ds) // char16_t
FUNDAMENTAL(Di) // char32_t
FUNDAMENTAL(s)  // short
FUNDAMENTAL(t)  // unsigned short
FUNDAMENTAL(i)  // int
FUNDAMENTAL(j)  // unsigned int
FUNDAMENTAL(l)  // long
FUNDAMENTAL(m)  // unsigned long
FUNDAMENTAL(x)  // long long
FUNDAMENTAL(y)  // unsigned long long
FUNDAMENTAL(n)  // __int128
FUNDAMENTAL(o)  // unsigned __int128
FUNDAMENTAL(f)  // float
FUNDAMENTAL(d)  // double
FUNDAMENTAL(e)  // long double
FUNDAMENTAL(g)  // __float128
