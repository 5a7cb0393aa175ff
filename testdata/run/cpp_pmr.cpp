// std::pmr as allocation-conscious code uses it: a monotonic buffer over a
// stack array that spills to its upstream, containers that take their
// memory from a resource, a pool resource shared by two threads, pool
// options as the library adjusts them, a default resource replaced by a
// counting one, and a resource with no upstream memory (bad_alloc). The
// output must be native's: only counts and contents are printed, not
// addresses.
#include <cstddef>
#include <iostream>
#include <map>
#include <memory_resource>
#include <string>
#include <thread>
#include <vector>

// Counting wraps another resource and counts what goes through it.
struct Counting : std::pmr::memory_resource {
	std::pmr::memory_resource *up;
	long allocs = 0, frees = 0;
	std::size_t bytes = 0;
	explicit Counting(std::pmr::memory_resource *u) : up(u) {}
	void *do_allocate(std::size_t n, std::size_t a) override {
		allocs++;
		bytes += n;
		return up->allocate(n, a);
	}
	void do_deallocate(void *p, std::size_t n, std::size_t a) override {
		frees++;
		up->deallocate(p, n, a);
	}
	bool do_is_equal(const memory_resource &o) const noexcept override { return this == &o; }
};

int main() {
	Counting upstream(std::pmr::new_delete_resource());
	{
		alignas(std::max_align_t) char buf[256];
		std::pmr::monotonic_buffer_resource mono(buf, sizeof buf, &upstream);
		std::pmr::vector<int> v(&mono);
		for (int i = 0; i < 200; i++)
			v.push_back(i);
		std::pmr::string s("a string long enough to leave the small buffer", &mono);
		std::cout << "monotonic: " << v.size() << " ints, \"" << s.substr(0, 8) << "\", upstream allocations "
			  << (upstream.allocs > 0) << ", freed before release " << upstream.frees << "\n";
		mono.release();
		std::cout << "released: all given back " << (upstream.allocs == upstream.frees) << "\n";
	}
	Counting sharedUp(std::pmr::new_delete_resource());
	{
		std::pmr::synchronized_pool_resource pool(&sharedUp);
		std::pmr::map<int, std::pmr::string> shared(&pool);
		std::pmr::vector<long> sums(2, &pool);
		std::thread workers[2];
		for (int w = 0; w < 2; w++)
			workers[w] = std::thread([&pool, &sums, w] {
				std::pmr::vector<long> mine(&pool);
				for (int i = 0; i < 500; i++)
					mine.push_back(i * (w + 1));
				long sum = 0;
				for (long x : mine)
					sum += x;
				sums[w] = sum;
			});
		for (auto &t : workers)
			t.join();
		shared[1] = "one";
		shared[2] = "two";
		std::cout << "pool: sums " << sums[0] << " " << sums[1] << ", map " << shared.size() << "\n";
	}
	std::cout << "pool destroyed: upstream balanced " << (sharedUp.allocs == sharedUp.frees) << "\n";
	for (auto o : {std::pmr::pool_options{}, std::pmr::pool_options{10, 100}, std::pmr::pool_options{1, 1},
		       std::pmr::pool_options{1000000, 1 << 30}}) {
		std::pmr::unsynchronized_pool_resource r(o);
		std::cout << "options " << o.max_blocks_per_chunk << "," << o.largest_required_pool_block << " -> "
			  << r.options().max_blocks_per_chunk << "," << r.options().largest_required_pool_block << "\n";
	}
	Counting def(std::pmr::new_delete_resource());
	std::pmr::memory_resource *old = std::pmr::set_default_resource(&def);
	{
		std::pmr::vector<int> v = {1, 2, 3};
		std::pmr::string s(100, 'x');
		std::cout << "default replaced: " << (old == std::pmr::new_delete_resource()) << ", allocations "
			  << def.allocs << ", " << v.size() + s.size() << " elements\n";
	}
	std::pmr::set_default_resource(nullptr);
	std::cout << "default back to new_delete: "
		  << (std::pmr::get_default_resource() == std::pmr::new_delete_resource()) << ", frees " << def.frees << "\n";
	std::pmr::monotonic_buffer_resource none(std::pmr::null_memory_resource());
	try {
		std::pmr::vector<int> v(&none);
		v.push_back(1);
	} catch (const std::bad_alloc &e) {
		std::cout << "null upstream: " << e.what() << "\n";
	}
	return 0;
}
