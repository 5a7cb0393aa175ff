// std::string's and std::wstring's members, which libstdc++'s headers declare as explicitly
// instantiated in libstdc++.so: the instantiation of its own template code.
#include <ostream>
#include <string>

namespace std _GLIBCXX_VISIBILITY(default) {
template class allocator<char>;
template class __cxx11::basic_string<char>;
template ostream &operator<<(ostream &, const string &);
// std::wstring's, which the library instantiates too.
template class allocator<wchar_t>;
template class __cxx11::basic_string<wchar_t>;
} // namespace std
