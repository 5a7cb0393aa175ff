// file: input.txt=3 4\nalpha beta\ngamma\n
/* File streams: an ofstream that writes numbers and lines, an ifstream
 * that reads words, numbers and lines back (getline, >>, eof), appending
 * with ios::app, an fstream that seeks and overwrites in place, a binary
 * write and read of a struct, and a stream that fails to open a file that
 * is not there. */
#include <fstream>
#include <iostream>
#include <string>

struct record {
	int id;
	double weight;
};

int main() {
	std::ifstream given("input.txt");
	int a, b;
	std::string w1, w2, rest;
	given >> a >> b >> w1 >> w2;
	std::getline(given, rest); // the end of the second line
	std::getline(given, rest);
	std::cout << "given: " << a + b << " " << w1 << "+" << w2 << " then [" << rest << "]\n";

	{
		std::ofstream out("log.txt");
		for (int i = 1; i <= 3; i++)
			out << "line " << i << " squared " << i * i << '\n';
		std::cout << "ofstream good " << out.good() << "\n";
	}
	{
		std::ofstream more("log.txt", std::ios::app);
		more << "appended\n";
	}
	std::ifstream in("log.txt");
	std::string line;
	int n = 0;
	while (std::getline(in, line))
		std::cout << ++n << ": " << line << "\n";
	std::cout << "eof " << in.eof() << " fail " << in.fail() << "\n";
	in.close();

	std::fstream io("log.txt", std::ios::in | std::ios::out);
	io.seekp(5);
	io << "ONE";
	io.seekg(0);
	std::getline(io, line);
	std::cout << "after seekp: " << line << "\n";
	io.seekg(0, std::ios::end);
	std::cout << "size " << io.tellg() << "\n";
	io.close();

	record r{42, 2.5}, back{};
	std::ofstream bin("rec.bin", std::ios::binary);
	bin.write(reinterpret_cast<const char *>(&r), sizeof r);
	bin.close();
	std::ifstream bin_in("rec.bin", std::ios::binary);
	bin_in.read(reinterpret_cast<char *>(&back), sizeof back);
	std::cout << "binary " << back.id << " " << back.weight << " read " << bin_in.gcount() << "\n";

	std::ifstream missing("no_such_file.txt");
	std::cout << "missing is_open " << missing.is_open() << " good " << missing.good() << "\n";
	return 0;
}
