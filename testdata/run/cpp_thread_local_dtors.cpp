// thread_local objects with destructors (__cxa_thread_atexit): each thread
// destroys its own, the last constructed first, when it ends, before its
// pthread key destructors; main's run at exit, before static destructors.
#include <cstdio>
#include <pthread.h>
#include <string>
#include <thread>

struct Tracer {
	std::string name;
	explicit Tracer(std::string n) : name(std::move(n)) { std::printf("construct %s\n", name.c_str()); }
	~Tracer() { std::printf("destroy %s\n", name.c_str()); }
};

thread_local Tracer shared_name("per-thread");
thread_local std::string label = "unset";
static pthread_key_t key;

struct Global {
	~Global() { std::puts("static destructor"); }
} global;

static void key_gone(void *) { std::puts("key destructor"); }

static void work(int id) {
	label = "worker" + std::to_string(id);
	pthread_setspecific(key, &key);
	thread_local Tracer local("local");
	std::printf("%s uses %s and %s\n", label.c_str(), shared_name.name.c_str(), local.name.c_str());
}

int main() {
	pthread_key_create(&key, key_gone);
	for (int i = 0; i < 2; i++) {
		std::thread t(work, i);
		t.join();
	}
	label = "main";
	std::printf("%s uses %s\n", label.c_str(), shared_name.name.c_str());
}
