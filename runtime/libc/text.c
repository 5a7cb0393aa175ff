/* Text utilities real programs call that are plain computation: shell
 * patterns (fnmatch), time parsing (strptime), BSD's <err.h> messages, and
 * <execinfo.h>'s backtraces (which augur cannot give: the interpreted
 * program has no return addresses, so a backtrace is empty). */
#define _GNU_SOURCE
#include <ctype.h>
#include <err.h>
#include <errno.h>
#include <execinfo.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define WEAK __attribute__((weak))

/* fold is c, lower-cased under FNM_CASEFOLD. */
static int fold(int c, int flags) { return (flags & FNM_CASEFOLD) ? tolower((unsigned char)c) : c; }

/* bracket matches c against the bracket expression at *pp (after '['),
 * advancing *pp past its ']'. It returns 1 or 0, or -1 when the bracket
 * is not closed (then '[' is an ordinary character). */
static int bracket(const char **pp, int c, int flags) {
	const char *p = *pp;
	int negate = *p == '!' || *p == '^';
	if (negate)
		p++;
	int matched = 0;
	for (int first = 1; first || *p != ']'; first = 0) {
		if (*p == 0)
			return -1;
		int lo = (unsigned char)*p++;
		if (lo == '\\' && !(flags & FNM_NOESCAPE) && *p)
			lo = (unsigned char)*p++;
		int hi = lo;
		if (*p == '-' && p[1] && p[1] != ']') {
			p++;
			hi = (unsigned char)*p++;
			if (hi == '\\' && !(flags & FNM_NOESCAPE) && *p)
				hi = (unsigned char)*p++;
		}
		if (fold(lo, flags) <= fold(c, flags) && fold(c, flags) <= fold(hi, flags))
			matched = 1;
	}
	*pp = p + 1;
	return matched != negate;
}

/* match is fnmatch on the rest of pattern p and string s; start is the
 * beginning of the string, for FNM_PERIOD. */
static int match(const char *p, const char *s, const char *start, int flags) {
	for (; *p; p++, s++) {
		int leadingDot = *s == '.' && (flags & FNM_PERIOD) &&
				 (s == start || ((flags & FNM_PATHNAME) && s[-1] == '/'));
		switch (*p) {
		case '?':
			if (*s == 0 || (*s == '/' && (flags & FNM_PATHNAME)) || leadingDot)
				return FNM_NOMATCH;
			break;
		case '*':
			if (leadingDot)
				return FNM_NOMATCH;
			while (p[1] == '*')
				p++;
			for (const char *t = s;; t++) {
				if (match(p + 1, t, start, flags) == 0)
					return 0;
				if (*t == 0 || (*t == '/' && (flags & FNM_PATHNAME)))
					return FNM_NOMATCH;
			}
		case '[': {
			if (*s == 0 || (*s == '/' && (flags & FNM_PATHNAME)) || leadingDot)
				return FNM_NOMATCH;
			const char *q = p + 1;
			int r = bracket(&q, (unsigned char)*s, flags);
			if (r == 0)
				return FNM_NOMATCH;
			if (r == 1) {
				p = q - 1;
				break;
			}
			if (*s != '[') /* unclosed: a literal '[' */
				return FNM_NOMATCH;
			break;
		}
		case '\\':
			if (!(flags & FNM_NOESCAPE) && p[1])
				p++;
			/* fall through */
		default:
			if (fold(*p, flags) != fold(*s, flags))
				return FNM_NOMATCH;
		}
	}
	if (*s == 0 || ((flags & FNM_LEADING_DIR) && *s == '/'))
		return 0;
	return FNM_NOMATCH;
}

WEAK int fnmatch(const char *pattern, const char *string, int flags) { return match(pattern, string, string, flags); }

static const char *const days[] = {"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"};
static const char *const months[] = {"january", "february", "march",     "april",   "may",      "june",
				     "july",    "august",   "september", "october", "november", "december"};

/* number reads an unsigned decimal of at most width digits into *v,
 * within [lo, hi]; it returns the rest, or NULL. */
static const char *number(const char *s, int width, int lo, int hi, int *v) {
	int n = 0, digits = 0;
	int neg = 0;
	if (*s == '+' || *s == '-') {
		neg = *s == '-';
		s++;
	}
	while (digits < width && isdigit((unsigned char)*s)) {
		n = n * 10 + (*s++ - '0');
		digits++;
	}
	if (digits == 0)
		return NULL;
	if (neg)
		n = -n;
	if (n < lo || n > hi)
		return NULL;
	*v = n;
	return s;
}

/* name reads one of n names (full, or its first three letters), case
 * insensitively, into *v. */
static const char *name(const char *s, const char *const *names, int n, int *v) {
	for (int i = 0; i < n; i++) {
		size_t full = strlen(names[i]);
		if (strncasecmp(s, names[i], full) == 0) {
			*v = i;
			return s + full;
		}
		if (strncasecmp(s, names[i], 3) == 0) {
			*v = i;
			return s + 3;
		}
	}
	return NULL;
}

/* The days of the year before each month, in common and leap years. */
static const int monthStart[2][13] = {{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
				      {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};

static int leap(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

/* weekday sets tm_wday from the date: days from 1970-01-01, a Thursday,
 * with the leap days before the year (January and February count the
 * year before's). */
static void weekday(struct tm *tm) {
	long y = 1900L + tm->tm_year - (tm->tm_mon < 2);
	long leaps = y / 4 - y / 100 + y / 400 - (1969 / 4 - 1969 / 100 + 1969 / 400);
	long days = 365L * (tm->tm_year - 70) + leaps + monthStart[0][tm->tm_mon % 12] + tm->tm_mday - 1;
	tm->tm_wday = (int)(((days + 4) % 7 + 7) % 7);
}

/* What parseTime saw, for strptime's last step. A call is one thread's,
 * and strptime calls parseTime once (nested formats go through parse). */
static __thread int wantDays, haveWday, haveYday, haveMon, haveMday;

static char *parse(const char *s, const char *f, struct tm *tm);

static char *parseTime(const char *s, const char *f, struct tm *tm) {
	wantDays = haveWday = haveYday = haveMon = haveMday = 0;
	return parse(s, f, tm);
}

/* __augur_fill_days is strptime's last step, and libstdc++'s time_get's
 * (runtime/cxx/locale.cc): from a date it parsed, it fills in the
 * weekday and the day of the year (and from a day of the year, the month
 * and the day), each only when it was not parsed itself, as glibc's
 * strptime does. */
void __augur_fill_days(struct tm *tm, int haveWday, int haveYday, int haveMon, int haveMday) {
	int isLeap = leap(1900 + tm->tm_year);
	if (!haveWday) {
		if (!(haveMon && haveMday) && haveYday) {
			int mon = 0;
			while (mon < 12 && monthStart[isLeap][mon + 1] <= tm->tm_yday)
				mon++;
			if (!haveMon)
				tm->tm_mon = mon;
			if (!haveMday)
				tm->tm_mday = tm->tm_yday - monthStart[isLeap][mon] + 1;
		}
		weekday(tm);
	}
	if (!haveYday)
		tm->tm_yday = monthStart[isLeap][tm->tm_mon % 12] + tm->tm_mday - 1;
}

/* strptime parses the conversions of C and POSIX (%a %A %b %B %h %c %C
 * %d %e %D %F %H %I %j %m %M %n %t %p %r %R %S %T %y %Y %z %%) into tm,
 * leaving the fields it does not parse alone, and then fills in the days
 * it can (__augur_fill_days). */
WEAK char *strptime(const char *s, const char *f, struct tm *tm) {
	char *end = parseTime(s, f, tm);
	if (end && wantDays)
		__augur_fill_days(tm, haveWday, haveYday, haveMon, haveMday);
	return end;
}

static char *parse(const char *s, const char *f, struct tm *tm) {
	int v, pm = -1, hour12 = -1, century = -1, year2 = -1;
	for (; *f; f++) {
		if (isspace((unsigned char)*f)) {
			while (isspace((unsigned char)*s))
				s++;
			continue;
		}
		if (*f != '%') {
			if (*s++ != *f)
				return NULL;
			continue;
		}
		f++;
		if (*f == 'E' || *f == 'O')
			f++;
		if (*f != 'n' && *f != 't' && *f != '%')
			while (isspace((unsigned char)*s))
				s++;
		switch (*f) {
		case 'a':
		case 'A':
			s = name(s, days, 7, &tm->tm_wday);
			haveWday = 1;
			break;
		case 'b':
		case 'B':
		case 'h':
			s = name(s, months, 12, &tm->tm_mon);
			haveMon = wantDays = 1;
			break;
		case 'c':
			s = parse(s, "%a %b %e %H:%M:%S %Y", tm);
			break;
		case 'C':
			if ((s = number(s, 2, 0, 99, &v)))
				century = v;
			wantDays = 1;
			break;
		case 'd':
		case 'e':
			s = number(s, 2, 1, 31, &tm->tm_mday);
			haveMday = wantDays = 1;
			break;
		case 'D':
			s = parse(s, "%m/%d/%y", tm);
			break;
		case 'F':
			s = parse(s, "%Y-%m-%d", tm);
			break;
		case 'H':
			s = number(s, 2, 0, 23, &tm->tm_hour);
			break;
		case 'I':
			if ((s = number(s, 2, 1, 12, &v)))
				hour12 = v;
			break;
		case 'j':
			if ((s = number(s, 3, 1, 366, &v)))
				tm->tm_yday = v - 1;
			haveYday = wantDays = 1;
			break;
		case 'm':
			if ((s = number(s, 2, 1, 12, &v)))
				tm->tm_mon = v - 1;
			haveMon = wantDays = 1;
			break;
		case 'M':
			s = number(s, 2, 0, 59, &tm->tm_min);
			break;
		case 'n':
		case 't':
			while (isspace((unsigned char)*s))
				s++;
			break;
		case 'p':
			if (strncasecmp(s, "am", 2) == 0)
				pm = 0;
			else if (strncasecmp(s, "pm", 2) == 0)
				pm = 1;
			else
				return NULL;
			s += 2;
			break;
		case 'r':
			s = parse(s, "%I:%M:%S %p", tm);
			break;
		case 'R':
			s = parse(s, "%H:%M", tm);
			break;
		case 'S':
			s = number(s, 2, 0, 61, &tm->tm_sec);
			break;
		case 'T':
			s = parse(s, "%H:%M:%S", tm);
			break;
		case 'y':
			if ((s = number(s, 2, 0, 99, &v))) {
				year2 = v;
				tm->tm_year = v >= 69 ? v : v + 100; /* at once, as glibc */
			}
			wantDays = 1;
			break;
		case 'Y':
			if ((s = number(s, 4, -9999, 9999, &v)))
				tm->tm_year = v - 1900;
			wantDays = 1;
			break;
		case 'z': {
			int sign = *s == '-' ? -1 : 1;
			if (*s != '+' && *s != '-')
				return NULL;
			s++;
			int hh, mm = 0;
			if (!(s = number(s, 2, 0, 23, &hh)))
				return NULL;
			if (*s == ':')
				s++;
			if (isdigit((unsigned char)*s) && !(s = number(s, 2, 0, 59, &mm)))
				return NULL;
			tm->tm_gmtoff = sign * (hh * 3600 + mm * 60);
			break;
		}
		case '%':
			if (*s++ != '%')
				return NULL;
			break;
		default:
			return NULL;
		}
		if (!s)
			return NULL;
	}
	if (hour12 >= 0)
		tm->tm_hour = hour12 % 12 + (pm == 1 ? 12 : 0);
	else if (pm == 1 && tm->tm_hour < 12)
		tm->tm_hour += 12;
	if (year2 >= 0)
		tm->tm_year = (century >= 0 ? century * 100 : year2 < 69 ? 2000 : 1900) + year2 - 1900;
	else if (century >= 0)
		tm->tm_year = century * 100 - 1900;
	return (char *)s;
}

/* <err.h>: the program's short name, the message, and for warn and err
 * the error's text, on standard error; err and errx exit. */
WEAK void vwarn(const char *fmt, va_list ap) {
	int e = errno;
	fprintf(stderr, "%s: ", program_invocation_short_name);
	if (fmt) {
		vfprintf(stderr, fmt, ap);
		fputs(": ", stderr);
	}
	fprintf(stderr, "%s\n", strerror(e));
}
WEAK void vwarnx(const char *fmt, va_list ap) {
	fprintf(stderr, "%s: ", program_invocation_short_name);
	if (fmt)
		vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}
WEAK void verr(int status, const char *fmt, va_list ap) {
	vwarn(fmt, ap);
	exit(status);
}
WEAK void verrx(int status, const char *fmt, va_list ap) {
	vwarnx(fmt, ap);
	exit(status);
}
WEAK void warn(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}
WEAK void warnx(const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	vwarnx(fmt, ap);
	va_end(ap);
}
WEAK void err(int status, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	verr(status, fmt, ap);
}
WEAK void errx(int status, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	verrx(status, fmt, ap);
}

/* Backtraces: none (see above). backtrace_symbols of no frames is an
 * empty array that free takes. */
WEAK int backtrace(void **buf, int size) { return 0; }
WEAK char **backtrace_symbols(void *const *buf, int size) { return calloc(1, sizeof(char *)); }
WEAK void backtrace_symbols_fd(void *const *buf, int size, int fd) {}

WEAK void *memmem(const void *hay, size_t n, const void *needle, size_t k) {
	const unsigned char *h = hay;
	if (k == 0)
		return (void *)hay;
	for (size_t i = 0; i + k <= n; i++)
		if (h[i] == *(const unsigned char *)needle && memcmp(h + i, needle, k) == 0)
			return (void *)(h + i);
	return NULL;
}

static const char *const signal_names[] = {
	[SIGHUP] = "Hangup", [SIGINT] = "Interrupt", [SIGQUIT] = "Quit", [SIGILL] = "Illegal instruction",
	[SIGTRAP] = "Trace/breakpoint trap", [SIGABRT] = "Aborted", [SIGBUS] = "Bus error",
	[SIGFPE] = "Floating point exception", [SIGKILL] = "Killed", [SIGUSR1] = "User defined signal 1",
	[SIGSEGV] = "Segmentation fault", [SIGUSR2] = "User defined signal 2", [SIGPIPE] = "Broken pipe",
	[SIGALRM] = "Alarm clock", [SIGTERM] = "Terminated", [SIGSTKFLT] = "Stack fault",
	[SIGCHLD] = "Child exited", [SIGCONT] = "Continued", [SIGSTOP] = "Stopped (signal)",
	[SIGTSTP] = "Stopped", [SIGTTIN] = "Stopped (tty input)", [SIGTTOU] = "Stopped (tty output)",
	[SIGURG] = "Urgent I/O condition", [SIGXCPU] = "CPU time limit exceeded",
	[SIGXFSZ] = "File size limit exceeded", [SIGVTALRM] = "Virtual timer expired",
	[SIGPROF] = "Profiling timer expired", [SIGWINCH] = "Window changed", [SIGIO] = "I/O possible",
	[SIGPWR] = "Power failure", [SIGSYS] = "Bad system call",
};

/* strsignal and psignal name signals as glibc does. */
WEAK char *strsignal(int sig) {
	static __thread char buf[40];
	if (sig > 0 && sig < (int)(sizeof signal_names / sizeof signal_names[0]) && signal_names[sig])
		return (char *)signal_names[sig];
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, sizeof buf, "Real-time signal %d", sig - SIGRTMIN);
	else
		snprintf(buf, sizeof buf, "Unknown signal %d", sig);
	return buf;
}
WEAK void psignal(int sig, const char *s) {
	if (s && *s)
		fprintf(stderr, "%s: %s\n", s, strsignal(sig));
	else
		fprintf(stderr, "%s\n", strsignal(sig));
}

/* strverscmp orders strings as version numbers, as glibc does: runs of
 * digits compare by value, except that a run with a leading zero is a
 * fraction, less than any integer and compared digit by digit, where more
 * leading zeros make it smaller ("000" < "00" < "01" < "010" < "09" < "0"
 * < "1" < "9" < "10"). Only the digit run around the first difference
 * matters: its kind is that of the run the common prefix ends in. */
WEAK int strverscmp(const char *a, const char *b) {
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	size_t i = 0;
	while (p[i] == q[i]) {
		if (p[i] == '\0')
			return 0;
		i++;
	}
	size_t j = i; /* where the digit run around the difference starts */
	while (j > 0 && isdigit(p[j - 1]))
		j--;
	int diff = p[i] - q[i], dp = isdigit(p[i]) != 0, dq = isdigit(q[i]) != 0;
	if (j == i) { /* no digits in common before the difference */
		if (dp && dq && p[i] != '0' && q[i] != '0')
			goto integral;
		return diff;
	}
	if (p[j] != '0')
		goto integral;
	/* A fraction. While the common run holds zeros only, a digit against
	 * the run's end makes the longer run of zeros (or digits) the smaller. */
	for (size_t k = j; k < i; k++)
		if (p[k] != '0')
			return diff;
	if (dp != dq)
		return dp ? -1 : 1;
	return diff;
integral:
	/* The longer run is the larger number; runs of one length compare at
	 * their first difference. */
	for (size_t k = i;; k++) {
		int ep = isdigit(p[k]) != 0, eq = isdigit(q[k]) != 0;
		if (ep != eq)
			return ep ? 1 : -1;
		if (!ep)
			return diff;
	}
}

/* ffs and its wider forms: the position of the lowest set bit, from 1, or
 * 0 for no bit. */
WEAK int ffs(int v) { return v ? __builtin_ctz((unsigned)v) + 1 : 0; }
WEAK int ffsl(long v) { return v ? __builtin_ctzl((unsigned long)v) + 1 : 0; }
WEAK int ffsll(long long v) { return v ? __builtin_ctzll((unsigned long long)v) + 1 : 0; }
