// unique_ptr and shared_ptr: ownership transfer, custom deleters, shared
// ownership across threads (the reference count is atomic), weak_ptr
// expiry, and make_shared.
#include <cstdio>
#include <memory>
#include <thread>
#include <vector>

struct Resource {
	int id;
	explicit Resource(int i) : id(i) { std::printf("acquire %d\n", id); }
	~Resource() { std::printf("release %d\n", id); }
};

int main() {
	std::unique_ptr<Resource> u = std::make_unique<Resource>(1);
	std::unique_ptr<Resource> v = std::move(u);
	std::printf("u empty %d v id %d\n", u == nullptr, v->id);
	v.reset(new Resource(2));

	auto shared = std::make_shared<Resource>(3);
	std::weak_ptr<Resource> weak = shared;
	std::vector<std::thread> ts;
	int ids[4];
	for (int i = 0; i < 4; i++)
		ts.emplace_back([copy = shared, &ids, i] { ids[i] = copy->id + i; });
	for (auto &t : ts)
		t.join();
	std::printf("ids %d %d %d %d use_count %ld\n", ids[0], ids[1], ids[2], ids[3], shared.use_count());
	shared.reset();
	std::printf("weak expired %d\n", weak.expired());
	{
		std::unique_ptr<int[], void (*)(int *)> arr(new int[3]{7, 8, 9}, [](int *p) {
			std::printf("custom delete %d\n", p[2]);
			delete[] p;
		});
	}
	return 0;
}
