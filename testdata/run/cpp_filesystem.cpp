// std::filesystem as tools use it: paths taken apart and put together
// (every decomposition and the lexical operations of a table of paths),
// then a tree made, filled by two threads, copied, listed, measured,
// renamed and removed, with the error_code and the exception forms of the
// failures. The output must be native's: the tree is made relative to the
// working directory and listings are sorted (readdir's order is the file
// system's).
// cflags: -std=c++17
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

static void show(const fs::path &p) {
	std::cout << p << ": fn " << p.filename() << " stem " << p.stem() << " ext " << p.extension() << " parent "
		  << p.parent_path() << " rel " << p.relative_path() << " norm " << p.lexically_normal() << " abs "
		  << p.is_absolute() << " parts";
	for (const auto &c : p)
		std::cout << " {" << c.string() << "}";
	fs::path q = p;
	q.replace_extension(".bak");
	std::cout << " bak " << q << " in-b " << p.lexically_relative("b") << " prox-x " << p.lexically_proximate("x")
		  << "\n";
}

static std::vector<std::string> listing(const fs::path &d, bool recursive) {
	std::vector<std::string> out;
	if (recursive) {
		for (auto it = fs::recursive_directory_iterator(d); it != fs::recursive_directory_iterator(); ++it) {
			out.push_back(std::to_string(it.depth()) + ":" + it->path().lexically_relative(d).string() +
				      (it->is_directory() ? "/" : ""));
			if (it->path().filename() == "skip")
				it.disable_recursion_pending();
		}
	} else {
		for (const auto &e : fs::directory_iterator(d))
			out.push_back(e.path().filename().string() + (e.is_regular_file() ? "" : "/"));
	}
	std::sort(out.begin(), out.end());
	return out;
}

static void write(const fs::path &p, const std::string &text) { std::ofstream(p) << text; }

int main() {
	for (const char *s : {"", "/", "a", "a/", "/usr/lib/libx.so.1", "b/./c/../d.txt", "../x/..", ".profile",
			      "dir/archive.tar.gz", "//srv//data//", "/..", "b/c"})
		show(s);
	fs::path j = fs::path("usr") / "local" / "lib";
	j += ".d";
	std::cout << j << " " << (j / "/etc") << " " << (fs::path("a//b") == fs::path("a/b")) << " "
		  << (fs::path("a") < fs::path("b")) << " " << (fs::hash_value("a//b") == fs::hash_value("a/b")) << "\n";

	const fs::path root = "fs_probe";
	fs::remove_all(root);
	std::cout << "made " << fs::create_directories(root / "src" / "skip" / "deep") << " again "
		  << fs::create_directories(root / "src") << "\n";
	std::thread workers[2];
	for (int w = 0; w < 2; w++)
		workers[w] = std::thread([&root, w] {
			for (int i = 0; i < 3; i++)
				write(root / "src" / ("w" + std::to_string(w) + "_" + std::to_string(i) + ".txt"),
				      std::string(size_t(10 * (i + 1)), char('a' + w)));
		});
	for (auto &t : workers)
		t.join();
	write(root / "src" / "skip" / "hidden.txt", "x");
	write(root / "src" / "skip" / "deep" / "deeper.txt", "y");

	for (const auto &n : listing(root / "src", false))
		std::cout << n << " ";
	std::cout << "\n";
	for (const auto &n : listing(root, true))
		std::cout << n << " ";
	std::cout << "\n";

	fs::path f = root / "src" / "w1_2.txt";
	std::cout << "size " << fs::file_size(f) << " regular " << fs::is_regular_file(f) << " dir "
		  << fs::is_directory(root) << " exists " << fs::exists(root / "nope") << " empty "
		  << fs::is_empty(root / "src" / "skip" / "deep") << "\n";
	std::cout << "copy " << fs::copy_file(f, root / "copy.txt") << " skip "
		  << fs::copy_file(f, root / "copy.txt", fs::copy_options::skip_existing) << " over "
		  << fs::copy_file(root / "src" / "w0_0.txt", root / "copy.txt", fs::copy_options::overwrite_existing)
		  << " size " << fs::file_size(root / "copy.txt") << "\n";
	std::error_code ec;
	fs::copy_file(f, root / "copy.txt", ec);
	std::cout << "copy onto existing: " << ec.message() << "\n";
	fs::copy(root / "src", root / "flat");
	fs::copy(root / "src", root / "tree", fs::copy_options::recursive);
	std::cout << "flat " << listing(root / "flat", true).size() << " tree " << listing(root / "tree", true).size()
		  << "\n";
	fs::rename(root / "copy.txt", root / "moved.txt");
	fs::resize_file(root / "moved.txt", 4);
	std::cout << "moved " << fs::exists(root / "copy.txt") << fs::exists(root / "moved.txt") << " size "
		  << fs::file_size(root / "moved.txt") << " same " << fs::equivalent(root / "moved.txt", "fs_probe/moved.txt")
		  << "\n";
	auto t = fs::last_write_time(root / "moved.txt");
	fs::last_write_time(root / "moved.txt", t);
	std::cout << "time kept " << (fs::last_write_time(root / "moved.txt") == t) << "\n";
	fs::path canon = fs::canonical(root / "src" / ".." / "tree");
	std::cout << "canonical " << canon.lexically_relative(fs::current_path()) << " weakly "
		  << fs::weakly_canonical(root / "tree" / "x" / ".." / "y").lexically_relative(fs::current_path())
		  << " relative " << fs::relative(root / "tree" / "skip", root / "src") << " absolute "
		  << (fs::absolute("x") == fs::current_path() / "x") << " tmp " << fs::is_directory(fs::temp_directory_path())
		  << "\n";
	std::cout << "status " << (fs::status(root).type() == fs::file_type::directory) << " missing "
		  << (fs::status(root / "nope").type() == fs::file_type::not_found) << "\n";

	std::cout << "size of missing: " << fs::file_size(root / "nope", ec) << " " << ec.message() << "\n";
	std::cout << "mkdir under a file: " << fs::create_directory(f / "sub", ec) << " " << ec.message() << "\n";
	std::cout << "remove missing: " << fs::remove(root / "nope") << "\n";
	try {
		fs::file_size(root / "nope");
	} catch (const fs::filesystem_error &e) {
		std::cout << "caught: " << e.what() << " | " << e.path1() << " | " << e.code().value() << "\n";
	}
	try {
		fs::rename(root / "nope", root / "other");
	} catch (const fs::filesystem_error &e) {
		std::cout << "caught: " << e.what() << "\n";
	}
	try {
		fs::directory_iterator it(root / "nope");
	} catch (const fs::filesystem_error &e) {
		std::cout << "caught: " << e.what() << "\n";
	}
	std::cout << "removed " << fs::remove_all(root) << " left " << fs::exists(root) << "\n";
	return 0;
}
