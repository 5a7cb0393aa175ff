// The string streams' members that C++20 added, which libstdc++.so holds
// beside the older ones (str() const & and str() &&, str(string &&),
// view(), the constructors that take a string to move or an allocator) and a program compiled as C++20 calls in
// place of str() const. They exist only when <sstream> is read as C++20,
// so this file is compiled as C++20 (build.runtimeFlags), where the rest
// of the runtime is C++17; iostream.cc instantiates the classes' other
// members.
#include <sstream>

namespace std::inline __cxx11 {

template string basic_stringbuf<char>::str() const &;
template string basic_stringbuf<char>::str() &&;
template string_view basic_stringbuf<char>::view() const noexcept;
template basic_stringbuf<char>::allocator_type basic_stringbuf<char>::get_allocator() const noexcept;
template basic_stringbuf<char>::basic_stringbuf(const allocator<char> &);
template basic_stringbuf<char>::basic_stringbuf(ios_base::openmode, const allocator<char> &);
template basic_stringbuf<char>::basic_stringbuf(basic_stringbuf &&, const allocator<char> &);
template basic_stringbuf<char>::basic_stringbuf(basic_stringbuf &&, const allocator<char> &, __xfer_bufptrs &&);
template basic_stringbuf<char>::basic_stringbuf(string &&, ios_base::openmode);
template void basic_stringbuf<char>::str(string &&);

template string basic_istringstream<char>::str() const &;
template string basic_istringstream<char>::str() &&;
template string_view basic_istringstream<char>::view() const noexcept;
template basic_istringstream<char>::basic_istringstream(ios_base::openmode, const allocator<char> &);
template basic_istringstream<char>::basic_istringstream(string &&, ios_base::openmode);
template void basic_istringstream<char>::str(string &&);

template string basic_ostringstream<char>::str() const &;
template string basic_ostringstream<char>::str() &&;
template string_view basic_ostringstream<char>::view() const noexcept;
template basic_ostringstream<char>::basic_ostringstream(ios_base::openmode, const allocator<char> &);
template basic_ostringstream<char>::basic_ostringstream(string &&, ios_base::openmode);
template void basic_ostringstream<char>::str(string &&);

template string basic_stringstream<char>::str() const &;
template string basic_stringstream<char>::str() &&;
template string_view basic_stringstream<char>::view() const noexcept;
template basic_stringstream<char>::basic_stringstream(ios_base::openmode, const allocator<char> &);
template basic_stringstream<char>::basic_stringstream(string &&, ios_base::openmode);
template void basic_stringstream<char>::str(string &&);

} // namespace std::inline __cxx11
