// The standard streams and the instantiations of libstdc++'s stream
// templates that libstdc++.so would hold (the headers declare them extern,
// so a program's own code never instantiates them). cout, cerr and clog
// write through stdio_sync_filebuf to the C library's stdout and stderr,
// as libstdc++'s do while synchronized with stdio: output interleaves with
// printf exactly as in a native run; cin reads stdin the same way.
//
// This file must not include <iostream>: it defines cout, cerr and clog
// itself, as raw storage the streams are constructed in by ios_base::Init.
// (cin, cout, cerr and clog; the wide streams are not provided.)
#include <ext/stdio_sync_filebuf.h>
#include <iomanip>
#include <istream>
#include <locale>
#include <new>
#include <ostream>
#include <sstream>
#include <string>

namespace std _GLIBCXX_VISIBILITY(default) {

template class basic_ios<char>;
template class basic_streambuf<char>;
template class basic_ostream<char>;
template ostream &ostream::_M_insert(long);
template ostream &ostream::_M_insert(unsigned long);
template ostream &ostream::_M_insert(long long);
template ostream &ostream::_M_insert(unsigned long long);
template ostream &ostream::_M_insert(bool);
template ostream &ostream::_M_insert(double);
template ostream &ostream::_M_insert(long double);
template ostream &ostream::_M_insert(const void *);
template ostream &endl(ostream &);
template ostream &ends(ostream &);
template ostream &flush(ostream &);
template ostream &__ostream_insert(ostream &, const char *, streamsize);
template ostream &operator<<(ostream &, char);
template ostream &operator<<(ostream &, unsigned char);
template ostream &operator<<(ostream &, signed char);
template ostream &operator<<(ostream &, const char *);
template ostream &operator<<(ostream &, const unsigned char *);
template ostream &operator<<(ostream &, const signed char *);
template streamsize __copy_streambufs(streambuf *, streambuf *);
template ostream &operator<<(ostream &, _Setfill<char>);
template ostream &operator<<(ostream &, _Setiosflags);
template ostream &operator<<(ostream &, _Resetiosflags);
template ostream &operator<<(ostream &, _Setbase);
template ostream &operator<<(ostream &, _Setprecision);
template ostream &operator<<(ostream &, _Setw);

// ostream << streambuf* copies character by character (libstdc++'s
// specialization copies whole buffers; the output is the same).
template <> streamsize __copy_streambufs_eof(streambuf *in, streambuf *out, bool &ineof) {
	streamsize n = 0;
	ineof = true;
	for (int c = in->sgetc(); c != char_traits<char>::eof(); c = in->snextc()) {
		if (out->sputc(char_traits<char>::to_char_type(c)) == char_traits<char>::eof()) {
			ineof = false;
			break;
		}
		n++;
	}
	return n;
}

template class basic_istream<char>;
template istream &istream::_M_extract(long &);
template istream &istream::_M_extract(unsigned long &);
template istream &istream::_M_extract(long long &);
template istream &istream::_M_extract(unsigned long long &);
template istream &istream::_M_extract(unsigned short &);
template istream &istream::_M_extract(unsigned int &);
template istream &istream::_M_extract(bool &);
template istream &istream::_M_extract(float &);
template istream &istream::_M_extract(double &);
template istream &istream::_M_extract(long double &);
template istream &istream::_M_extract(void *&);
template istream &operator>>(istream &, char &);
template istream &operator>>(istream &, unsigned char &);
template istream &operator>>(istream &, signed char &);
template istream &operator>>(istream &, char *);
template istream &ws(istream &);
template istream &getline(istream &, string &);
template istream &operator>>(istream &, _Setfill<char>);
template istream &operator>>(istream &, _Setiosflags);
template istream &operator>>(istream &, _Resetiosflags);
template istream &operator>>(istream &, _Setbase);
template istream &operator>>(istream &, _Setprecision);
template istream &operator>>(istream &, _Setw);
template class basic_iostream<char>;
template class __cxx11::basic_istringstream<char>;
template class __cxx11::basic_stringstream<char>;

template class num_put<char>;
template class num_get<char>;
template class __cxx11::numpunct<char>;
template struct __numpunct_cache<char>;
template const ctype<char> &use_facet<ctype<char>>(const locale &);
template const __cxx11::numpunct<char> &use_facet<__cxx11::numpunct<char>>(const locale &);
template const num_put<char> &use_facet<num_put<char>>(const locale &);
template bool has_facet<ctype<char>>(const locale &);
template bool has_facet<__cxx11::numpunct<char>>(const locale &);
template bool has_facet<num_put<char>>(const locale &);
template bool has_facet<num_get<char>>(const locale &);
template const num_get<char> &use_facet<num_get<char>>(const locale &);
// collate<char>, which std::regex's traits use for ranges and equivalence
// classes; its C-locale comparison is in locale.cc.
template class __cxx11::collate<char>;
template const __cxx11::collate<char> &use_facet<__cxx11::collate<char>>(const locale &);
template bool has_facet<__cxx11::collate<char>>(const locale &);
// time_put<char> (std::put_time) over __timepunct<char> (locale.cc).
template class __timepunct<char>;
template class time_put<char>;
template const __timepunct<char> &use_facet<__timepunct<char>>(const locale &);
template bool has_facet<__timepunct<char>>(const locale &);
template const time_put<char> &use_facet<time_put<char>>(const locale &);
template bool has_facet<time_put<char>>(const locale &);

template class __cxx11::basic_stringbuf<char>;
template class __cxx11::basic_ostringstream<char>;

} // namespace std

template class __gnu_cxx::stdio_sync_filebuf<char>;

// The streams and their buffers. The race detector does not watch objects
// named _ZSt3cin, _ZSt4cout, _ZSt4cerr, _ZSt4clog or __augur_sync_*: the standard
// says concurrent use of the standard streams is not a data race
// ([iostream.objects.overview]), and libstdc++'s stdio_sync_filebuf makes
// it so through stdio's own locking, which augur models as one step.
using SyncBuf = __gnu_cxx::stdio_sync_filebuf<char>;
extern "C" {
alignas(std::ostream) char cout_storage[sizeof(std::ostream)] __asm__("_ZSt4cout");
alignas(std::ostream) char cerr_storage[sizeof(std::ostream)] __asm__("_ZSt4cerr");
alignas(std::ostream) char clog_storage[sizeof(std::ostream)] __asm__("_ZSt4clog");
alignas(std::istream) char cin_storage[sizeof(std::istream)] __asm__("_ZSt3cin");
alignas(SyncBuf) char in_buf_storage[sizeof(SyncBuf)] __asm__("__augur_sync_stdin_buf");
alignas(SyncBuf) char out_buf_storage[sizeof(SyncBuf)] __asm__("__augur_sync_stdout_buf");
alignas(SyncBuf) char err_buf_storage[sizeof(SyncBuf)] __asm__("__augur_sync_stderr_buf");
}

namespace {
std::ostream &stream(char *storage) { return *reinterpret_cast<std::ostream *>(storage); }
} // namespace

namespace std _GLIBCXX_VISIBILITY(default) {

_Atomic_word ios_base::Init::_S_refcount;
bool ios_base::Init::_S_synced_with_stdio = true;

// Every translation unit that includes <iostream> has a static Init; the
// first one constructs the streams, before main and so before any thread.
ios_base::Init::Init() {
	if (__atomic_fetch_add(&_S_refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	SyncBuf *in = new (in_buf_storage) SyncBuf(stdin);
	SyncBuf *out = new (out_buf_storage) SyncBuf(stdout);
	SyncBuf *err = new (err_buf_storage) SyncBuf(stderr);
	ostream *cout = new (cout_storage) ostream(out);
	ostream *cerr = new (cerr_storage) ostream(err);
	ostream *clog = new (clog_storage) ostream(err);
	istream *cin = new (cin_storage) istream(in);
	cin->tie(cout);
	cerr->setf(ios_base::unitbuf);
	cerr->tie(cout);
	clog->tie(cout);
	// Settle what the facets compute lazily now, while one thread runs:
	// the numeric punctuation cache and the fill character.
	__use_cache<__numpunct_cache<char>>()(cout->getloc());
	cout->fill();
	cerr->fill();
	clog->fill();
	cin->fill();
}

ios_base::Init::~Init() {
	if (__atomic_fetch_sub(&_S_refcount, 1, __ATOMIC_ACQ_REL) != 1)
		return;
	stream(cout_storage).flush();
	stream(cerr_storage).flush();
	stream(clog_storage).flush();
}

// The streams stay synchronized with stdio: they have no buffer of their
// own to make unsynchronized, and the output is the same either way.
bool ios_base::sync_with_stdio(bool sync) {
	bool was = Init::_S_synced_with_stdio;
	Init::_S_synced_with_stdio = sync;
	return was;
}

} // namespace std
