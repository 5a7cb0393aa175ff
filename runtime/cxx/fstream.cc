// File streams (ifstream, ofstream, fstream) for augur: the instantiations
// of basic_filebuf and the file streams over char that libstdc++.so would
// hold, the C library file under them (__basic_file<char>, libstdc++'s
// basic_file_stdio.cc), and the codecvt<char, char, mbstate_t> facet a
// filebuf asks its locale for, which converts nothing. The file itself is
// the interpreter's: open, read, write and lseek go to augur's virtual file
// system, as a C program's calls do. (Wide file streams are not provided.)
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <locale>
#include <sys/stat.h>
#include <unistd.h>

namespace std _GLIBCXX_VISIBILITY(default) {

// codecvt<char, char, mbstate_t>: no conversion (always_noconv), so a
// filebuf copies bytes between its buffer and the file.
locale::id codecvt<char, char, mbstate_t>::id;

codecvt<char, char, mbstate_t>::codecvt(size_t refs) : __codecvt_abstract_base(refs), _M_c_locale_codecvt(nullptr) {}
codecvt<char, char, mbstate_t>::codecvt(__c_locale, size_t refs)
    : __codecvt_abstract_base(refs), _M_c_locale_codecvt(nullptr) {}
codecvt<char, char, mbstate_t>::~codecvt() {}

codecvt_base::result codecvt<char, char, mbstate_t>::do_out(state_type &, const char *from, const char *,
                                                            const char *&from_next, char *to, char *,
                                                            char *&to_next) const {
	from_next = from;
	to_next = to;
	return noconv;
}

codecvt_base::result codecvt<char, char, mbstate_t>::do_unshift(state_type &, char *to, char *, char *&to_next) const {
	to_next = to;
	return noconv;
}

codecvt_base::result codecvt<char, char, mbstate_t>::do_in(state_type &, const char *from, const char *,
                                                           const char *&from_next, char *to, char *,
                                                           char *&to_next) const {
	from_next = from;
	to_next = to;
	return noconv;
}

int codecvt<char, char, mbstate_t>::do_encoding() const throw() { return 1; }
bool codecvt<char, char, mbstate_t>::do_always_noconv() const throw() { return true; }
int codecvt<char, char, mbstate_t>::do_length(state_type &, const char *from, const char *end, size_t max) const {
	size_t n = end - from;
	return int(n < max ? n : max);
}
int codecvt<char, char, mbstate_t>::do_max_length() const throw() { return 1; }

// __basic_file<char> is a C library FILE, used for its descriptor: the
// filebuf buffers, so reads and writes go straight to read and write.

// fopenMode is the fopen mode of an openmode, as libstdc++'s table has
// it, or nullptr for a combination the standard does not allow.
static const char *fopenMode(ios_base::openmode mode) {
	bool binary = mode & ios_base::binary;
	switch (int(mode & (ios_base::in | ios_base::out | ios_base::trunc | ios_base::app))) {
	case ios_base::in:
		return binary ? "rb" : "r";
	case ios_base::out:
	case ios_base::out | ios_base::trunc:
		return binary ? "wb" : "w";
	case ios_base::out | ios_base::app:
	case ios_base::app:
		return binary ? "ab" : "a";
	case ios_base::in | ios_base::out:
		return binary ? "r+b" : "r+";
	case ios_base::in | ios_base::out | ios_base::trunc:
		return binary ? "w+b" : "w+";
	case ios_base::in | ios_base::out | ios_base::app:
	case ios_base::in | ios_base::app:
		return binary ? "a+b" : "a+";
	}
	return nullptr;
}

__basic_file<char>::__basic_file(__c_lock *) throw() : _M_cfile(nullptr), _M_cfile_created(false) {}

__basic_file<char>::~__basic_file() { close(); }

__basic_file<char> *__basic_file<char>::open(const char *name, ios_base::openmode mode, int) {
	const char *m = fopenMode(mode);
	if (is_open() || m == nullptr)
		return nullptr;
	if ((_M_cfile = fopen(name, m)) == nullptr)
		return nullptr;
	_M_cfile_created = true;
	return this;
}

__basic_file<char> *__basic_file<char>::sys_open(__c_file *file, ios_base::openmode) {
	if (is_open() || file == nullptr)
		return nullptr;
	int saved = errno;
	fflush(file); // what stdio buffered goes out before the filebuf writes past it
	errno = saved;
	_M_cfile = file;
	_M_cfile_created = false;
	return this;
}

__basic_file<char> *__basic_file<char>::sys_open(int fd, ios_base::openmode mode) throw() {
	const char *m = fopenMode(mode);
	if (is_open() || m == nullptr || (_M_cfile = fdopen(fd, m)) == nullptr)
		return nullptr;
	_M_cfile_created = true;
	return this;
}

__basic_file<char> *__basic_file<char>::close() {
	if (!is_open())
		return nullptr;
	int r = 0;
	if (_M_cfile_created)
		r = fclose(_M_cfile);
	_M_cfile = nullptr;
	_M_cfile_created = false;
	return r == 0 ? this : nullptr;
}

bool __basic_file<char>::is_open() const throw() { return _M_cfile != nullptr; }
int __basic_file<char>::fd() throw() { return fileno(_M_cfile); }
__c_file *__basic_file<char>::file() throw() { return _M_cfile; }

streamsize __basic_file<char>::xsputn(const char *s, streamsize n) {
	streamsize done = 0;
	while (done < n) {
		ssize_t w = write(fd(), s + done, n - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		done += w;
	}
	return done;
}

streamsize __basic_file<char>::xsputn_2(const char *s1, streamsize n1, const char *s2, streamsize n2) {
	streamsize done = xsputn(s1, n1);
	if (done == n1)
		done += xsputn(s2, n2);
	return done;
}

streamsize __basic_file<char>::xsgetn(char *s, streamsize n) {
	ssize_t r;
	do
		r = read(fd(), s, n);
	while (r < 0 && errno == EINTR);
	return r;
}

streamoff __basic_file<char>::seekoff(streamoff off, ios_base::seekdir way) throw() {
	if (way != ios_base::beg && way != ios_base::cur && way != ios_base::end)
		return -1;
	return lseek(fd(), off, way == ios_base::beg ? SEEK_SET : way == ios_base::cur ? SEEK_CUR : SEEK_END);
}

int __basic_file<char>::sync() { return fflush(_M_cfile); }

// showmanyc is how many bytes a read can surely have: what is left of a
// regular file, nothing known of anything else.
streamsize __basic_file<char>::showmanyc() {
	struct stat st;
	if (fstat(fd(), &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = lseek(fd(), 0, SEEK_CUR);
		if (at >= 0 && st.st_size > at)
			return st.st_size - at;
	}
	return 0;
}

template bool has_facet<codecvt<char, char, mbstate_t>>(const locale &);
template const codecvt<char, char, mbstate_t> &use_facet<codecvt<char, char, mbstate_t>>(const locale &);

template class basic_filebuf<char>;
template class basic_ifstream<char>;
template class basic_ofstream<char>;
template class basic_fstream<char>;

} // namespace std
