/* The rest of the POSIX and Linux interface real programs call, as the
 * sandbox has it: one process (pid 4242, its own process group and
 * session, unprivileged), a virtual file system without symbolic links, and no
 * signals from outside. Each call either acts as it would there or fails
 * as a refused real call fails, so the program's own error handling runs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

/* Process groups and sessions: the process leads both. */
WEAK pid_t getpgrp(void) { return getpid(); }
WEAK pid_t getpgid(pid_t pid) { return pid == 0 || pid == getpid() ? getpid() : (errno = ESRCH, -1); }
WEAK pid_t getsid(pid_t pid) { return pid == 0 || pid == getpid() ? getpid() : (errno = ESRCH, -1); }
WEAK int setpgid(pid_t pid, pid_t pgid) {
	if ((pid != 0 && pid != getpid()) || (pgid != 0 && pgid != getpid())) {
		errno = pid != 0 && pid != getpid() ? ESRCH : EPERM;
		return -1;
	}
	errno = EPERM; /* a session leader cannot move */
	return -1;
}

/* Real-time scheduling needs privileges the process does not have. */
WEAK int sched_setscheduler(pid_t pid, int policy, const struct sched_param *p) {
	if (policy == SCHED_OTHER && p && p->sched_priority == 0)
		return 0;
	errno = EPERM;
	return -1;
}
WEAK int sched_getscheduler(pid_t pid) { return SCHED_OTHER; }
WEAK int sched_get_priority_max(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR ? 99 : 0; }
WEAK int sched_get_priority_min(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR ? 1 : 0; }

/* times gives clock()'s processor time as user time, in clock ticks (100
 * a second), and the virtual clock's seconds as the elapsed time. */
WEAK clock_t times(struct tms *t) {
	clock_t ticks = clock() / (CLOCKS_PER_SEC / 100);
	if (t) {
		t->tms_utime = ticks;
		t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (clock_t)now.tv_sec * 100 + now.tv_nsec / 10000000;
}

/* The clocks tick in nanoseconds. */
WEAK int clock_getres(clockid_t id, struct timespec *res) {
	if (res) {
		res->tv_sec = 0;
		res->tv_nsec = 1;
	}
	return 0;
}

/* The time zone is UTC. */
WEAK void tzset(void) {}

/* The machine sysconf describes: 4 processors, 4 GiB of memory, half
 * free, up for as long as the virtual clock has run. */
WEAK int sysinfo(struct sysinfo *si) {
	memset(si, 0, sizeof *si);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	si->uptime = now.tv_sec;
	si->totalram = 4UL << 30;
	si->freeram = 2UL << 30;
	si->procs = 1;
	si->mem_unit = 1;
	return 0;
}

/* The virtual file system: 1 GiB of 4 KiB blocks, most of it free. */
static void fill_statvfs(struct statvfs *s) {
	memset(s, 0, sizeof *s);
	s->f_bsize = s->f_frsize = 4096;
	s->f_blocks = 262144;
	s->f_bfree = s->f_bavail = 196608;
	s->f_files = 65536;
	s->f_ffree = s->f_favail = 65000;
	s->f_namemax = 255;
}
WEAK int statvfs(const char *path, struct statvfs *s) {
	if (access(path, F_OK) != 0)
		return -1;
	fill_statvfs(s);
	return 0;
}
WEAK int fstatvfs(int fd, struct statvfs *s) {
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	fill_statvfs(s);
	return 0;
}

WEAK int truncate(const char *path, off_t len) {
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	int r = ftruncate(fd, len);
	int e = errno;
	close(fd);
	errno = e;
	return r;
}

/* sendfile copies between descriptors through a buffer. */
WEAK ssize_t sendfile(int out, int in, off_t *off, size_t n) {
	char buf[4096];
	size_t done = 0;
	off_t pos = off ? *off : 0;
	while (done < n) {
		size_t want = n - done < sizeof buf ? n - done : sizeof buf;
		ssize_t k = off ? pread(in, buf, want, pos) : read(in, buf, want);
		if (k < 0)
			return done ? (ssize_t)done : -1;
		if (k == 0)
			break;
		ssize_t w = write(out, buf, k);
		if (w < 0)
			return done ? (ssize_t)done : -1;
		done += w;
		pos += w;
		if (w < k)
			break;
	}
	if (off)
		*off = pos;
	return done;
}

/* No other process can start (fork and exec fail the same way). */
WEAK int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
		     char *const argv[], char *const envp[]) {
	return EAGAIN;
}
WEAK int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
		      char *const argv[], char *const envp[]) {
	return EAGAIN;
}
WEAK int posix_spawn_file_actions_init(posix_spawn_file_actions_t *fa) {
	memset(fa, 0, sizeof *fa);
	return 0;
}
WEAK int posix_spawn_file_actions_destroy(posix_spawn_file_actions_t *fa) { return 0; }
WEAK int posix_spawnattr_init(posix_spawnattr_t *at) {
	memset(at, 0, sizeof *at);
	return 0;
}
WEAK int posix_spawnattr_destroy(posix_spawnattr_t *at) { return 0; }

/* Random bytes are the same every run, so runs repeat: a fixed xorshift
 * stream, shared by getrandom and getentropy. */
static unsigned long long entropy_state = 0x9e3779b97f4a7c15ULL;
static pthread_mutex_t entropy_lock = PTHREAD_MUTEX_INITIALIZER;
static void fill_random(unsigned char *p, size_t n) {
	pthread_mutex_lock(&entropy_lock);
	for (size_t i = 0; i < n; i++) {
		entropy_state ^= entropy_state << 13;
		entropy_state ^= entropy_state >> 7;
		entropy_state ^= entropy_state << 17;
		p[i] = (unsigned char)entropy_state;
	}
	pthread_mutex_unlock(&entropy_lock);
}
WEAK ssize_t getrandom(void *buf, size_t n, unsigned flags) {
	if (n > 33554431)
		n = 33554431;
	fill_random(buf, n);
	return n;
}
WEAK int getentropy(void *buf, size_t n) {
	if (n > 256) {
		errno = EIO;
		return -1;
	}
	fill_random(buf, n);
	return 0;
}

/* stdio extras over the models. */
WEAK void setlinebuf(FILE *f) { setvbuf(f, NULL, _IOLBF, 0); }
WEAK int fgetpos(FILE *f, fpos_t *pos) {
	long p = ftell(f);
	if (p < 0)
		return -1;
	memset(pos, 0, sizeof *pos);
	pos->__pos = p;
	return 0;
}
WEAK int fsetpos(FILE *f, const fpos_t *pos) { return fseek(f, pos->__pos, SEEK_SET); }

/* quick_exit runs the at_quick_exit handlers, last first, then _exit:
 * as C11's, it does not flush stdio. */
static void (*quick_handlers[32])(void);
static int nquick;
WEAK int at_quick_exit(void (*f)(void)) {
	if (nquick == 32)
		return -1;
	quick_handlers[nquick++] = f;
	return 0;
}
WEAK void quick_exit(int status) {
	while (nquick > 0)
		quick_handlers[--nquick]();
	_exit(status);
}

/* flockfile and its kin lock a stream for a thread, recursively, as
 * glibc's do, with a mutex per FILE (kept after fclose: a FILE at the same
 * address later has the same lock). The stdio calls themselves do not
 * wait for it: augur runs each of them in one step, so a thread holding a
 * stream's lock keeps other threads' flockfile out, not their printf. */
struct stream_lock {
	struct stream_lock *next;
	FILE *f;
	pthread_mutex_t m;
};
static struct stream_lock *stream_locks;
static pthread_mutex_t stream_locks_lock = PTHREAD_MUTEX_INITIALIZER;

static pthread_mutex_t *lock_of(FILE *f) {
	pthread_mutex_lock(&stream_locks_lock);
	struct stream_lock *l = stream_locks;
	while (l && l->f != f)
		l = l->next;
	if (!l && (l = calloc(1, sizeof *l))) {
		pthread_mutexattr_t a;
		pthread_mutexattr_init(&a);
		pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
		pthread_mutex_init(&l->m, &a);
		l->f = f;
		l->next = stream_locks;
		stream_locks = l;
	}
	pthread_mutex_unlock(&stream_locks_lock);
	return l ? &l->m : NULL;
}
WEAK void flockfile(FILE *f) { pthread_mutex_lock(lock_of(f)); }
WEAK void funlockfile(FILE *f) { pthread_mutex_unlock(lock_of(f)); }
WEAK int ftrylockfile(FILE *f) { return pthread_mutex_trylock(lock_of(f)) == 0 ? 0 : -1; }

/* inotify: nothing outside the program changes its files; the instance
 * limit is reached, as a refused real call fails. */
WEAK int inotify_init(void) {
	errno = EMFILE;
	return -1;
}
WEAK int inotify_init1(int flags) { return inotify_init(); }
