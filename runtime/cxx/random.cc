// The out-of-line parts of std::random_device (what libstdc++.so holds for
// <random>), written for augur. Every source libstdc++ accepts on this
// machine's kind (x86-64 Linux) draws from getrandom, whose bytes augur
// makes the same in every run, so a program's schedule and its evidence
// replay; entropy() answers 32, as libstdc++ does for those sources. A
// token libstdc++ refuses ("mt19937" with no fallback built in, a seed,
// anything else) throws as it does there.
#include <cstring>
#include <random>
#include <sys/random.h>

namespace std _GLIBCXX_VISIBILITY(default) {

namespace {
bool supported(const char *token) {
	static const char *const tokens[] = {"default", "/dev/urandom", "/dev/random", "rdrand", "rdrnd",
	                                     "rdseed",  "hw",           "getentropy",  "arc4random"};
	for (const char *t : tokens)
		if (strcmp(token, t) == 0)
			return true;
	return false;
}

unsigned int draw() {
	unsigned int v = 0;
	for (size_t got = 0; got < sizeof v;) {
		ssize_t n = getrandom(reinterpret_cast<char *>(&v) + got, sizeof v - got, 0);
		if (n > 0)
			got += size_t(n);
	}
	return v;
}
} // namespace

void random_device::_M_init(const string &token) {
	if (!supported(token.c_str()))
		__throw_runtime_error("random_device::random_device(const std::string&): unsupported token");
	_M_file = nullptr;
	_M_func = nullptr;
	_M_fd = -1;
}

void random_device::_M_init_pretr1(const string &token) { _M_init(token); }

void random_device::_M_init(const char *token, size_t len) { _M_init(string(token, len)); }

void random_device::_M_fini() {}

random_device::result_type random_device::_M_getval() { return draw(); }

random_device::result_type random_device::_M_getval_pretr1() { return draw(); }

double random_device::_M_getentropy() const noexcept { return 32.0; }

} // namespace std
