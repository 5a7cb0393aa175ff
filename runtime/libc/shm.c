/* Shared memory. System V segments (shmget, shmat, shmdt, shmctl) are
 * kept in a table under a mutex: a segment is zeroed memory made at its
 * first attach, and every attach of it returns that same memory, so
 * threads (and client programs, which share the address space) that
 * attach one segment share its bytes as processes do, and the race
 * detector sees their accesses to one object. A segment removed with
 * IPC_RMID stays attached where it is (its key names a new one); its
 * memory is never freed, as augur cannot tell when the last detach is.
 * POSIX shared memory objects (shm_open, shm_unlink) are files under
 * /dev/shm of the virtual file system, sized with ftruncate and mapped
 * with mmap (see analyzer/exec/libc/mmap.go for what a shared mapping is). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

struct segment {
	struct segment *next;
	int id;
	key_t key; /* IPC_PRIVATE once removed */
	size_t size;
	void *addr; /* NULL until the first attach */
	int attached;
	int removed;
};

static struct segment *segments;
static int next_id = 1;
static pthread_mutex_t segments_lock = PTHREAD_MUTEX_INITIALIZER;

/* find returns the segment of id (removed ones too, while attached).
 * Caller holds segments_lock. */
static struct segment *find(int id) {
	for (struct segment *s = segments; s; s = s->next)
		if (s->id == id)
			return s;
	return NULL;
}

WEAK int shmget(key_t key, size_t size, int flags) {
	pthread_mutex_lock(&segments_lock);
	struct segment *s = NULL;
	if (key != IPC_PRIVATE) {
		for (struct segment *t = segments; t; t = t->next)
			if (!t->removed && t->key == key)
				s = t;
	}
	int result = -1;
	if (s) {
		if ((flags & IPC_CREAT) && (flags & IPC_EXCL))
			errno = EEXIST;
		else if (size > s->size)
			errno = EINVAL;
		else
			result = s->id;
	} else if (key != IPC_PRIVATE && !(flags & IPC_CREAT)) {
		errno = ENOENT;
	} else if (size == 0 || size > (size_t)1 << 30) {
		errno = EINVAL;
	} else if (!(s = calloc(1, sizeof *s))) {
		errno = ENOMEM;
	} else {
		s->id = next_id++;
		s->key = key;
		s->size = size;
		s->next = segments;
		segments = s;
		result = s->id;
	}
	pthread_mutex_unlock(&segments_lock);
	return result;
}

WEAK void *shmat(int id, const void *addr, int flags) {
	(void)flags;
	pthread_mutex_lock(&segments_lock);
	struct segment *s = find(id);
	void *result = (void *)-1;
	if (!s || (s->removed && !s->attached)) {
		errno = EINVAL;
	} else if (addr && addr != s->addr) {
		errno = EINVAL; /* a segment has one address in augur */
	} else {
		if (!s->addr)
			s->addr = calloc(1, (s->size + 4095) & ~(size_t)4095);
		if (!s->addr) {
			errno = ENOMEM;
		} else {
			s->attached++;
			result = s->addr;
		}
	}
	pthread_mutex_unlock(&segments_lock);
	return result;
}

WEAK int shmdt(const void *addr) {
	pthread_mutex_lock(&segments_lock);
	int result = -1;
	errno = EINVAL;
	for (struct segment *s = segments; s; s = s->next) {
		if (s->addr && s->addr == addr && s->attached > 0) {
			s->attached--;
			result = 0;
			break;
		}
	}
	pthread_mutex_unlock(&segments_lock);
	return result;
}

WEAK int shmctl(int id, int cmd, struct shmid_ds *buf) {
	pthread_mutex_lock(&segments_lock);
	struct segment *s = find(id);
	int result = 0;
	if (!s) {
		errno = EINVAL;
		result = -1;
	} else if (cmd == IPC_RMID) {
		s->removed = 1;
		s->key = IPC_PRIVATE;
	} else if (cmd == IPC_STAT) {
		memset(buf, 0, sizeof *buf);
		buf->shm_segsz = s->size;
		buf->shm_nattch = s->attached;
		buf->shm_perm.__key = s->key;
		buf->shm_perm.uid = buf->shm_perm.cuid = getuid();
		buf->shm_perm.gid = buf->shm_perm.cgid = getgid();
		buf->shm_perm.mode = 0600;
		buf->shm_cpid = buf->shm_lpid = getpid();
	} else if (cmd != IPC_SET) {
		errno = EINVAL;
		result = -1;
	}
	pthread_mutex_unlock(&segments_lock);
	return result;
}

/* shm_path makes the file name of a shared memory object: glibc's rules,
 * leading slashes dropped and no other slash. */
static int shm_path(const char *name, char *path, size_t n) {
	while (*name == '/')
		name++;
	if (!*name || strchr(name, '/') || strlen(name) >= NAME_MAX) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, n, "/dev/shm/%s", name);
	return 0;
}

WEAK int shm_open(const char *name, int oflag, mode_t mode) {
	char path[PATH_MAX];
	if (shm_path(name, path, sizeof path) < 0)
		return -1;
	return open(path, oflag | O_NOFOLLOW | O_CLOEXEC, mode);
}

WEAK int shm_unlink(const char *name) {
	char path[PATH_MAX];
	if (shm_path(name, path, sizeof path) < 0)
		return -1;
	return unlink(path);
}
