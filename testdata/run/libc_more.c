/* More of the C library against glibc: memmem, strsignal and psignal;
 * <search.h>'s trees, linear search and hash table; scandir, glob and
 * nftw over a directory the program makes; mkdtemp, mkstemps, truncate,
 * sendfile, fgetpos and fsetpos, readlink of a file, clock_getres,
 * getrandom's count; disarmed interval timers; the C locale's localeconv, nl_langinfo, multibyte
 * and wide-character functions; flockfile's recursion; if_nametoindex of
 * the loopback; the rounding mode; CPU_COUNT. Prints the same natively and under augur (walk orders
 * are sorted: a real file system lists in an order of its own). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <ftw.h>
#include <glob.h>
#include <langinfo.h>
#include <locale.h>
#include <net/if.h>
#include <search.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <sched.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void keep_key(void *key) { (void)key; }

static void visit(const void *node, VISIT v, int depth) {
	(void)depth;
	if (v == postorder || v == leaf)
		printf(" %d", **(int *const *)node);
}

static char *walked[32];
static int nwalked;
static int record(const char *path, const struct stat *st, int type, struct FTW *f) {
	char buf[128];
	snprintf(buf, sizeof buf, "%s %s level %d base %s", path, type == FTW_D ? "dir" : type == FTW_DP ? "dir-after" : "file",
		 f->level, path + f->base);
	walked[nwalked++] = strdup(buf);
	return 0;
}

static void strings_and_signals(void) {
	const char hay[] = "abc\0def\0ghi";
	char *m = memmem(hay, sizeof hay, "f\0g", 3);
	printf("memmem at %td, missing %p, empty at %td\n", m - hay, memmem(hay, sizeof hay, "xyz", 3),
	       (char *)memmem(hay, sizeof hay, "", 0) - hay);
	printf("%s / %s / %s / %s\n", strsignal(SIGSEGV), strsignal(SIGTERM), strsignal(SIGRTMIN + 2), strsignal(99));
	psignal(SIGINT, "got");
}

static void searching(void) {
	static int keys[] = {50, 20, 80, 10, 30, 70, 90, 25};
	void *root = NULL;
	for (int i = 0; i < 8; i++)
		tsearch(&keys[i], &root, cmp_int);
	int again = 30, missing = 33;
	printf("tsearch of a present key: %d, tfind: %d, missing: %p\n", **(int **)tsearch(&again, &root, cmp_int) == 30,
	       **(int **)tfind(&again, &root, cmp_int), tfind(&missing, &root, cmp_int));
	printf("in order:");
	twalk(root, visit);
	printf("\n");
	tdelete(&keys[0], &root, cmp_int);
	tdelete(&keys[3], &root, cmp_int);
	printf("after deleting 50 and 10:");
	twalk(root, visit);
	printf("\n");
	tdestroy(root, keep_key);

	int arr[8] = {4, 8, 15};
	size_t n = 3;
	int k = 15, j = 16;
	printf("lfind 15 at %td, lsearch 16 at %td (n %zu), again at %td (n %zu)\n", (int *)lfind(&k, arr, &n, sizeof(int), cmp_int) - arr,
	       (int *)lsearch(&j, arr, &n, sizeof(int), cmp_int) - arr, n, (int *)lsearch(&j, arr, &n, sizeof(int), cmp_int) - arr, n);

	hcreate(16);
	static char *words[] = {"alpha", "beta", "gamma"};
	for (int i = 0; i < 3; i++)
		hsearch((ENTRY){words[i], (void *)(long)(i + 1)}, ENTER);
	ENTRY *e = hsearch((ENTRY){"beta", NULL}, FIND);
	printf("hsearch beta: %ld, delta: %p\n", (long)e->data, (void *)hsearch((ENTRY){"delta", NULL}, FIND));
	hdestroy();
}

static void directories(void) {
	mkdir("tree", 0755);
	mkdir("tree/sub", 0755);
	const char *files[] = {"tree/b.txt", "tree/a.txt", "tree/c.log", "tree/sub/d.txt", "tree/.hidden.txt"};
	for (int i = 0; i < 5; i++)
		close(open(files[i], O_CREAT | O_WRONLY, 0644));
	struct dirent **list;
	int n = scandir("tree", &list, NULL, alphasort);
	printf("scandir %d:", n);
	for (int i = 0; i < n; i++) {
		printf(" %s", list[i]->d_name);
		free(list[i]);
	}
	free(list);
	printf("\n");

	glob_t g;
	int r = glob("tree/*.txt", 0, NULL, &g);
	printf("glob %d:", r);
	for (size_t i = 0; i < g.gl_pathc; i++)
		printf(" %s", g.gl_pathv[i]);
	globfree(&g);
	r = glob("tree/*/*.txt", GLOB_MARK, NULL, &g);
	printf("; %d:", r);
	for (size_t i = 0; i < g.gl_pathc; i++)
		printf(" %s", g.gl_pathv[i]);
	globfree(&g);
	r = glob("tree/s*", GLOB_MARK, NULL, &g);
	printf("; marked %d: %s", r, g.gl_pathv[0]);
	globfree(&g);
	printf("; none %d", glob("tree/*.png", 0, NULL, &g));
	r = glob("tree/*.png", GLOB_NOCHECK, NULL, &g);
	printf("; nocheck %d: %s\n", r, g.gl_pathv[0]);
	globfree(&g);

	nftw("tree", record, 8, 0);
	nftw("tree/sub", record, 8, FTW_DEPTH);
	qsort(walked, nwalked, sizeof *walked, cmp_str);
	for (int i = 0; i < nwalked; i++)
		printf("nftw: %s\n", walked[i]);
}

static void files(void) {
	/* Names taken already (augur's first two candidates): the next is tried. */
	mkdir("tmp000001", 0700);
	mkdir("tmp000002", 0700);
	char dir[] = "tmpXXXXXX";
	printf("mkdtemp: %d, changed %d\n", mkdtemp(dir) != NULL, strcmp(dir, "tmpXXXXXX") != 0);
	char name[] = "fileXXXXXX.dat";
	int fd = mkstemps(name, 4);
	printf("mkstemps: %d, suffix kept %d\n", fd >= 0, strcmp(name + 10, ".dat") == 0);
	write(fd, "0123456789", 10);
	close(fd);
	truncate(name, 4);
	struct stat st;
	stat(name, &st);
	printf("truncated to %ld\n", (long)st.st_size);
	int in = open(name, O_RDONLY), out = open("copy.dat", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	off_t off = 1;
	printf("sendfile %zd, offset now %ld\n", sendfile(out, in, &off, 100), (long)off);
	close(in);
	close(out);
	char buf[16] = {0};
	in = open("copy.dat", O_RDONLY);
	read(in, buf, sizeof buf - 1);
	close(in);
	printf("copied: %s\n", buf);
	errno = 0;
	printf("readlink of a file: %zd %s\n", readlink(name, buf, sizeof buf), strerror(errno));

	FILE *f = fopen(name, "r");
	fpos_t pos;
	fgetc(f);
	fgetpos(f, &pos);
	int c1 = fgetc(f);
	fsetpos(f, &pos);
	printf("fsetpos reads %c again: %c\n", c1, fgetc(f));
	flockfile(f);
	printf("ftrylockfile while held: %d\n", ftrylockfile(f));
	funlockfile(f);
	funlockfile(f);
	fclose(f);

	struct itimerval timer = {{0, 0}, {0, 0}};
	printf("setitimer to nothing %d, ", setitimer(ITIMER_REAL, &timer, NULL));
	timer.it_value.tv_sec = 7;
	printf("getitimer %d: disarmed %d\n", getitimer(ITIMER_REAL, &timer), timer.it_value.tv_sec == 0);

	struct timespec res;
	clock_getres(CLOCK_MONOTONIC, &res);
	unsigned char rnd[16];
	printf("clock resolution %ld ns, getrandom %zd\n", res.tv_nsec, getrandom(rnd, sizeof rnd, 0));
}

static void locale_and_wide(void) {
	setlocale(LC_ALL, "C");
	struct lconv *lc = localeconv();
	printf("decimal point '%s', thousands '%s', codeset %s, %s %s %s\n", lc->decimal_point, lc->thousands_sep,
	       nl_langinfo(CODESET), nl_langinfo(DAY_2), nl_langinfo(ABMON_3), nl_langinfo(D_T_FMT));
	wchar_t w[16];
	size_t n = mbstowcs(w, "Hello", 16);
	char back[16];
	printf("mbstowcs %zu, wcslen %zu, wcstombs %zu: %s\n", n, wcslen(w), wcstombs(back, w, sizeof back), back);
	wchar_t wc;
	errno = 0;
	printf("mbrtowc of 'A' %zu (%d), of 0xc3: %zd %s\n", mbrtowc(&wc, "A", 1, NULL), (int)wc, (ssize_t)mbrtowc(&wc, "\xc3\xa9", 2, NULL),
	       strerror(errno));
	wchar_t copy[16];
	wcscpy(copy, L"abc");
	printf("towupper %lc, wcscmp %d, iswalpha %d, MB_CUR_MAX %zu\n", (wint_t)towupper(L'q'), wcscmp(copy, L"abd") < 0,
	       iswalpha(L'z') != 0, MB_CUR_MAX);
	printf("loopback index %u; rounding %d, set to nearest %d\n", if_nametoindex("lo"), fegetround() == FE_TONEAREST,
	       fesetround(FE_TONEAREST));
}

int main(void) {
	strings_and_signals();
	searching();
	directories();
	files();
	locale_and_wide();
	cpu_set_t cpus;
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	CPU_SET(5, &cpus);
	CPU_SET(64, &cpus);
	cpu_set_t mine;
	printf("CPU_COUNT %d, of the affinity mask > 0: %d\n", CPU_COUNT(&cpus),
	       sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_COUNT(&mine) > 0);
	return 0;
}
