// cflags: -std=c++17
// std::wstring (whose members libstdc++ instantiates in its library, as
// std::string's), std::to_wstring and std::stoi of a wide string, the
// UTF-16 and UTF-32 strings (which the program instantiates itself), and
// std::string's editing members. The output must be native's.
#include <string>
#include <cstdio>
#include <cwchar>
#include <algorithm>
int main() {
  std::wstring w = L"héllo";
  w += L" wörld";
  w.insert(0, L">");
  std::reverse(w.begin(), w.end());
  std::printf("%zu %d\n", w.size(), (int)w[1]);
  std::wstring n = std::to_wstring(42);
  std::printf("%ls %d\n", n.c_str(), std::stoi(n));
  std::u16string u = u"abc"; u += u'd'; std::printf("%zu\n", u.size());
  std::u32string u3 = U"xyz"; std::printf("%zu\n", u3.find(U'z'));
  std::string s(300, 'x'); s.replace(10, 5, "abc"); s.erase(s.begin()); std::printf("%zu %s\n", s.size(), s.substr(8, 5).c_str());
  std::string t = "a,b,,c"; size_t k = 0; int parts = 0; while ((k = t.find(',', k)) != std::string::npos) { parts++; k++; } std::printf("parts %d %d\n", parts, t.compare("a,b"));
  std::string r = "hello"; r.resize(8, '!'); std::printf("%s %zu %s\n", r.c_str(), r.rfind('l'), std::to_string(3.5).c_str());
  return 0;
}
