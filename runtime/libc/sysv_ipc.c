/* System V semaphore sets (semget, semop, semtimedop, semctl) and message
 * queues (msgget, msgsnd, msgrcv, msgctl), over one mutex and a condition
 * per set or queue: an operation that cannot go on waits on its
 * condition, so the scheduler sees a wait and the race detector orders a
 * semop or msgsnd before the one it lets go on (the mutex's release and
 * acquire). A semop applies all of its operations or none, as the
 * kernel's. Keys name sets and queues as shmget's name segments
 * (shm.c); ids count up from 1 (the kernel's are larger). Not modeled:
 * SEM_UNDO (there is no process exit to undo at: the flag is accepted
 * and ignored), and the permission bits (every caller may do anything).
 * The limits are Linux's defaults: 16,384 bytes a queue, 8,192 a
 * message, 32,000 semaphores a set. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

enum { SEM_MAX = 32000, SEM_VALUE_LIMIT = 32767, MSG_MAX = 8192, MSG_QUEUE = 16384 };

/* ipc is what sets and queues share: the id, the key and the condition
 * their waiters wait on. */
struct ipc {
	struct ipc *next;
	int id;
	key_t key;
	int removed;
	pthread_cond_t changed;
};

struct semset {
	struct ipc ipc;
	int nsems;
	unsigned short *vals;
	int *ncnt, *zcnt; /* waiters for an increase, for zero, per semaphore */
	pid_t *pids;
};

struct msg {
	struct msg *next;
	long type;
	size_t len;
	char data[];
};

struct msgqueue {
	struct ipc ipc;
	struct msg *head, **tail;
	size_t bytes, qbytes;
	long count;
};

static struct ipc *sems, *msgqs;
static int next_id = 1;
static pthread_mutex_t ipc_lock = PTHREAD_MUTEX_INITIALIZER;

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* get finds the key's entry in list, as IPC_CREAT and IPC_EXCL in flags
 * ask (and fits, when given, accepts it with arg), or makes a zeroed one
 * of size bytes at the list's head when there is none (or the key is
 * IPC_PRIVATE) and the flags allow it. It returns the id, or -1 with
 * errno. Caller holds ipc_lock. */
static int get(struct ipc **list, key_t key, int flags, size_t size, int (*fits)(struct ipc *, int), int arg) {
	if (key != IPC_PRIVATE) {
		for (struct ipc *p = *list; p; p = p->next) {
			if (p->removed || p->key != key)
				continue;
			if ((flags & IPC_CREAT) && (flags & IPC_EXCL)) {
				errno = EEXIST;
				return -1;
			}
			if (fits && !fits(p, arg)) {
				errno = EINVAL;
				return -1;
			}
			return p->id;
		}
		if (!(flags & IPC_CREAT)) {
			errno = ENOENT;
			return -1;
		}
	}
	struct ipc *p = calloc(1, size);
	if (!p) {
		errno = ENOMEM;
		return -1;
	}
	p->id = next_id++;
	p->key = key;
	pthread_cond_init(&p->changed, NULL);
	p->next = *list;
	*list = p;
	return p->id;
}

/* find returns the live entry of id in list, or NULL with errno EINVAL.
 * Caller holds ipc_lock. */
static struct ipc *find(struct ipc *list, int id) {
	for (struct ipc *p = list; p; p = p->next)
		if (p->id == id && !p->removed)
			return p;
	errno = EINVAL;
	return NULL;
}

/* removeIPC marks p removed and wakes its waiters, which fail with EIDRM;
 * its memory stays (a waiter may still hold it). Caller holds ipc_lock. */
static void removeIPC(struct ipc *p) {
	p->removed = 1;
	pthread_cond_broadcast(&p->changed);
}

/* await waits for p to change, until the relative timeout when given: 0,
 * EAGAIN when it ran out, EIDRM when p was removed. Caller holds ipc_lock. */
static int await(struct ipc *p, const struct timespec *timeout) {
	int e;
	if (timeout) {
		struct timespec abs;
		clock_gettime(CLOCK_REALTIME, &abs);
		abs.tv_sec += timeout->tv_sec;
		abs.tv_nsec += timeout->tv_nsec;
		if (abs.tv_nsec >= 1000000000) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000;
		}
		e = pthread_cond_timedwait(&p->changed, &ipc_lock, &abs);
	} else {
		e = pthread_cond_wait(&p->changed, &ipc_lock);
	}
	if (p->removed)
		return EIDRM;
	return e == ETIMEDOUT ? EAGAIN : e;
}

static int sem_fits(struct ipc *p, int nsems) { return nsems <= ((struct semset *)p)->nsems; }

WEAK int semget(key_t key, int nsems, int flags) {
	pthread_mutex_lock(&ipc_lock);
	int id = -1;
	struct ipc *before = sems;
	if (nsems < 0 || nsems > SEM_MAX) {
		errno = EINVAL;
	} else {
		id = get(&sems, key, flags, sizeof(struct semset), sem_fits, nsems);
	}
	if (id >= 0 && sems != before) { /* made: it needs its semaphores */
		struct semset *s = (struct semset *)sems;
		s->nsems = nsems;
		s->vals = calloc(nsems ? nsems : 1, sizeof *s->vals);
		s->ncnt = calloc(nsems ? nsems : 1, sizeof *s->ncnt);
		s->zcnt = calloc(nsems ? nsems : 1, sizeof *s->zcnt);
		s->pids = calloc(nsems ? nsems : 1, sizeof *s->pids);
		if (nsems == 0 || !s->vals || !s->ncnt || !s->zcnt || !s->pids) {
			errno = nsems == 0 ? EINVAL : ENOMEM;
			removeIPC(&s->ipc);
			id = -1;
		}
	}
	pthread_mutex_unlock(&ipc_lock);
	return id;
}

/* blocker returns the first of the n operations that cannot go on now,
 * or -1 when all can. */
static int blocker(struct semset *s, struct sembuf *ops, size_t n) {
	for (size_t i = 0; i < n; i++) {
		int v = s->vals[ops[i].sem_num];
		if ((ops[i].sem_op == 0 && v != 0) || (ops[i].sem_op < 0 && v < -ops[i].sem_op))
			return (int)i;
	}
	return -1;
}

WEAK int semtimedop(int id, struct sembuf *ops, size_t n, const struct timespec *timeout) {
	pthread_mutex_lock(&ipc_lock);
	struct semset *s = (struct semset *)find(sems, id);
	int e = s ? 0 : EINVAL;
	for (size_t i = 0; !e && i < n; i++) {
		if (ops[i].sem_num >= s->nsems)
			e = EFBIG;
		else if (s->vals[ops[i].sem_num] + ops[i].sem_op > SEM_VALUE_LIMIT)
			e = ERANGE;
	}
	int b;
	while (!e && (b = blocker(s, ops, n)) >= 0) {
		if (ops[b].sem_flg & IPC_NOWAIT) {
			e = EAGAIN;
			break;
		}
		int *count = ops[b].sem_op == 0 ? &s->zcnt[ops[b].sem_num] : &s->ncnt[ops[b].sem_num];
		(*count)++;
		e = await(&s->ipc, timeout);
		if (e != EIDRM)
			(*count)--;
	}
	if (!e) {
		for (size_t i = 0; i < n; i++) {
			s->vals[ops[i].sem_num] += ops[i].sem_op;
			s->pids[ops[i].sem_num] = getpid();
		}
		pthread_cond_broadcast(&s->ipc.changed);
	}
	pthread_mutex_unlock(&ipc_lock);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

WEAK int semop(int id, struct sembuf *ops, size_t n) { return semtimedop(id, ops, n, NULL); }

WEAK int semctl(int id, int num, int cmd, ...) {
	union semun arg = {0};
	if (cmd == SETVAL || cmd == SETALL || cmd == GETALL || cmd == IPC_STAT || cmd == IPC_SET) {
		va_list ap;
		va_start(ap, cmd);
		arg = va_arg(ap, union semun);
		va_end(ap);
	}
	pthread_mutex_lock(&ipc_lock);
	struct semset *s = (struct semset *)find(sems, id);
	int result = -1, e = s ? 0 : EINVAL;
	int one = cmd == GETVAL || cmd == SETVAL || cmd == GETNCNT || cmd == GETZCNT || cmd == GETPID;
	if (!e && one && (num < 0 || num >= s->nsems))
		e = EINVAL;
	if (!e) {
		result = 0;
		switch (cmd) {
		case GETVAL: result = s->vals[num]; break;
		case GETNCNT: result = s->ncnt[num]; break;
		case GETZCNT: result = s->zcnt[num]; break;
		case GETPID: result = s->pids[num]; break;
		case SETVAL:
			if (arg.val < 0 || arg.val > SEM_VALUE_LIMIT) {
				e = ERANGE;
				break;
			}
			s->vals[num] = (unsigned short)arg.val;
			pthread_cond_broadcast(&s->ipc.changed);
			break;
		case GETALL: memcpy(arg.array, s->vals, s->nsems * sizeof *s->vals); break;
		case SETALL:
			memcpy(s->vals, arg.array, s->nsems * sizeof *s->vals);
			pthread_cond_broadcast(&s->ipc.changed);
			break;
		case IPC_STAT:
			memset(arg.buf, 0, sizeof *arg.buf);
			arg.buf->sem_perm.__key = s->ipc.key;
			arg.buf->sem_perm.uid = arg.buf->sem_perm.cuid = getuid();
			arg.buf->sem_perm.mode = 0600;
			arg.buf->sem_nsems = s->nsems;
			break;
		case IPC_SET: break;
		case IPC_RMID: removeIPC(&s->ipc); break;
		default: e = EINVAL;
		}
	}
	pthread_mutex_unlock(&ipc_lock);
	if (e) {
		errno = e;
		return -1;
	}
	return result;
}

WEAK int msgget(key_t key, int flags) {
	pthread_mutex_lock(&ipc_lock);
	struct ipc *before = msgqs;
	int id = get(&msgqs, key, flags, sizeof(struct msgqueue), NULL, 0);
	if (id >= 0 && msgqs != before) {
		struct msgqueue *q = (struct msgqueue *)msgqs;
		q->tail = &q->head;
		q->qbytes = MSG_QUEUE;
	}
	pthread_mutex_unlock(&ipc_lock);
	return id;
}

WEAK int msgsnd(int id, const void *p, size_t size, int flags) {
	pthread_mutex_lock(&ipc_lock);
	struct msgqueue *q = (struct msgqueue *)find(msgqs, id);
	long type = *(const long *)p;
	int e = !q ? EINVAL : size > MSG_MAX || type <= 0 ? EINVAL : 0;
	while (!e && q->bytes + size > q->qbytes)
		e = flags & IPC_NOWAIT ? EAGAIN : await(&q->ipc, NULL);
	struct msg *m = NULL;
	if (!e && !(m = malloc(sizeof *m + size)))
		e = ENOMEM;
	if (!e) {
		m->next = NULL;
		m->type = type;
		m->len = size;
		memcpy(m->data, (const char *)p + sizeof(long), size);
		*q->tail = m;
		q->tail = &m->next;
		q->bytes += size;
		q->count++;
		pthread_cond_broadcast(&q->ipc.changed);
	}
	pthread_mutex_unlock(&ipc_lock);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

/* pick returns the link to the message msgrcv takes: the first (type 0),
 * the first of the type (or, with MSG_EXCEPT, of another), or the first
 * of the lowest type at most -type; NULL when there is none. */
static struct msg **pick(struct msgqueue *q, long type, int flags) {
	struct msg **best = NULL;
	for (struct msg **at = &q->head; *at; at = &(*at)->next) {
		long t = (*at)->type;
		if (type == 0 || (type > 0 && ((flags & MSG_EXCEPT) ? t != type : t == type)))
			return at;
		if (type < 0 && t <= -type && (!best || t < (*best)->type))
			best = at;
	}
	return best;
}

WEAK ssize_t msgrcv(int id, void *p, size_t size, long type, int flags) {
	pthread_mutex_lock(&ipc_lock);
	struct msgqueue *q = (struct msgqueue *)find(msgqs, id);
	int e = q ? 0 : EINVAL;
	struct msg **at = NULL;
	while (!e && !(at = pick(q, type, flags)))
		e = flags & IPC_NOWAIT ? ENOMSG : await(&q->ipc, NULL);
	ssize_t n = -1;
	if (!e && (*at)->len > size && !(flags & MSG_NOERROR))
		e = E2BIG;
	if (!e) {
		struct msg *m = *at;
		*at = m->next;
		if (q->tail == &m->next)
			q->tail = at;
		n = (ssize_t)(m->len < size ? m->len : size);
		*(long *)p = m->type;
		memcpy((char *)p + sizeof(long), m->data, (size_t)n);
		q->bytes -= m->len;
		q->count--;
		free(m);
		pthread_cond_broadcast(&q->ipc.changed);
	}
	pthread_mutex_unlock(&ipc_lock);
	if (e)
		errno = e;
	return n;
}

WEAK int msgctl(int id, int cmd, struct msqid_ds *buf) {
	pthread_mutex_lock(&ipc_lock);
	struct msgqueue *q = (struct msgqueue *)find(msgqs, id);
	int e = q ? 0 : EINVAL;
	if (!e) {
		switch (cmd) {
		case IPC_STAT:
			memset(buf, 0, sizeof *buf);
			buf->msg_perm.__key = q->ipc.key;
			buf->msg_perm.uid = buf->msg_perm.cuid = getuid();
			buf->msg_perm.mode = 0600;
			buf->__msg_cbytes = q->bytes;
			buf->msg_qnum = q->count;
			buf->msg_qbytes = q->qbytes;
			break;
		case IPC_SET:
			q->qbytes = buf->msg_qbytes;
			pthread_cond_broadcast(&q->ipc.changed);
			break;
		case IPC_RMID: removeIPC(&q->ipc); break;
		default: e = EINVAL;
		}
	}
	pthread_mutex_unlock(&ipc_lock);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}
