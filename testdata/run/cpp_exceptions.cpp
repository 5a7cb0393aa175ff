// C++ exceptions: throw and catch by class, base class, value and catch-all,
// destructors run while unwinding, library errors (vector::at, stoi) as
// exceptions, rethrow, exception_ptr, and finally an uncaught exception:
// libstdc++'s terminate message and SIGABRT, as natively.
#include <cstdio>
#include <stdexcept>
#include <vector>
#include <string>
struct Guard { const char* n; ~Guard(){ std::printf("~Guard %s\n", n);} };
struct Base { virtual ~Base(){} }; struct Derived : Base { int v = 7; };
int thrower(int k) { Guard g{"thrower"}; if (k == 1) throw std::runtime_error("boom"); if (k == 2) throw 42; if (k == 3) throw Derived(); if (k==4) throw std::string("str"); return k; }
int main() {
  for (int k = 0; k < 5; k++) {
    try { std::printf("ret %d\n", thrower(k)); }
    catch (const std::exception& e) { std::printf("exception: %s\n", e.what()); }
    catch (int x) { std::printf("int %d\n", x); }
    catch (Base& b) { std::printf("base, derived v=%d\n", dynamic_cast<Derived&>(b).v); }
    catch (...) { std::printf("something else\n"); }
  }
  std::vector<int> v{1,2};
  try { v.at(9); } catch (const std::out_of_range& e) { std::printf("oor: %s\n", e.what()); }
  try { try { throw std::logic_error("inner"); } catch (...) { std::printf("rethrowing\n"); throw; } } catch (const std::logic_error& e) { std::printf("outer got %s\n", e.what()); }
  std::exception_ptr ep;
  try { throw std::invalid_argument("saved"); } catch (...) { ep = std::current_exception(); }
  try { std::rethrow_exception(ep); } catch (const std::invalid_argument& e) { std::printf("rethrown ptr: %s\n", e.what()); }
  try { std::stoi("zz"); } catch (const std::invalid_argument& e) { std::printf("stoi: %s\n", e.what()); }
  std::fflush(stdout);
  throw std::runtime_error("final uncaught");
}
