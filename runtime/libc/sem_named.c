/* Named semaphores (sem_open, sem_close, sem_unlink): portable programs use
 * them where unnamed ones are missing (macOS). Each name opens one sem_t
 * of the pthread models, kept in a table under a mutex, so a semaphore
 * opened by name in two threads is the same object to the scheduler and
 * the race detector. An unlinked semaphore stays usable by those that
 * have it open and is freed at its last sem_close. The table is the
 * process's: forked processes do not share named semaphores, as they
 * share no memory in augur. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#define WEAK __attribute__((weak))

struct named {
	struct named *next;
	char *name; /* NULL once unlinked */
	int opens;
	sem_t sem; /* what sem_open returns: the struct is found from it */
};

static struct named *table;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* owner finds the entry of an open semaphore. */
static struct named *owner(sem_t *s) { return (struct named *)((char *)s - offsetof(struct named, sem)); }

/* lookup finds the linked entry of name. Caller holds table_lock. */
static struct named *lookup(const char *name) {
	for (struct named *n = table; n; n = n->next)
		if (n->name && strcmp(n->name, name) == 0)
			return n;
	return NULL;
}

/* unlist removes n from the table and frees it. Caller holds table_lock. */
static void unlist(struct named *n) {
	for (struct named **p = &table; *p; p = &(*p)->next) {
		if (*p == n) {
			*p = n->next;
			break;
		}
	}
	sem_destroy(&n->sem);
	free(n->name);
	free(n);
}

WEAK sem_t *sem_open(const char *name, int oflag, ...) {
	unsigned value = 0;
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		(void)va_arg(ap, int); /* mode: permissions mean nothing here */
		value = va_arg(ap, unsigned);
		va_end(ap);
	}
	if (name[0] != '/' || strchr(name + 1, '/') || strlen(name) > 251) {
		errno = EINVAL;
		return SEM_FAILED;
	}
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return SEM_FAILED;
	}
	pthread_mutex_lock(&table_lock);
	struct named *n = lookup(name);
	if (n && (oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		pthread_mutex_unlock(&table_lock);
		errno = EEXIST;
		return SEM_FAILED;
	}
	if (!n && !(oflag & O_CREAT)) {
		pthread_mutex_unlock(&table_lock);
		errno = ENOENT;
		return SEM_FAILED;
	}
	if (!n) {
		n = calloc(1, sizeof *n);
		if (!n || !(n->name = strdup(name))) {
			free(n);
			pthread_mutex_unlock(&table_lock);
			errno = ENOMEM;
			return SEM_FAILED;
		}
		sem_init(&n->sem, 1, value);
		n->next = table;
		table = n;
	}
	n->opens++;
	pthread_mutex_unlock(&table_lock);
	return &n->sem;
}

WEAK int sem_close(sem_t *s) {
	pthread_mutex_lock(&table_lock);
	struct named *n = owner(s);
	if (--n->opens == 0 && !n->name)
		unlist(n);
	pthread_mutex_unlock(&table_lock);
	return 0;
}

WEAK int sem_unlink(const char *name) {
	pthread_mutex_lock(&table_lock);
	struct named *n = lookup(name);
	if (!n) {
		pthread_mutex_unlock(&table_lock);
		errno = ENOENT;
		return -1;
	}
	free(n->name);
	n->name = NULL;
	if (n->opens == 0)
		unlist(n);
	pthread_mutex_unlock(&table_lock);
	return 0;
}
