// std::filesystem's operations, its error type and its directory
// iterators, over the POSIX calls augur's C library serves from the
// virtual file system. Each operation has two forms, as the standard
// says: one sets an error_code, the other throws filesystem_error with the
// message libstdc++'s gives. The link operations are symlink, readlink,
// link and lstat on augur's file system, which has symbolic and hard
// links (docs/libc.md).
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <vector>

namespace std _GLIBCXX_VISIBILITY(default) {
namespace filesystem {

namespace {
error_code lastError() { return error_code(errno, std::generic_category()); }

// setError sets ec from a POSIX call's result: errno when it failed,
// clear when it succeeded.
void setError(int rc, error_code &ec) {
	if (rc != 0)
		ec = lastError();
	else
		ec.clear();
}

file_type typeOf(mode_t m) {
	if (S_ISREG(m))
		return file_type::regular;
	if (S_ISDIR(m))
		return file_type::directory;
	if (S_ISLNK(m))
		return file_type::symlink;
	if (S_ISCHR(m))
		return file_type::character;
	if (S_ISBLK(m))
		return file_type::block;
	if (S_ISFIFO(m))
		return file_type::fifo;
	if (S_ISSOCK(m))
		return file_type::socket;
	return file_type::unknown;
}

// statusOf is status or symlink_status: not_found (with the error set) for
// a path that names nothing, as libstdc++ does.
file_status statusOf(const path &p, error_code &ec, bool follow) {
	struct stat st;
	int r = follow ? ::stat(p.c_str(), &st) : ::lstat(p.c_str(), &st);
	if (r != 0) {
		ec = lastError();
		if (errno == ENOENT || errno == ENOTDIR)
			return file_status(file_type::not_found);
		return file_status(file_type::none);
	}
	ec.clear();
	return file_status(typeOf(st.st_mode), perms(st.st_mode & 07777));
}

// fail throws filesystem_error for the throwing forms (orThrow).
[[noreturn]] void fail(const char *what, const error_code &ec) { _GLIBCXX_THROW_OR_ABORT(filesystem_error(what, ec)); }
[[noreturn]] void fail(const char *what, const path &p, const error_code &ec) {
	_GLIBCXX_THROW_OR_ABORT(filesystem_error(what, p, ec));
}
[[noreturn]] void fail(const char *what, const path &p1, const path &p2, const error_code &ec) {
	_GLIBCXX_THROW_OR_ABORT(filesystem_error(what, p1, p2, ec));
}

// orThrow is an operation's throwing form: it runs op, the error_code
// form, and throws filesystem_error with what and the paths when op set
// an error.
template <class F, class... Paths> auto orThrow(F op, const char *what, const Paths &...paths) {
	error_code ec;
	if constexpr (is_void_v<decltype(op(ec))>) {
		op(ec);
		if (ec)
			fail(what, paths..., ec);
	} else {
		auto r = op(ec);
		if (ec)
			fail(what, paths..., ec);
		return r;
	}
}

// copyContents copies from's bytes over to, which it creates or truncates,
// with sendfile, as libstdc++ does.
bool copyContents(const path &from, const path &to, error_code &ec) {
	int in = ::open(from.c_str(), O_RDONLY);
	if (in < 0) {
		ec = lastError();
		return false;
	}
	struct stat st;
	mode_t mode = ::fstat(in, &st) == 0 ? st.st_mode & 07777 : 0644;
	int out = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (out < 0) {
		ec = lastError();
		::close(in);
		return false;
	}
	ssize_t n;
	while ((n = ::sendfile(out, in, nullptr, size_t(1) << 30)) > 0) {
	}
	setError(n < 0 ? -1 : 0, ec);
	::close(in);
	::close(out);
	return n == 0;
}
} // namespace

// The file clock's epoch is 6437664000 seconds after the system clock's
// (libstdc++'s __file_clock::_S_epoch_diff): a file time is the system
// time less that.
static const chrono::seconds fileEpochDiff{6437664000};

_GLIBCXX_BEGIN_NAMESPACE_CXX11

struct filesystem_error::_Impl {
	path path1, path2;
	string what;
};

// what() is "filesystem error: " and system_error's message, then each
// path in brackets, as libstdc++ writes it.
// A template, so that the constructors name the private _Impl.
template <class Impl> static shared_ptr<const Impl> errorImpl(const char *sysWhat, const path *p1, const path *p2) {
	auto im = make_shared<Impl>();
	im->what = string("filesystem error: ") + sysWhat;
	if (p1 != nullptr) {
		im->path1 = *p1;
		im->what += " [" + p1->native() + "]";
	}
	if (p2 != nullptr) {
		im->path2 = *p2;
		im->what += " [" + p2->native() + "]";
	}
	return im;
}

filesystem_error::filesystem_error(const string &what, error_code ec) : system_error(ec, what) {
	_M_impl = errorImpl<_Impl>(system_error::what(), nullptr, nullptr);
}
filesystem_error::filesystem_error(const string &what, const path &p1, error_code ec) : system_error(ec, what) {
	_M_impl = errorImpl<_Impl>(system_error::what(), &p1, nullptr);
}
filesystem_error::filesystem_error(const string &what, const path &p1, const path &p2, error_code ec)
	: system_error(ec, what) {
	_M_impl = errorImpl<_Impl>(system_error::what(), &p1, &p2);
}
filesystem_error::~filesystem_error() = default;
const path &filesystem_error::path1() const noexcept { return _M_impl->path1; }
const path &filesystem_error::path2() const noexcept { return _M_impl->path2; }
const char *filesystem_error::what() const noexcept { return _M_impl->what.c_str(); }

_GLIBCXX_END_NAMESPACE_CXX11

file_status status(const path &p, error_code &ec) noexcept { return statusOf(p, ec, true); }
file_status status(const path &p) {
	error_code ec;
	file_status s = status(p, ec);
	if (s.type() == file_type::none)
		fail("status", p, ec);
	return s;
}
file_status symlink_status(const path &p, error_code &ec) noexcept { return statusOf(p, ec, false); }
file_status symlink_status(const path &p) {
	error_code ec;
	file_status s = symlink_status(p, ec);
	if (s.type() == file_type::none)
		fail("symlink_status", p, ec);
	return s;
}

uintmax_t file_size(const path &p, error_code &ec) noexcept {
	struct stat st;
	if (::stat(p.c_str(), &st) != 0) {
		ec = lastError();
		return uintmax_t(-1);
	}
	if (S_ISDIR(st.st_mode)) {
		ec = make_error_code(errc::is_a_directory);
		return uintmax_t(-1);
	}
	if (!S_ISREG(st.st_mode)) {
		ec = make_error_code(errc::not_supported);
		return uintmax_t(-1);
	}
	ec.clear();
	return uintmax_t(st.st_size);
}
uintmax_t file_size(const path &p) {
	return orThrow([&](error_code &ec) { return file_size(p, ec); }, "cannot get file size", p);
}

uintmax_t hard_link_count(const path &p, error_code &ec) noexcept {
	struct stat st;
	if (::stat(p.c_str(), &st) != 0) {
		ec = lastError();
		return uintmax_t(-1);
	}
	ec.clear();
	return uintmax_t(st.st_nlink);
}
uintmax_t hard_link_count(const path &p) {
	return orThrow([&](error_code &ec) { return hard_link_count(p, ec); }, "cannot get link count", p);
}

bool is_empty(const path &p, error_code &ec) {
	file_status s = status(p, ec);
	if (ec)
		return false;
	if (is_directory(s)) {
		DIR *d = ::opendir(p.c_str());
		if (d == nullptr) {
			ec = lastError();
			return false;
		}
		bool empty = true;
		while (struct dirent *e = ::readdir(d))
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
				empty = false;
				break;
			}
		::closedir(d);
		return empty;
	}
	uintmax_t n = file_size(p, ec);
	return !ec && n == 0;
}
bool is_empty(const path &p) {
	return orThrow([&](error_code &ec) { return is_empty(p, ec); }, "cannot check if file is empty", p);
}

file_time_type last_write_time(const path &p, error_code &ec) noexcept {
	struct stat st;
	if (::stat(p.c_str(), &st) != 0) {
		ec = lastError();
		return file_time_type::min();
	}
	ec.clear();
	auto since = chrono::seconds(st.st_mtim.tv_sec) + chrono::nanoseconds(st.st_mtim.tv_nsec);
	return file_time_type(chrono::duration_cast<file_time_type::duration>(since - fileEpochDiff));
}
file_time_type last_write_time(const path &p) {
	return orThrow([&](error_code &ec) { return last_write_time(p, ec); }, "cannot get file time", p);
}
void last_write_time(const path &p, file_time_type t, error_code &ec) noexcept {
	auto ns = chrono::duration_cast<chrono::nanoseconds>(t.time_since_epoch() + fileEpochDiff).count();
	struct timespec times[2] = {{0, UTIME_OMIT}, {time_t(ns / 1000000000), long(ns % 1000000000)}};
	if (times[1].tv_nsec < 0) {
		times[1].tv_sec--;
		times[1].tv_nsec += 1000000000;
	}
	setError(::utimensat(AT_FDCWD, p.c_str(), times, 0), ec);
}
void last_write_time(const path &p, file_time_type t) {
	orThrow([&](error_code &ec) { last_write_time(p, t, ec); }, "cannot set file time", p);
}

void permissions(const path &p, perms prms, perm_options opts, error_code &ec) noexcept {
	bool add = (opts & perm_options::add) != perm_options{}, remove = (opts & perm_options::remove) != perm_options{};
	prms &= perms::mask;
	file_status s = status(p, ec);
	if (ec)
		return;
	perms cur = s.permissions();
	if (add)
		prms = cur | prms;
	else if (remove)
		prms = cur & ~prms;
	setError(::chmod(p.c_str(), mode_t(prms)), ec);
}
void permissions(const path &p, perms prms, perm_options opts) {
	orThrow([&](error_code &ec) { permissions(p, prms, opts, ec); }, "cannot set permissions", p);
}

bool create_directory(const path &p, error_code &ec) noexcept {
	if (::mkdir(p.c_str(), 0777) == 0) {
		ec.clear();
		return true;
	}
	int err = errno;
	if (err == EEXIST && is_directory(status(p, ec))) {
		ec.clear();
		return false;
	}
	ec.assign(err, std::generic_category());
	return false;
}
bool create_directory(const path &p) {
	return orThrow([&](error_code &ec) { return create_directory(p, ec); }, "cannot create directory", p);
}
bool create_directory(const path &p, const path &, error_code &ec) noexcept { return create_directory(p, ec); }
bool create_directory(const path &p, const path &attributes) {
	return orThrow([&](error_code &ec) { return create_directory(p, attributes, ec); }, "cannot create directory", p);
}

// create_directories makes each missing directory along p, the outermost
// first, and says whether it made the last.
bool create_directories(const path &p, error_code &ec) {
	if (p.empty()) {
		ec = make_error_code(errc::invalid_argument);
		return false;
	}
	file_status s = status(p, ec);
	if (is_directory(s)) {
		ec.clear();
		return false;
	}
	if (exists(s)) {
		ec = make_error_code(errc::not_a_directory);
		return false;
	}
	vector<path> missing;
	for (path q = p.lexically_normal(); !q.empty(); q = q.parent_path()) {
		if (q.filename().empty() || q.filename() == "." || q.filename() == "..") {
			if (q == q.parent_path())
				break;
			continue;
		}
		if (is_directory(status(q, ec)))
			break;
		missing.push_back(q);
		if (q == q.parent_path())
			break;
	}
	bool made = false;
	for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
		made = create_directory(*it, ec);
		if (ec)
			return false;
	}
	return made;
}
bool create_directories(const path &p) {
	return orThrow([&](error_code &ec) { return create_directories(p, ec); }, "cannot create directories", p);
}

void create_symlink(const path &to, const path &link, error_code &ec) noexcept {
	setError(::symlink(to.c_str(), link.c_str()), ec);
}
void create_symlink(const path &to, const path &link) {
	orThrow([&](error_code &ec) { create_symlink(to, link, ec); }, "cannot create symlink", to, link);
}
void create_directory_symlink(const path &to, const path &link, error_code &ec) noexcept { create_symlink(to, link, ec); }
void create_directory_symlink(const path &to, const path &link) {
	orThrow([&](error_code &ec) { create_directory_symlink(to, link, ec); }, "cannot create directory symlink", to, link);
}
void create_hard_link(const path &to, const path &link, error_code &ec) noexcept {
	setError(::link(to.c_str(), link.c_str()), ec);
}
void create_hard_link(const path &to, const path &link) {
	orThrow([&](error_code &ec) { create_hard_link(to, link, ec); }, "cannot create hard link", to, link);
}

path read_symlink(const path &p, error_code &ec) {
	char buf[4096];
	ssize_t n = ::readlink(p.c_str(), buf, sizeof buf);
	if (n < 0) {
		ec = lastError();
		return path();
	}
	ec.clear();
	return path(string(buf, size_t(n)));
}
path read_symlink(const path &p) {
	return orThrow([&](error_code &ec) { return read_symlink(p, ec); }, "read_symlink", p);
}
void copy_symlink(const path &from, const path &to, error_code &ec) noexcept {
	path target = read_symlink(from, ec);
	if (!ec)
		create_symlink(target, to, ec);
}
void copy_symlink(const path &from, const path &to) {
	orThrow([&](error_code &ec) { copy_symlink(from, to, ec); }, "cannot copy symlink", from, to);
}

path current_path(error_code &ec) {
	char buf[4096];
	if (::getcwd(buf, sizeof buf) == nullptr) {
		ec = lastError();
		return path();
	}
	ec.clear();
	return path(buf);
}
path current_path() {
	return orThrow([&](error_code &ec) { return current_path(ec); }, "cannot get current path");
}
void current_path(const path &p, error_code &ec) noexcept {
	setError(::chdir(p.c_str()), ec);
}
void current_path(const path &p) {
	orThrow([&](error_code &ec) { current_path(p, ec); }, "cannot set current path");
}

path temp_directory_path(error_code &ec) {
	const char *dir = nullptr;
	for (const char *var : {"TMPDIR", "TMP", "TEMP", "TEMPDIR"})
		if ((dir = ::getenv(var)) != nullptr)
			break;
	path p(dir != nullptr ? dir : "/tmp");
	file_status s = status(p, ec);
	if (ec)
		return path();
	if (!is_directory(s)) {
		ec = make_error_code(errc::not_a_directory);
		return path();
	}
	return p;
}
path temp_directory_path() {
	error_code ec;
	path r = temp_directory_path(ec);
	if (ec)
		fail("temp_directory_path", r, ec);
	return r;
}

path absolute(const path &p, error_code &ec) {
	ec.clear();
	if (p.empty()) {
		ec = make_error_code(errc::invalid_argument);
		return path();
	}
	if (p.is_absolute())
		return p;
	path cwd = current_path(ec);
	return ec ? path() : cwd / p;
}
path absolute(const path &p) {
	return orThrow([&](error_code &ec) { return absolute(p, ec); }, "cannot make absolute path", p);
}

path canonical(const path &p, error_code &ec) {
	path abs = absolute(p, ec);
	if (ec)
		return path();
	char buf[PATH_MAX];
	if (::realpath(abs.c_str(), buf) == nullptr) {
		ec = lastError();
		return path();
	}
	ec.clear();
	return path(buf);
}
path canonical(const path &p) {
	return orThrow([&](error_code &ec) { return canonical(p, ec); }, "cannot make canonical path", p);
}

// weakly_canonical is canonical of the longest leading part of p that
// exists, with the rest appended and the whole made lexically normal.
path weakly_canonical(const path &p, error_code &ec) {
	path head, tail;
	auto it = p.begin(), end = p.end();
	for (; it != end; ++it) {
		path next = head / *it;
		if (!exists(status(next, ec)))
			break;
		head = next;
	}
	ec.clear();
	if (!head.empty()) {
		head = canonical(head, ec);
		if (ec)
			return path();
	}
	if (it == end)
		return head;
	for (; it != end; ++it)
		tail /= *it;
	return (head / tail).lexically_normal();
}
path weakly_canonical(const path &p) {
	return orThrow([&](error_code &ec) { return weakly_canonical(p, ec); }, "cannot make canonical path", p);
}

// bothCanonical makes p and base weakly canonical, for relative and
// proximate; false with ec set when either cannot be.
static bool bothCanonical(const path &p, const path &base, path &a, path &b, error_code &ec) {
	a = weakly_canonical(p, ec);
	if (!ec)
		b = weakly_canonical(base, ec);
	return !ec;
}

path relative(const path &p, const path &base, error_code &ec) {
	path a, b;
	return bothCanonical(p, base, a, b, ec) ? a.lexically_relative(b) : path();
}
path relative(const path &p, const path &base) {
	return orThrow([&](error_code &ec) { return relative(p, base, ec); }, "cannot get relative path", p, base);
}
path proximate(const path &p, const path &base, error_code &ec) {
	path a, b;
	return bothCanonical(p, base, a, b, ec) ? a.lexically_proximate(b) : path();
}
path proximate(const path &p, const path &base) {
	return orThrow([&](error_code &ec) { return proximate(p, base, ec); }, "cannot get relative path", p, base);
}

bool equivalent(const path &p1, const path &p2, error_code &ec) noexcept {
	struct stat a, b;
	int ra = ::stat(p1.c_str(), &a), ea = errno;
	int rb = ::stat(p2.c_str(), &b), eb = errno;
	if (ra != 0 && rb != 0) {
		ec.assign(ea != ENOENT ? ea : eb, std::generic_category());
		return false;
	}
	if (ra != 0 || rb != 0) {
		ec.clear();
		return false;
	}
	ec.clear();
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}
bool equivalent(const path &p1, const path &p2) {
	return orThrow([&](error_code &ec) { return equivalent(p1, p2, ec); }, "cannot check file equivalence", p1, p2);
}

bool remove(const path &p, error_code &ec) noexcept {
	if (::remove(p.c_str()) == 0) {
		ec.clear();
		return true;
	}
	if (errno == ENOENT) {
		ec.clear();
		return false;
	}
	ec = lastError();
	return false;
}
bool remove(const path &p) {
	return orThrow([&](error_code &ec) { return remove(p, ec); }, "cannot remove", p);
}

// removeTree removes p and what it holds, counting what it removed.
static uintmax_t removeTree(const path &p, error_code &ec) {
	file_status s = symlink_status(p, ec);
	if (s.type() == file_type::not_found) {
		ec.clear();
		return 0;
	}
	if (ec)
		return uintmax_t(-1);
	uintmax_t n = 0;
	if (s.type() == file_type::directory) {
		vector<path> children;
		DIR *d = ::opendir(p.c_str());
		if (d == nullptr) {
			ec = lastError();
			return uintmax_t(-1);
		}
		while (struct dirent *e = ::readdir(d))
			if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
				children.push_back(p / e->d_name);
		::closedir(d);
		for (const path &c : children) {
			uintmax_t k = removeTree(c, ec);
			if (ec)
				return uintmax_t(-1);
			n += k;
		}
	}
	if (!remove(p, ec))
		return ec ? uintmax_t(-1) : n;
	return n + 1;
}
uintmax_t remove_all(const path &p, error_code &ec) { return removeTree(p, ec); }
uintmax_t remove_all(const path &p) {
	return orThrow([&](error_code &ec) { return remove_all(p, ec); }, "cannot remove all", p);
}

void rename(const path &from, const path &to, error_code &ec) noexcept {
	setError(::rename(from.c_str(), to.c_str()), ec);
}
void rename(const path &from, const path &to) {
	orThrow([&](error_code &ec) { rename(from, to, ec); }, "cannot rename", from, to);
}

void resize_file(const path &p, uintmax_t size, error_code &ec) noexcept {
	if (size > uintmax_t(INTMAX_MAX)) {
		ec = make_error_code(errc::invalid_argument);
		return;
	}
	setError(::truncate(p.c_str(), off_t(size)), ec);
}
void resize_file(const path &p, uintmax_t size) {
	orThrow([&](error_code &ec) { resize_file(p, size, ec); }, "cannot resize file", p);
}

space_info space(const path &p, error_code &ec) noexcept {
	space_info info = {uintmax_t(-1), uintmax_t(-1), uintmax_t(-1)};
	struct statvfs f;
	if (::statvfs(p.c_str(), &f) != 0) {
		ec = lastError();
		return info;
	}
	ec.clear();
	info.capacity = uintmax_t(f.f_blocks) * f.f_frsize;
	info.free = uintmax_t(f.f_bfree) * f.f_frsize;
	info.available = uintmax_t(f.f_bavail) * f.f_frsize;
	return info;
}
space_info space(const path &p) {
	return orThrow([&](error_code &ec) { return space(p, ec); }, "cannot get free space", p);
}

// copy_file copies a regular file; an existing destination is an error
// unless the options say to skip it, overwrite it, or overwrite it when
// older.
bool copy_file(const path &from, const path &to, copy_options opts, error_code &ec) {
	struct stat fs, ts;
	if (::stat(from.c_str(), &fs) != 0) {
		ec = lastError();
		return false;
	}
	if (!S_ISREG(fs.st_mode)) {
		ec = make_error_code(errc::not_supported);
		return false;
	}
	if (::stat(to.c_str(), &ts) == 0) {
		if (!S_ISREG(ts.st_mode) || (fs.st_dev == ts.st_dev && fs.st_ino == ts.st_ino)) {
			ec = make_error_code(errc::file_exists);
			return false;
		}
		auto has = [opts](copy_options o) { return (opts & o) != copy_options::none; };
		if (has(copy_options::skip_existing)) {
			ec.clear();
			return false;
		}
		if (has(copy_options::update_existing)) {
			bool newer = fs.st_mtim.tv_sec > ts.st_mtim.tv_sec ||
				(fs.st_mtim.tv_sec == ts.st_mtim.tv_sec && fs.st_mtim.tv_nsec > ts.st_mtim.tv_nsec);
			if (!newer) {
				ec.clear();
				return false;
			}
		} else if (!has(copy_options::overwrite_existing)) {
			ec = make_error_code(errc::file_exists);
			return false;
		}
	}
	return copyContents(from, to, ec);
}
bool copy_file(const path &from, const path &to, copy_options opts) {
	return orThrow([&](error_code &ec) { return copy_file(from, to, opts, ec); }, "cannot copy file", from, to);
}

// copy copies a file, or a directory's entries (and, recursively, its
// subdirectories' when the options say so).
void copy(const path &from, const path &to, copy_options opts, error_code &ec) {
	auto has = [opts](copy_options o) { return (opts & o) != copy_options::none; };
	file_status f = status(from, ec);
	if (!exists(f)) {
		if (!ec)
			ec = make_error_code(errc::no_such_file_or_directory);
		return;
	}
	error_code tec;
	file_status t = status(to, tec);
	if (exists(t) && equivalent(from, to, tec)) {
		ec = make_error_code(errc::file_exists);
		return;
	}
	if (is_regular_file(f)) {
		if (has(copy_options::directories_only)) {
			ec.clear();
			return;
		}
		if (is_directory(t))
			copy_file(from, to / from.filename(), opts, ec);
		else
			copy_file(from, to, opts, ec);
		return;
	}
	if (is_directory(f)) {
		if (exists(t) && !is_directory(t)) {
			ec = make_error_code(errc::is_a_directory);
			return;
		}
		// The top call with no options copies one level: 0x8000 marks the
		// calls beneath it, as the standard's unspecified flag.
		const copy_options inner = copy_options(0x8000);
		if (!has(copy_options::recursive) && opts != copy_options::none) {
			ec.clear();
			return;
		}
		if (!exists(t) && !create_directory(to, ec) && ec)
			return;
		error_code dec;
		for (directory_iterator it(from, dec), end; !dec && it != end; it.increment(dec)) {
			copy(it->path(), to / it->path().filename(), opts | inner, ec);
			if (ec)
				return;
		}
		ec = dec;
		return;
	}
	ec = make_error_code(errc::not_supported);
}
void copy(const path &from, const path &to, copy_options opts) {
	orThrow([&](error_code &ec) { copy(from, to, opts, ec); }, "cannot copy", from, to);
}

} // namespace filesystem

// The library's instantiation the headers declare extern.
template class __shared_ptr<const filesystem::filesystem_error::_Impl>;
} // namespace std
