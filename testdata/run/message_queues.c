/* POSIX message queues and System V semaphores and message queues, as
 * programs use them between threads: a producer fills a small POSIX
 * queue past its limit (so it waits for the consumer) with messages of
 * three priorities, which come out in order within a priority; a full
 * queue's messages come out highest priority first; a nonblocking receive of an empty queue fails with EAGAIN
 * and a timed one with ETIMEDOUT; a System V semaphore set guards a
 * counter two threads add to (semop with -1 and +1), and a two-operation
 * semop either takes both or waits; a System V message queue carries
 * typed messages a thread picks by type; removing a semaphore set wakes
 * its waiter with EIDRM; posix_fallocate grows a file. The output must be
 * native's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char qname[64];
static int semid, msgid;
static long counter;

static void *producer(void *arg) {
	(void)arg;
	mqd_t q = mq_open(qname, O_WRONLY);
	for (int i = 0; i < 9; i++) {
		char m[32];
		int n = snprintf(m, sizeof m, "message %d", i);
		mq_send(q, m, n, (unsigned)(i % 3));
	}
	mq_send(q, "stop", 4, 0);
	mq_close(q);
	return NULL;
}

static void *adder(void *arg) {
	(void)arg;
	struct sembuf down = {0, -1, 0}, up = {0, 1, 0};
	for (int i = 0; i < 50; i++) {
		semop(semid, &down, 1);
		counter++;
		semop(semid, &up, 1);
	}
	return NULL;
}

struct typed {
	long type;
	char text[24];
};

static void *sender(void *arg) {
	(void)arg;
	struct typed m[] = {{3, "three"}, {1, "one"}, {2, "two"}, {5, "five"}, {1, "one again"}};
	for (int i = 0; i < 5; i++)
		msgsnd(msgid, &m[i], strlen(m[i].text) + 1, 0);
	return NULL;
}

static void *waiter(void *arg) {
	struct sembuf both[2] = {{0, -1, 0}, {1, -1, 0}};
	int id = *(int *)arg;
	int r = semop(id, both, 2);
	return (void *)(long)(r == 0 ? 0 : errno);
}

/* blocked waits until a thread waits in a semop on set id: a sleep alone
 * let the set's removal come first on a loaded machine, natively, and the
 * waiter then failed with EINVAL instead of EIDRM. */
static void blocked(int id) {
	struct timespec nap = {0, 1000000};
	while (semctl(id, 0, GETNCNT) + semctl(id, 1, GETNCNT) == 0)
		nanosleep(&nap, NULL);
}

int main(void) {
	snprintf(qname, sizeof qname, "/augur_mq_%d", (int)getpid());
	struct mq_attr attr = {.mq_maxmsg = 4, .mq_msgsize = 64};
	mqd_t q = mq_open(qname, O_CREAT | O_EXCL | O_RDONLY, 0600, &attr);
	printf("open %d, again with O_EXCL: %d EEXIST %d\n", q >= 0, mq_open(qname, O_CREAT | O_EXCL | O_RDONLY, 0600, &attr) == (mqd_t)-1, errno == EEXIST);
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	struct timespec pause = {0, 2000000};
	nanosleep(&pause, NULL); /* the producer fills the queue and waits */
	char buf[64];
	unsigned prio;
	ssize_t n;
	int got = 0, last[3] = {-1, -1, -1}, in_order = 1;
	while ((n = mq_receive(q, buf, sizeof buf, &prio)) > 0 && strncmp(buf, "stop", 4) != 0) {
		int i = -1;
		sscanf(buf, "message %d", &i);
		in_order &= prio < 3 && i % 3 == (int)prio && i > last[prio];
		last[prio] = i;
		got++;
	}
	pthread_join(t, NULL);
	printf("received %d through a full queue, in order within each priority: %d\n", got, in_order);
	mqd_t w = mq_open(qname, O_WRONLY);
	const char *words[] = {"low", "high", "middle", "higher"};
	unsigned prios[] = {1, 7, 4, 7};
	for (int i = 0; i < 4; i++)
		mq_send(w, words[i], strlen(words[i]), prios[i]);
	errno = 0;
	struct mq_attr nbw = {.mq_flags = O_NONBLOCK};
	mq_setattr(w, &nbw, NULL);
	printf("full, nonblocking send: %d EAGAIN %d\n", mq_send(w, "x", 1, 0), errno == EAGAIN);
	mq_close(w);
	for (int i = 0; i < 4; i++) {
		n = mq_receive(q, buf, sizeof buf, &prio);
		printf("%.*s (priority %u)\n", (int)n, buf, prio);
	}
	errno = 0;
	printf("small buffer: %zd EMSGSIZE %d\n", mq_receive(q, buf, 8, NULL), errno == EMSGSIZE);
	struct mq_attr a;
	mq_getattr(q, &a);
	printf("attr: max %ld size %ld now %ld\n", a.mq_maxmsg, a.mq_msgsize, a.mq_curmsgs);
	struct timespec soon;
	clock_gettime(CLOCK_REALTIME, &soon);
	soon.tv_nsec += 1000000;
	if (soon.tv_nsec >= 1000000000) {
		soon.tv_sec++;
		soon.tv_nsec -= 1000000000;
	}
	errno = 0;
	printf("timed receive: %zd ETIMEDOUT %d\n", mq_timedreceive(q, buf, sizeof buf, NULL, &soon), errno == ETIMEDOUT);
	struct mq_attr nb = {.mq_flags = O_NONBLOCK};
	mq_setattr(q, &nb, NULL);
	errno = 0;
	printf("nonblocking receive: %zd EAGAIN %d\n", mq_receive(q, buf, sizeof buf, NULL), errno == EAGAIN);
	errno = 0;
	printf("send on a read-only descriptor: %d EBADF %d\n", mq_send(q, "x", 1, 0), errno == EBADF);
	printf("unlink %d, open after: %d ENOENT %d\n", mq_unlink(qname), mq_open(qname, O_RDONLY) == (mqd_t)-1, errno == ENOENT);
	printf("close %d\n", mq_close(q));

	semid = semget(IPC_PRIVATE, 2, IPC_CREAT | 0600);
	semctl(semid, 0, SETVAL, 1);
	pthread_t adders[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&adders[i], NULL, adder, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(adders[i], NULL);
	printf("counter %ld, semaphore %d\n", counter, semctl(semid, 0, GETVAL));
	struct sembuf nowait = {1, -1, IPC_NOWAIT};
	errno = 0;
	printf("IPC_NOWAIT on zero: %d EAGAIN %d\n", semop(semid, &nowait, 1), errno == EAGAIN);
	pthread_create(&t, NULL, waiter, &semid);
	blocked(semid);
	struct sembuf up1 = {1, 1, 0};
	semop(semid, &up1, 1); /* the waiter needs both: semaphore 0 is 1, 1 is now 1 */
	void *r;
	pthread_join(t, &r);
	unsigned short vals[2];
	semctl(semid, 0, GETALL, vals);
	printf("waiter took both: %ld, values %d %d\n", (long)r, vals[0], vals[1]);
	pthread_create(&t, NULL, waiter, &semid);
	blocked(semid);
	semctl(semid, 0, IPC_RMID);
	pthread_join(t, &r);
	printf("waiter on a removed set: EIDRM %d\n", (long)r == EIDRM);

	msgid = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	pthread_create(&t, NULL, sender, NULL);
	struct typed m;
	long picks[] = {2, -2, 0, 5, 0};
	for (int i = 0; i < 5; i++) {
		ssize_t k = msgrcv(msgid, &m, sizeof m.text, picks[i], 0);
		printf("picked with %ld: type %ld \"%s\" (%zd bytes)\n", picks[i], m.type, m.text, k);
	}
	pthread_join(t, NULL);
	errno = 0;
	printf("empty with IPC_NOWAIT: %zd ENOMSG %d\n", msgrcv(msgid, &m, sizeof m.text, 0, IPC_NOWAIT), errno == ENOMSG);
	struct typed big = {7, "a longer message"};
	msgsnd(msgid, &big, strlen(big.text) + 1, 0);
	errno = 0;
	printf("too small: %zd E2BIG %d; ", msgrcv(msgid, &m, 4, 0, 0), errno == E2BIG);
	memset(m.text, 0, sizeof m.text);
	printf("MSG_NOERROR: %zd \"%.4s\"\n", msgrcv(msgid, &m, 4, 0, MSG_NOERROR), m.text);
	struct msqid_ds ds;
	msgctl(msgid, IPC_STAT, &ds);
	printf("queue: %lu messages, room %lu\n", (unsigned long)ds.msg_qnum, (unsigned long)ds.msg_qbytes);
	printf("remove %d, then %d\n", msgctl(msgid, IPC_RMID, NULL), msgsnd(msgid, &big, 4, 0));

	char path[64];
	snprintf(path, sizeof path, "/tmp/augur_falloc_%d", (int)getpid());
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	write(fd, "abc", 3);
	struct stat st;
	printf("posix_fallocate %d", posix_fallocate(fd, 0, 4096));
	fstat(fd, &st);
	printf(", size %ld\n", (long)st.st_size);
	close(fd);
	unlink(path);
	return 0;
}
