/* Program entry, exit and process-wide state for programs run by augur.
 * The VM starts the main thread in __augur_start after running the static
 * constructors; exit() runs the atexit handlers in reverse order, then the
 * destructors (__attribute__((destructor)), through the VM's __augur_fini,
 * as glibc runs .fini_array after them), flushes stdio and ends the
 * execution through the VM's __augur_exit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void __augur_exit(int status) __attribute__((noreturn));
void __augur_fini(void);
int main(int argc, char **argv, char **envp);

/* The three standard streams. The VM knows them by this array's address. */
FILE __augur_stdfiles[3];
FILE *stdin = &__augur_stdfiles[0];
FILE *stdout = &__augur_stdfiles[1];
FILE *stderr = &__augur_stdfiles[2];

/* errno: __errno_location returns this thread's copy. */
__thread int __augur_errno;

char **environ;
char *program_invocation_name;
char *program_invocation_short_name;

#define MAX_ATEXIT 64
static struct {
	void (*fn)(void *);
	void *arg;
	int with_arg;
} handlers[MAX_ATEXIT];
static int nhandlers;

int atexit(void (*fn)(void)) {
	if (nhandlers == MAX_ATEXIT)
		return -1;
	handlers[nhandlers].fn = (void (*)(void *))fn;
	handlers[nhandlers].with_arg = 0;
	nhandlers++;
	return 0;
}

/* C++ static destructors register here. */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
	(void)dso;
	if (nhandlers == MAX_ATEXIT)
		return -1;
	handlers[nhandlers].fn = fn;
	handlers[nhandlers].arg = arg;
	handlers[nhandlers].with_arg = 1;
	nhandlers++;
	return 0;
}

void exit(int status) {
	while (nhandlers > 0) {
		nhandlers--;
		if (handlers[nhandlers].with_arg)
			handlers[nhandlers].fn(handlers[nhandlers].arg);
		else
			((void (*)(void))handlers[nhandlers].fn)();
	}
	__augur_fini();
	__augur_exit(status);
}

void __augur_start(int argc, char **argv, char **envp) {
	environ = envp;
	if (argc > 0) {
		program_invocation_name = argv[0];
		char *slash = strrchr(argv[0], '/');
		program_invocation_short_name = slash ? slash + 1 : argv[0];
	}
	exit(main(argc, argv, envp));
}

char *getenv(const char *name) {
	size_t n = strlen(name);
	if (!environ)
		return NULL;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

