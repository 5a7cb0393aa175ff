// std::filesystem's directory iterators over opendir and readdir. An
// iterator's state is a _Dir (one open directory and its current entry),
// which the headers only declare; a recursive iterator keeps a stack of
// them. Entries come in readdir's order, without "." and "..".
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <filesystem>
#include <vector>

namespace std _GLIBCXX_VISIBILITY(default) {
namespace filesystem {
_GLIBCXX_BEGIN_NAMESPACE_CXX11

struct _Dir {
	DIR *dirp = nullptr;
	path dir;
	directory_entry entry;

	_Dir(DIR *d, const path &p) : dirp(d), dir(p) {}
	_Dir(_Dir &&o) noexcept : dirp(o.dirp), dir(std::move(o.dir)), entry(std::move(o.entry)) { o.dirp = nullptr; }
	_Dir(const _Dir &) = delete;
	~_Dir() {
		if (dirp != nullptr)
			::closedir(dirp);
	}

	// advance moves to the next entry; false at the end or on an error,
	// which it sets.
	bool advance(error_code &ec) {
		ec.clear();
		for (;;) {
			errno = 0;
			struct dirent *e = ::readdir(dirp);
			if (e == nullptr) {
				if (errno != 0)
					ec.assign(errno, std::generic_category());
				entry = directory_entry();
				return false;
			}
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			entry._M_path = dir / e->d_name;
			entry._M_type = typeOf(e->d_type);
			return true;
		}
	}

	static file_type typeOf(unsigned char t) {
		switch (t) {
		case DT_REG:
			return file_type::regular;
		case DT_DIR:
			return file_type::directory;
		case DT_LNK:
			return file_type::symlink;
		case DT_FIFO:
			return file_type::fifo;
		case DT_SOCK:
			return file_type::socket;
		case DT_CHR:
			return file_type::character;
		case DT_BLK:
			return file_type::block;
		default:
			return file_type::none; // unknown: the entry asks stat when it must
		}
	}
};

namespace {
// openDir opens p for an iterator: null with ec set on an error, or with
// ec clear when permission is denied and the options skip such directories.
DIR *openDir(const path &p, directory_options opts, error_code &ec) {
	DIR *d = ::opendir(p.c_str());
	if (d != nullptr) {
		ec.clear();
		return d;
	}
	if (errno == EACCES && (opts & directory_options::skip_permission_denied) != directory_options::none)
		ec.clear();
	else
		ec.assign(errno, std::generic_category());
	return nullptr;
}
} // namespace

directory_iterator::directory_iterator(const path &p, directory_options opts, error_code *ecptr) {
	error_code ec;
	if (DIR *d = openDir(p, opts, ec)) {
		auto dir = std::__make_shared<_Dir>(d, p);
		if (dir->advance(ec))
			_M_dir = std::move(dir);
	}
	if (ecptr != nullptr)
		*ecptr = ec;
	else if (ec)
		_GLIBCXX_THROW_OR_ABORT(filesystem_error("directory iterator cannot open directory", p, ec));
}

const directory_entry &directory_iterator::operator*() const noexcept { return _M_dir->entry; }

directory_iterator &directory_iterator::increment(error_code &ec) {
	if (!_M_dir) {
		ec = make_error_code(errc::invalid_argument);
		return *this;
	}
	if (!_M_dir->advance(ec))
		_M_dir.reset();
	return *this;
}

directory_iterator &directory_iterator::operator++() {
	error_code ec;
	increment(ec);
	if (ec)
		_GLIBCXX_THROW_OR_ABORT(filesystem_error("cannot advance directory iterator", ec));
	return *this;
}

struct recursive_directory_iterator::_Dir_stack {
	vector<_Dir> dirs;
	directory_options options;
	bool pending = true;
};

recursive_directory_iterator::recursive_directory_iterator(const path &p, directory_options opts, error_code *ecptr) {
	error_code ec;
	if (DIR *d = openDir(p, opts, ec)) {
		auto st = std::__make_shared<_Dir_stack>();
		st->options = opts;
		st->dirs.emplace_back(d, p);
		if (st->dirs.back().advance(ec))
			_M_dirs = std::move(st);
	}
	if (ecptr != nullptr)
		*ecptr = ec;
	else if (ec)
		_GLIBCXX_THROW_OR_ABORT(filesystem_error("recursive directory iterator cannot open directory", p, ec));
}

recursive_directory_iterator::~recursive_directory_iterator() = default;

recursive_directory_iterator &recursive_directory_iterator::operator=(const recursive_directory_iterator &o) noexcept {
	_M_dirs = o._M_dirs;
	return *this;
}
recursive_directory_iterator &recursive_directory_iterator::operator=(recursive_directory_iterator &&o) noexcept {
	_M_dirs = std::move(o._M_dirs);
	return *this;
}

directory_options recursive_directory_iterator::options() const noexcept { return _M_dirs->options; }
int recursive_directory_iterator::depth() const noexcept { return int(_M_dirs->dirs.size()) - 1; }
bool recursive_directory_iterator::recursion_pending() const noexcept { return _M_dirs->pending; }
void recursive_directory_iterator::disable_recursion_pending() noexcept { _M_dirs->pending = false; }
const directory_entry &recursive_directory_iterator::operator*() const noexcept { return _M_dirs->dirs.back().entry; }

// increment descends into the current entry when it is a directory (not a
// link to one unless the options follow links) and recursion is pending,
// then moves to the next entry, climbing out of directories at their end.
recursive_directory_iterator &recursive_directory_iterator::increment(error_code &ec) {
	if (!_M_dirs) {
		ec = make_error_code(errc::invalid_argument);
		return *this;
	}
	_Dir_stack &st = *_M_dirs;
	ec.clear();
	const directory_entry &cur = st.dirs.back().entry;
	bool follow = (st.options & directory_options::follow_directory_symlink) != directory_options::none;
	error_code tec;
	bool descend = st.pending && (follow ? cur.is_directory(tec) : cur.symlink_status(tec).type() == file_type::directory);
	st.pending = true;
	if (descend) {
		path sub = cur.path(); // cur is in the stack, which the push may move
		if (DIR *d = openDir(sub, st.options, ec)) {
			st.dirs.emplace_back(d, sub);
			if (st.dirs.back().advance(ec))
				return *this;
			if (ec) {
				_M_dirs.reset();
				return *this;
			}
			st.dirs.pop_back();
		} else if (ec) {
			_M_dirs.reset();
			return *this;
		}
	}
	while (!st.dirs.back().advance(ec)) {
		if (ec) {
			_M_dirs.reset();
			return *this;
		}
		st.dirs.pop_back();
		if (st.dirs.empty()) {
			_M_dirs.reset();
			return *this;
		}
	}
	return *this;
}

recursive_directory_iterator &recursive_directory_iterator::operator++() {
	error_code ec;
	increment(ec);
	if (ec)
		_GLIBCXX_THROW_OR_ABORT(filesystem_error("cannot increment recursive directory iterator", ec));
	return *this;
}

void recursive_directory_iterator::pop(error_code &ec) {
	if (!_M_dirs) {
		ec = make_error_code(errc::invalid_argument);
		return;
	}
	_Dir_stack &st = *_M_dirs;
	ec.clear();
	st.pending = true;
	for (;;) {
		st.dirs.pop_back();
		if (st.dirs.empty()) {
			_M_dirs.reset();
			return;
		}
		if (st.dirs.back().advance(ec))
			return;
		if (ec) {
			_M_dirs.reset();
			return;
		}
	}
}

void recursive_directory_iterator::pop() {
	error_code ec;
	pop(ec);
	if (ec)
		_GLIBCXX_THROW_OR_ABORT(filesystem_error("cannot pop recursive directory iterator", ec));
}

_GLIBCXX_END_NAMESPACE_CXX11

} // namespace filesystem

// The library's instantiations the headers declare extern.
template class __shared_ptr<filesystem::_Dir>;
template class __shared_ptr<filesystem::recursive_directory_iterator::_Dir_stack>;
} // namespace std
