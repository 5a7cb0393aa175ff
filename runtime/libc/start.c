/* Program entry, exit and process-wide state for programs run by augur.
 * The VM starts the main thread in __augur_start after running the static
 * constructors; exit() runs the destructors of the calling thread's
 * thread_local objects (the VM's __augur_thread_dtors, as glibc's
 * __call_tls_dtors), the atexit handlers in reverse order, then the
 * destructors (__attribute__((destructor)), through the VM's __augur_fini,
 * as glibc runs .fini_array after them), flushes stdio and ends the
 * execution through the VM's __augur_exit.
 *
 * A client program linked beside the program (the VM's clients.go) starts
 * in __augur_client_start, and its exit() ends its own process: it runs
 * the handlers that process registered, and __augur_exit ends its threads
 * alone. __augur_process tells the processes apart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

void __augur_exit(int status) __attribute__((noreturn));
void __augur_fini(void);
void __augur_thread_dtors(void);
int __augur_process(void);
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
	int with_arg; /* 0: atexit's fn(), 1: __cxa_atexit's fn(arg), 2: on_exit's fn(status, arg) */
	int process; /* __augur_process() of the registering thread */
} handlers[MAX_ATEXIT];
static int nhandlers;

int atexit(void (*fn)(void)) {
	if (nhandlers == MAX_ATEXIT)
		return -1;
	handlers[nhandlers].fn = (void (*)(void *))fn;
	handlers[nhandlers].with_arg = 0;
	handlers[nhandlers].process = __augur_process();
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
	handlers[nhandlers].process = __augur_process();
	nhandlers++;
	return 0;
}

/* on_exit's handlers get exit's status too. */
int on_exit(void (*fn)(int, void *), void *arg) {
	if (nhandlers == MAX_ATEXIT)
		return -1;
	handlers[nhandlers].fn = (void (*)(void *))fn;
	handlers[nhandlers].arg = arg;
	handlers[nhandlers].with_arg = 2;
	handlers[nhandlers].process = __augur_process();
	nhandlers++;
	return 0;
}

/* takeHandler removes the last handler process registered and returns
 * its index, or -1 when none is left. */
static int takeHandler(int process) {
	for (int i = nhandlers - 1; i >= 0; i--) {
		if (handlers[i].process != process)
			continue;
		int last = --nhandlers;
		if (i != last) { /* keep the others' order: shift down */
			__typeof__(handlers[0]) h = handlers[i];
			for (int j = i; j < last; j++)
				handlers[j] = handlers[j + 1];
			handlers[last] = h;
		}
		return last;
	}
	return -1;
}

void exit(int status) {
	int process = __augur_process();
	__augur_thread_dtors(); /* the calling thread's thread_local objects first */
	for (int i; (i = takeHandler(process)) >= 0;) {
		if (handlers[i].with_arg == 2)
			((void (*)(int, void *))handlers[i].fn)(status, handlers[i].arg);
		else if (handlers[i].with_arg)
			handlers[i].fn(handlers[i].arg);
		else
			((void (*)(void))handlers[i].fn)();
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

/* A context makecontext made runs its function over this frame (the VM's
 * ucontext.go): when the function returns, the successor context resumes,
 * or the process exits when there is none, as glibc's __start_context
 * does. */
void __augur_context_return(ucontext_t *link) {
	if (link)
		setcontext(link);
	exit(0);
}

void __augur_client_start(int argc, char **argv, char **envp, int (*client_main)(int, char **, char **)) {
	exit(client_main(argc, argv, envp)); /* environ stays the program's */
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

