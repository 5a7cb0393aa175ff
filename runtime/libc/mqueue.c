/* POSIX message queues (mq_open, mq_send, mq_receive and the rest). Each
 * name opens one queue, kept in a table under one mutex, with a condition
 * for "not empty" and one for "not full": a send that finds the queue
 * full and a receive that finds it empty wait on them, so the scheduler
 * sees them as waits and the race detector orders a send before the
 * receive that takes its message (the mutex's release and acquire).
 * Messages come out highest priority first, oldest first within a
 * priority. A descriptor is a number open() gives for /dev/null, so it
 * takes the lowest free number as Linux's do and mq_close frees it; a
 * table by number says which queue it reads. The limits are an
 * unprivileged process's defaults: at most 10 messages of 8192 bytes.
 * Not modeled: mq_notify (ENOSYS), and queues shared with other
 * processes (client programs share this table, as threads do). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

enum { MQ_MAXMSG = 10, MQ_MSGSIZE = 8192, MQ_PRIO_LIMIT = 32768 };

struct message {
	struct message *next;
	unsigned prio;
	size_t len;
	char data[];
};

struct mqueue {
	struct mqueue *next;
	char *name; /* NULL once unlinked */
	int opens, waiting; /* descriptors open; threads in a send or receive */
	long maxmsg, msgsize, count;
	struct message *head; /* highest priority first */
	pthread_cond_t nonempty, nonfull;
};

struct mqdesc {
	struct mqueue *q;
	int flags; /* O_RDONLY, O_WRONLY or O_RDWR, and O_NONBLOCK */
};

static struct mqueue *queues;
static struct mqdesc *descs; /* by descriptor number */
static int ndescs;
static pthread_mutex_t mq_lock = PTHREAD_MUTEX_INITIALIZER;

/* lookup finds the linked queue of name. Caller holds mq_lock. */
static struct mqueue *lookup(const char *name) {
	for (struct mqueue *q = queues; q; q = q->next)
		if (q->name && strcmp(q->name, name) == 0)
			return q;
	return NULL;
}

/* desc returns the open descriptor d, or NULL with errno EBADF. Caller
 * holds mq_lock. */
static struct mqdesc *desc(mqd_t d) {
	if (d < 0 || d >= ndescs || !descs[d].q) {
		errno = EBADF;
		return NULL;
	}
	return &descs[d];
}

/* release frees q once it is unlinked and no descriptor or waiting
 * thread has it. Caller holds mq_lock. */
static void release(struct mqueue *q) {
	if (q->name || q->opens > 0 || q->waiting > 0)
		return;
	for (struct mqueue **p = &queues; *p; p = &(*p)->next) {
		if (*p == q) {
			*p = q->next;
			break;
		}
	}
	while (q->head) {
		struct message *m = q->head;
		q->head = m->next;
		free(m);
	}
	pthread_cond_destroy(&q->nonempty);
	pthread_cond_destroy(&q->nonfull);
	free(q);
}

/* create makes a queue for name with attr's limits (NULL: the defaults).
 * Caller holds mq_lock. */
static struct mqueue *create(const char *name, const struct mq_attr *attr) {
	long maxmsg = attr ? attr->mq_maxmsg : MQ_MAXMSG, msgsize = attr ? attr->mq_msgsize : MQ_MSGSIZE;
	if (maxmsg <= 0 || msgsize <= 0 || maxmsg > MQ_MAXMSG || msgsize > MQ_MSGSIZE) {
		errno = EINVAL;
		return NULL;
	}
	struct mqueue *q = calloc(1, sizeof *q);
	if (!q || !(q->name = strdup(name))) {
		free(q);
		errno = ENOMEM;
		return NULL;
	}
	q->maxmsg = maxmsg;
	q->msgsize = msgsize;
	pthread_cond_init(&q->nonempty, NULL);
	pthread_cond_init(&q->nonfull, NULL);
	q->next = queues;
	queues = q;
	return q;
}

WEAK mqd_t mq_open(const char *name, int oflag, ...) {
	mode_t mode = 0;
	struct mq_attr *attr = NULL;
	if (oflag & O_CREAT) {
		va_list ap;
		va_start(ap, oflag);
		mode = va_arg(ap, mode_t);
		attr = va_arg(ap, struct mq_attr *);
		va_end(ap);
	}
	(void)mode;
	if (name[0] != '/' || name[1] == 0 || strchr(name + 1, '/')) {
		errno = name[0] != '/' || name[1] == 0 ? EINVAL : EACCES;
		return -1;
	}
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	pthread_mutex_lock(&mq_lock);
	struct mqueue *q = lookup(name);
	mqd_t result = -1;
	if (q && (oflag & O_CREAT) && (oflag & O_EXCL)) {
		errno = EEXIST;
	} else if (!q && !(oflag & O_CREAT)) {
		errno = ENOENT;
	} else if (q || (q = create(name, attr))) {
		if (fd >= ndescs) {
			struct mqdesc *grown = realloc(descs, (fd + 1) * sizeof *descs);
			if (!grown) {
				errno = ENOMEM;
				release(q);
				goto out;
			}
			memset(grown + ndescs, 0, (fd + 1 - ndescs) * sizeof *descs);
			descs = grown;
			ndescs = fd + 1;
		}
		descs[fd] = (struct mqdesc){q, oflag & (O_ACCMODE | O_NONBLOCK)};
		q->opens++;
		result = fd;
	}
out:
	pthread_mutex_unlock(&mq_lock);
	if (result < 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return result;
}

WEAK int mq_close(mqd_t d) {
	pthread_mutex_lock(&mq_lock);
	struct mqdesc *md = desc(d);
	if (md) {
		struct mqueue *q = md->q;
		md->q = NULL;
		q->opens--;
		release(q);
	}
	pthread_mutex_unlock(&mq_lock);
	return md ? close(d) : -1;
}

WEAK int mq_unlink(const char *name) {
	pthread_mutex_lock(&mq_lock);
	struct mqueue *q = lookup(name);
	if (q) {
		free(q->name);
		q->name = NULL;
		release(q);
	} else {
		errno = ENOENT;
	}
	pthread_mutex_unlock(&mq_lock);
	return q ? 0 : -1;
}

/* await waits on c for the queue's state to change, until abs when it is
 * given: 0, or ETIMEDOUT. Caller holds mq_lock. */
static int await(pthread_cond_t *c, const struct timespec *abs) {
	if (!abs)
		return pthread_cond_wait(c, &mq_lock);
	if (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000)
		return EINVAL;
	return pthread_cond_timedwait(c, &mq_lock, abs);
}

WEAK int mq_timedsend(mqd_t d, const char *msg, size_t len, unsigned prio, const struct timespec *abs) {
	pthread_mutex_lock(&mq_lock);
	struct mqdesc *md = desc(d);
	/* The queue and flags are taken now: the table of descriptors moves
	 * when another thread opens one while this one waits. */
	struct mqueue *q = md ? md->q : NULL;
	int flags = md ? md->flags : 0, e = 0;
	if (!q || (flags & O_ACCMODE) == O_RDONLY) {
		e = EBADF;
	} else if (len > (size_t)q->msgsize) {
		e = EMSGSIZE;
	} else if (prio >= MQ_PRIO_LIMIT) {
		e = EINVAL;
	} else {
		q->waiting++;
		while (q->count >= q->maxmsg && !e)
			e = flags & O_NONBLOCK ? EAGAIN : await(&q->nonfull, abs);
		q->waiting--;
	}
	struct message *m = NULL;
	if (!e && !(m = malloc(sizeof *m + len)))
		e = ENOMEM;
	if (!e) {
		m->prio = prio;
		m->len = len;
		memcpy(m->data, msg, len);
		struct message **at = &q->head;
		while (*at && (*at)->prio >= prio)
			at = &(*at)->next;
		m->next = *at;
		*at = m;
		q->count++;
		pthread_cond_signal(&q->nonempty);
	}
	if (q)
		release(q); /* closed and unlinked while this thread waited */
	pthread_mutex_unlock(&mq_lock);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

WEAK int mq_send(mqd_t d, const char *msg, size_t len, unsigned prio) { return mq_timedsend(d, msg, len, prio, NULL); }

WEAK ssize_t mq_timedreceive(mqd_t d, char *buf, size_t len, unsigned *prio, const struct timespec *abs) {
	pthread_mutex_lock(&mq_lock);
	struct mqdesc *md = desc(d);
	struct mqueue *q = md ? md->q : NULL; /* taken now, as mq_timedsend's */
	int flags = md ? md->flags : 0, e = 0;
	if (!q || (flags & O_ACCMODE) == O_WRONLY) {
		e = EBADF;
	} else if (len < (size_t)q->msgsize) {
		e = EMSGSIZE;
	} else {
		q->waiting++;
		while (q->count == 0 && !e)
			e = flags & O_NONBLOCK ? EAGAIN : await(&q->nonempty, abs);
		q->waiting--;
	}
	ssize_t n = -1;
	if (!e) {
		struct message *m = q->head;
		q->head = m->next;
		q->count--;
		memcpy(buf, m->data, m->len);
		if (prio)
			*prio = m->prio;
		n = (ssize_t)m->len;
		free(m);
		pthread_cond_signal(&q->nonfull);
	}
	if (q)
		release(q);
	pthread_mutex_unlock(&mq_lock);
	if (e)
		errno = e;
	return n;
}

WEAK ssize_t mq_receive(mqd_t d, char *buf, size_t len, unsigned *prio) { return mq_timedreceive(d, buf, len, prio, NULL); }

WEAK int mq_getattr(mqd_t d, struct mq_attr *attr) {
	pthread_mutex_lock(&mq_lock);
	struct mqdesc *md = desc(d);
	if (md)
		*attr = (struct mq_attr){.mq_flags = md->flags & O_NONBLOCK, .mq_maxmsg = md->q->maxmsg,
		                         .mq_msgsize = md->q->msgsize, .mq_curmsgs = md->q->count};
	pthread_mutex_unlock(&mq_lock);
	return md ? 0 : -1;
}

WEAK int mq_setattr(mqd_t d, const struct mq_attr *attr, struct mq_attr *old) {
	if (old && mq_getattr(d, old) != 0)
		return -1;
	pthread_mutex_lock(&mq_lock);
	struct mqdesc *md = desc(d);
	if (md)
		md->flags = (md->flags & ~O_NONBLOCK) | (attr->mq_flags & O_NONBLOCK);
	pthread_mutex_unlock(&mq_lock);
	return md ? 0 : -1;
}

WEAK int mq_notify(mqd_t d, const struct sigevent *ev) {
	(void)d, (void)ev;
	errno = ENOSYS; /* not modeled: see the top of this file */
	return -1;
}
