/* scripts/apps.sh's driver for SQLite (augur's own code, not SQLite's):
 * two threads, each with its own connection to one database file, insert
 * rows in transactions that contend for the file's write lock (a busy
 * timeout makes the loser wait and retry), then main reads the table back
 * and prints it. What it prints does not depend on the schedule: every
 * row's key is chosen by its thread, and main prints in key order.
 *
 * Usage: sqlite_driver [FILE] [ROWS] [shared]; FILE defaults to
 * driver.db, ROWS (per thread) to 4; "shared" opens the connections in
 * shared-cache mode, where they share one page cache and b-tree (and lock
 * tables, not the file: a conflict is SQLITE_LOCKED, which the driver
 * waits out itself). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sqlite3.h"

static const char *path = "driver.db";
static int rows = 4;

/* retry runs a statement step or an exec until it is not refused by the
 * other connection's lock: SQLITE_BUSY outlasts the busy timeout only if
 * the other thread holds its lock that long, and SQLITE_LOCKED (shared
 * cache) never waits by itself. */
#define retry(call)                                                                                                    \
	({                                                                                                             \
		int rc_;                                                                                               \
		while ((rc_ = (call)) == SQLITE_BUSY || rc_ == SQLITE_LOCKED)                                          \
			usleep(1000);                                                                                  \
		rc_;                                                                                                   \
	})

/* check reports a failed call on db and exits: the driver expects every
 * call to succeed once the busy timeout has waited out the other thread. */
static void check(sqlite3 *db, int rc, const char *what) {
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
		fprintf(stderr, "%s: %s (%d)\n", what, db ? sqlite3_errmsg(db) : "no connection", rc);
		exit(1);
	}
}

static sqlite3 *openDB(void) {
	sqlite3 *db = NULL;
	check(db, sqlite3_open(path, &db), "open");
	check(db, sqlite3_busy_timeout(db, 5000), "busy_timeout");
	return db;
}

/* writer inserts its rows, one transaction per row pair, through a
 * prepared statement with bound parameters. */
static void *writer(void *arg) {
	int id = (int)(long)arg;
	sqlite3 *db = openDB();
	sqlite3_stmt *ins;
	check(db, sqlite3_prepare_v2(db, "INSERT INTO item(k, owner, name) VALUES(?, ?, ?)", -1, &ins, NULL), "prepare");
	for (int i = 0; i < rows; i += 2) {
		check(db, retry(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL)), "begin");
		for (int j = i; j < i + 2 && j < rows; j++) {
			char name[32];
			snprintf(name, sizeof name, "t%d-row%d", id, j);
			sqlite3_bind_int(ins, 1, id * 1000 + j);
			sqlite3_bind_int(ins, 2, id);
			sqlite3_bind_text(ins, 3, name, -1, SQLITE_TRANSIENT);
			check(db, retry(sqlite3_step(ins)), "insert");
			sqlite3_reset(ins);
		}
		check(db, retry(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL)), "commit");
	}
	sqlite3_finalize(ins);
	check(db, sqlite3_close(db), "close");
	return NULL;
}

static int printRow(void *unused, int n, char **values, char **names) {
	(void)unused;
	(void)names;
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? " " : "", values[i] ? values[i] : "NULL");
	printf("\n");
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1)
		path = argv[1];
	if (argc > 2)
		rows = atoi(argv[2]);
	if (argc > 3 && argv[3][0] == 's')
		sqlite3_enable_shared_cache(1);
	unlink(path);
	sqlite3 *db = openDB();
	check(db, sqlite3_exec(db, "CREATE TABLE item(k INTEGER PRIMARY KEY, owner INTEGER, name TEXT)", NULL, NULL, NULL),
	      "create");
	pthread_t th[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, writer, (void *)(i + 1));
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	check(db, sqlite3_exec(db, "SELECT owner, count(*), sum(k) FROM item GROUP BY owner ORDER BY owner", printRow, NULL, NULL),
	      "count");
	check(db, sqlite3_exec(db, "SELECT k, name FROM item ORDER BY k", printRow, NULL, NULL), "select");
	check(db, sqlite3_close(db), "close");
	unlink(path);
	return 0;
}
