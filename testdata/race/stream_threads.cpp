/* Two threads format numbers into string streams and write them to files
 * of their own, then bump a shared count without a lock. The count is the
 * only race: the C++ runtime's locale, its facet numbering and its number
 * formatting cache are set up once, before the threads use them, as
 * libstdc++'s are, so a program's first formatted numbers in two threads
 * at once do not race inside the library. */
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

static int written;

static void report(int id) {
	std::ostringstream line;
	line << "worker " << id << " squared " << id * id << " half " << id / 2.0;
	std::ofstream out("report" + std::to_string(id) + ".txt");
	out << line.str() << '\n';
	written++; // race: written output-differs
}

int main() {
	std::thread a(report, 1), b(report, 2);
	a.join();
	b.join();
	std::ifstream in("report2.txt");
	std::string text;
	std::getline(in, text);
	std::printf("%s; %d reports\n", text.c_str(), written);
	return 0;
}
