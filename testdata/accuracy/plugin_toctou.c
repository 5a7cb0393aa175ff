// args: l
/* An unloader clears the plugin pointer without the lock while main, in
 * call mode (first argument x), checks the pointer and then calls through
 * it, reading it twice. With the seed argument l main only lists plugins.
 *
 * check: spec-violated. When the check sees the plugin and the unloader
 * clears it before the call's read, main calls through NULL.
 * call: spec-violated. The clear before the call's read (the check having
 * passed) is that NULL dereference.
 * Both need the input x and a thread switch between the check and the
 * call. */
#include <pthread.h>
#include <stdio.h>

struct plugin {
	int (*run)(int);
};

static int twice(int v) { return 2 * v; }

static struct plugin builtin = {twice};
static struct plugin *plugin = &builtin;

static void *unloader(void *arg) {
	(void)arg;
	plugin = NULL; // race: check spec-violated // race: call spec-violated
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, unloader, NULL);
	int r = 0;
	if (argc > 1 && argv[1][0] == 'x') {
		if (plugin != NULL) // race: check spec-violated
			r = plugin->run(21); // race: call spec-violated
	} else {
		printf("plugins: builtin\n");
	}
	pthread_join(t, NULL);
	printf("result %d\n", r);
	return 0;
}
