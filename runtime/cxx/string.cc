// std::string's members, which libstdc++'s headers declare as explicitly
// instantiated in libstdc++.so: the instantiation of its own template code.
#include <ostream>
#include <string>

namespace std _GLIBCXX_VISIBILITY(default) {
template class allocator<char>;
template class __cxx11::basic_string<char>;
template ostream &operator<<(ostream &, const string &);
} // namespace std
