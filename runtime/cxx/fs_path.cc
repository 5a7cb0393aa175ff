// std::filesystem::path's members that libstdc++'s headers declare and its
// library defines: the split of a pathname into components, the
// decompositions, appending, comparison and the lexical operations. Written
// for POSIX paths (no root names; the root directory is the leading run of
// slashes), after the standard's rules.
//
// The component list is this file's own: _List::_M_impl points at an _Impl
// (a count and the components after it) for a path of several components,
// and otherwise holds only the path's type in its low two bits, which the
// headers' inline type() reads.
#include <cstdint>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

namespace std _GLIBCXX_VISIBILITY(default) {
namespace filesystem {
_GLIBCXX_BEGIN_NAMESPACE_CXX11

struct path::_List::_Impl {
	int size;
	int capacity;
	_Cmpt *cmpts() { return reinterpret_cast<_Cmpt *>(this + 1); }
};

// The helpers below are templates so that they take path's private types
// from their callers, the members, which may name them.
namespace {
// implOf is the list's _Impl without the type bits: null for a path that
// is not a list.
template <class Ptr> typename Ptr::pointer implOf(const Ptr &p) {
	return reinterpret_cast<typename Ptr::pointer>(reinterpret_cast<uintptr_t>(p.get()) & ~uintptr_t(3));
}

// newImpl allocates an empty list with room for capacity components,
// which follow the header (its size keeps them aligned).
template <class Impl, class Cmpt> Impl *newImpl(int capacity) {
	static_assert(sizeof(Impl) % alignof(Cmpt) == 0, "components follow the header aligned");
	void *mem = ::operator new(sizeof(Impl) + sizeof(Cmpt) * size_t(capacity));
	Impl *im = static_cast<Impl *>(mem);
	im->size = 0;
	im->capacity = capacity;
	return im;
}

bool isSep(char c) { return c == '/'; }
} // namespace

void path::_List::_Impl_deleter::operator()(_Impl *p) const noexcept {
	_Impl *im = reinterpret_cast<_Impl *>(reinterpret_cast<uintptr_t>(p) & ~uintptr_t(3));
	if (im == nullptr)
		return;
	for (int i = 0; i < im->size; i++)
		im->cmpts()[i].~_Cmpt();
	::operator delete(im);
}

// An empty path is a filename, as libstdc++'s is.
path::_List::_List() : _M_impl(reinterpret_cast<_Impl *>(uintptr_t(_Type::_Filename))) {}

path::_List::_List(const _List &other) {
	_Impl *src = implOf(other._M_impl);
	if (src == nullptr) {
		_M_impl.reset(reinterpret_cast<_Impl *>(uintptr_t(other.type())));
		return;
	}
	_Impl *im = newImpl<_Impl, _Cmpt>(src->size);
	for (int i = 0; i < src->size; i++) {
		new (&im->cmpts()[i]) _Cmpt(src->cmpts()[i]);
		im->size = i + 1;
	}
	_M_impl.reset(im);
}

path::_List &path::_List::operator=(const _List &other) {
	if (this != &other) {
		_List copy(other);
		swap(copy);
	}
	return *this;
}

void path::_List::type(_Type t) noexcept { _M_impl.reset(reinterpret_cast<_Impl *>(uintptr_t(t))); }

int path::_List::size() const noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->size : 0;
}

bool path::_List::empty() const noexcept { return size() == 0; }

void path::_List::clear() { _M_impl.reset(); }

int path::_List::capacity() const noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->capacity : 0;
}

path::_List::iterator path::_List::begin() noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->cmpts() : nullptr;
}
path::_List::iterator path::_List::end() noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->cmpts() + im->size : nullptr;
}
path::_List::const_iterator path::_List::begin() const noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->cmpts() : nullptr;
}
path::_List::const_iterator path::_List::end() const noexcept {
	_Impl *im = implOf(_M_impl);
	return im ? im->cmpts() + im->size : nullptr;
}
path::_Cmpt &path::_List::front() noexcept { return *begin(); }
path::_Cmpt &path::_List::back() noexcept { return end()[-1]; }
const path::_Cmpt &path::_List::front() const noexcept { return *begin(); }
const path::_Cmpt &path::_List::back() const noexcept { return end()[-1]; }

void path::_List::pop_back() {
	_Impl *im = implOf(_M_impl);
	im->cmpts()[--im->size].~_Cmpt();
}

void path::_List::_M_erase_from(const_iterator pos) {
	_Impl *im = implOf(_M_impl);
	int from = int(pos - im->cmpts());
	while (im->size > from)
		im->cmpts()[--im->size].~_Cmpt();
}

void path::_List::reserve(int n, bool) {
	_Impl *old = implOf(_M_impl);
	if (old != nullptr && old->capacity >= n)
		return;
	_Impl *im = newImpl<_Impl, _Cmpt>(n);
	for (int i = 0; old != nullptr && i < old->size; i++) {
		new (&im->cmpts()[i]) _Cmpt(std::move(old->cmpts()[i]));
		im->size = i + 1;
	}
	_M_impl.reset(im);
}

// _M_split_cmpts makes the component list of _M_pathname: an empty path
// and a single name are filenames, a run of slashes alone the root
// directory; anything else a list of the root directory (its first slash),
// each name, and an empty name after a trailing slash.
void path::_M_split_cmpts() {
	const string_type &s = _M_pathname;
	size_t n = s.size();
	if (n == 0) {
		_M_cmpts.type(_Type::_Filename);
		return;
	}
	size_t firstName = 0;
	while (firstName < n && isSep(s[firstName]))
		firstName++;
	if (firstName == n) {
		_M_cmpts.type(_Type::_Root_dir);
		return;
	}
	if (s.find('/') == string_type::npos) {
		_M_cmpts.type(_Type::_Filename);
		return;
	}
	vector<pair<size_t, size_t>> names; // position and length
	for (size_t i = firstName; i < n;) {
		size_t j = i;
		while (j < n && !isSep(s[j]))
			j++;
		names.emplace_back(i, j - i);
		while (j < n && isSep(s[j]))
			j++;
		i = j;
	}
	bool trailing = isSep(s[n - 1]);
	int count = int(names.size()) + (firstName > 0) + trailing;
	_M_cmpts.clear();
	_List::_Impl *im = newImpl<_List::_Impl, _Cmpt>(count);
	_Cmpt *c = im->cmpts();
	if (firstName > 0) {
		new (&c[im->size]) _Cmpt(basic_string_view<value_type>(s.data(), 1), _Type::_Root_dir, 0);
		im->size++;
	}
	for (auto &nm : names) {
		new (&c[im->size]) _Cmpt(basic_string_view<value_type>(s.data() + nm.first, nm.second), _Type::_Filename, nm.first);
		im->size++;
	}
	if (trailing) {
		new (&c[im->size]) _Cmpt(basic_string_view<value_type>(), _Type::_Filename, n);
		im->size++;
	}
	_M_cmpts._M_impl.reset(im);
}

path &path::operator=(const path &p) {
	if (this != &p) {
		_M_pathname = p._M_pathname;
		_M_cmpts = p._M_cmpts;
	}
	return *this;
}

// _M_append is operator/= of a string: an absolute path replaces this one;
// otherwise a slash goes between unless this path is empty or ends in one.
void path::_M_append(basic_string_view<value_type> s) {
	if (!s.empty() && isSep(s[0])) {
		_M_pathname.assign(s.data(), s.size());
	} else {
		if (!_M_pathname.empty() && !isSep(_M_pathname.back()))
			_M_pathname += '/';
		_M_pathname.append(s.data(), s.size());
	}
	_M_split_cmpts();
}

path &path::operator/=(const path &p) {
	if (&p == this) {
		path copy(p);
		_M_append(copy._M_pathname);
	} else {
		_M_append(p._M_pathname);
	}
	return *this;
}

void path::_M_concat(basic_string_view<value_type> s) {
	_M_pathname.append(s.data(), s.size());
	_M_split_cmpts();
}

path &path::operator+=(const path &p) {
	string_type copy = p._M_pathname;
	_M_concat(copy);
	return *this;
}

bool path::has_filename() const noexcept {
	if (empty())
		return false;
	if (_M_type() == _Type::_Filename)
		return true;
	if (_M_type() != _Type::_Multi)
		return false;
	const _Cmpt &last = _M_cmpts.back();
	return last._M_type() == _Type::_Filename && !last._M_pathname.empty();
}

// _M_find_extension gives the filename and where its extension starts:
// npos for none ("." and "..", a name without a dot, or with only a
// leading one), and a null filename when the path has no non-empty one.
pair<const path::string_type *, size_t> path::_M_find_extension() const noexcept {
	const string_type *name = nullptr;
	if (_M_type() == _Type::_Filename)
		name = &_M_pathname;
	else if (_M_type() == _Type::_Multi && !_M_cmpts.empty() && _M_cmpts.back()._M_type() == _Type::_Filename)
		name = &_M_cmpts.back()._M_pathname;
	if (name == nullptr || name->empty())
		return {nullptr, 0};
	if (*name == "." || *name == "..")
		return {name, string_type::npos};
	size_t dot = name->rfind('.');
	if (dot == string_type::npos || dot == 0)
		return {name, string_type::npos};
	return {name, dot};
}

path &path::remove_filename() {
	if (_M_type() == _Type::_Filename) {
		clear();
	} else if (_M_type() == _Type::_Multi && has_filename()) {
		_M_pathname.erase(_M_cmpts.back()._M_pos);
		_M_split_cmpts();
	}
	return *this;
}

path &path::replace_filename(const path &replacement) {
	path r(replacement);
	remove_filename();
	operator/=(r);
	return *this;
}

path &path::replace_extension(const path &replacement) {
	auto ext = _M_find_extension();
	if (ext.first != nullptr && ext.second != string_type::npos) {
		size_t at = ext.first == &_M_pathname ? 0 : _M_cmpts.back()._M_pos;
		_M_pathname.erase(at + ext.second);
	}
	if (!replacement.empty() && replacement._M_pathname[0] != '.')
		_M_pathname += '.';
	_M_pathname += replacement._M_pathname;
	_M_split_cmpts();
	return *this;
}

// compare orders by root directory (a path without one first), then by
// the components of the relative path, each as a string.
int path::compare(const path &p) const noexcept {
	bool rd = has_root_directory(), prd = p.has_root_directory();
	if (rd != prd)
		return rd ? 1 : -1;
	auto a = begin(), ae = end(), b = p.begin(), be = p.end();
	if (rd) {
		++a;
		++b;
	}
	for (; a != ae && b != be; ++a, ++b) {
		if (a->_M_type() == _Type::_Root_dir || b->_M_type() == _Type::_Root_dir)
			continue;
		int c = a->_M_pathname.compare(b->_M_pathname);
		if (c != 0)
			return c;
	}
	if (a == ae && b == be)
		return 0;
	return a == ae ? -1 : 1;
}

int path::compare(basic_string_view<value_type> s) const noexcept { return compare(path(s)); }

path path::root_name() const { return path(); }

bool path::has_root_name() const noexcept { return false; }

bool path::has_root_directory() const noexcept { return !_M_pathname.empty() && isSep(_M_pathname[0]); }

path path::root_directory() const {
	if (has_root_directory())
		return path("/");
	return path();
}

bool path::has_root_path() const noexcept { return has_root_directory(); }

path path::root_path() const { return root_directory(); }

path path::relative_path() const {
	if (_M_type() == _Type::_Filename)
		return *this;
	if (_M_type() != _Type::_Multi || _M_cmpts.empty())
		return path();
	for (const _Cmpt &c : _M_cmpts)
		if (c._M_type() == _Type::_Filename)
			return path(_M_pathname.substr(c._M_pos));
	return path();
}

bool path::has_relative_path() const noexcept {
	if (_M_type() == _Type::_Filename)
		return !empty();
	return _M_type() == _Type::_Multi && !_M_cmpts.empty() && _M_cmpts.back()._M_type() == _Type::_Filename;
}

// parent_path is the path up to its last component, without the slashes
// before it unless they are the root directory.
path path::parent_path() const {
	if (!has_relative_path())
		return *this;
	if (_M_type() == _Type::_Filename)
		return path();
	const _Cmpt &last = _M_cmpts.back();
	size_t end = last._M_pos;
	size_t root = 0;
	while (root < _M_pathname.size() && isSep(_M_pathname[root]))
		root++;
	while (end > root && isSep(_M_pathname[end - 1]))
		end--;
	if (end == root && root > 0)
		return root_directory(); // the root directory is its first slash
	return path(_M_pathname.substr(0, end));
}

bool path::has_parent_path() const noexcept { return !parent_path().empty(); }

namespace {
// nameList lists a path's filename components as strings ("" for a trailing
// slash), after its root directory.
vector<std::string> nameList(const path &p) {
	vector<std::string> out;
	for (const path &c : p)
		if (!c.has_root_directory())
			out.push_back(c.native());
	return out;
}
} // namespace

// lexically_normal: one slash between names, no ".", a name and the ".."
// after it both gone, no ".." right after the root, no slash after a final
// "..", and "." for an empty result.
path path::lexically_normal() const {
	if (empty() || _M_type() == _Type::_Root_dir)
		return *this;
	bool root = has_root_directory();
	vector<std::string> out;
	bool dirTail = false;
	for (const std::string &c : nameList(*this)) {
		if (c.empty() || c == ".") {
			dirTail = true;
		} else if (c == "..") {
			if (!out.empty() && out.back() != "..") {
				out.pop_back();
				dirTail = true;
			} else if (!(root && out.empty())) {
				out.push_back("..");
				dirTail = false;
			}
		} else {
			out.push_back(c);
			dirTail = false;
		}
	}
	std::string s = root ? "/" : "";
	for (size_t i = 0; i < out.size(); i++) {
		if (i > 0)
			s += '/';
		s += out[i];
	}
	if (dirTail && !out.empty() && out.back() != "..")
		s += '/';
	if (s.empty())
		s = ".";
	return path(std::move(s));
}

// lexically_relative: the ".." steps up from base past where the two first
// differ, then the rest of this path; empty where no such path exists.
path path::lexically_relative(const path &base) const {
	if (is_absolute() != base.is_absolute() || (!has_root_directory() && base.has_root_directory()))
		return path();
	vector<std::string> a = nameList(*this), b = nameList(base);
	size_t i = 0;
	while (i < a.size() && i < b.size() && a[i] == b[i])
		i++;
	if (i == a.size() && i == b.size())
		return path(".");
	int up = 0;
	for (size_t k = i; k < b.size(); k++) {
		if (b[k] == "..")
			up--;
		else if (!b[k].empty() && b[k] != ".")
			up++;
	}
	if (up < 0)
		return path();
	if (up == 0 && (i == a.size() || a[i].empty()))
		return path(".");
	path r;
	for (int k = 0; k < up; k++)
		r /= "..";
	for (size_t k = i; k < a.size(); k++)
		r /= a[k];
	return r;
}

path path::lexically_proximate(const path &base) const {
	path r = lexically_relative(base);
	return r.empty() ? *this : r;
}

path::string_type path::_S_convert_loc(const char *first, const char *last, const std::locale &) {
	return string_type(first, last);
}

// hash_value combines the components' string hashes, so equal paths
// (which compare component by component) hash alike.
size_t hash_value(const path &p) noexcept {
	size_t seed = 0;
	for (const path &c : p)
		seed ^= std::hash<path::string_type>()(c.native()) + 0x9e3779b9 + (seed << 6) + (seed >> 2);
	return seed;
}

_GLIBCXX_END_NAMESPACE_CXX11
} // namespace filesystem
} // namespace std
