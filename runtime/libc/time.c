/* Calendar time: gmtime, localtime (augur's programs run in UTC), mktime,
 * timegm, strftime, asctime and ctime, difftime, clock_nanosleep. The clock
 * itself (time, clock_gettime) is the VM's virtual clock. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define WEAK __attribute__((weak))

static const char *const wdayName[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
static const char *const monName[] = {"January", "February", "March",     "April",   "May",      "June",
                                      "July",    "August",   "September", "October", "November", "December"};

static int leap(long long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

/* days_from_civil and civil_from_days are Howard Hinnant's algorithms. */
static long long days_from_civil(long long y, unsigned m, unsigned d) {
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (long long)doe - 719468;
}

static struct tm *fill(time_t t, struct tm *tm, const char *zone) {
	long long days = t / 86400, secs = t % 86400;
	if (secs < 0) {
		secs += 86400;
		days--;
	}
	long long z = days + 719468;
	long long era = (z >= 0 ? z : z - 146096) / 146097;
	unsigned doe = (unsigned)(z - era * 146097);
	unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long long y = (long long)yoe + era * 400;
	unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	unsigned mp = (5 * doy + 2) / 153;
	unsigned d = doy - (153 * mp + 2) / 5 + 1;
	unsigned m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	tm->tm_year = (int)(y - 1900);
	tm->tm_mon = (int)m - 1;
	tm->tm_mday = (int)d;
	tm->tm_hour = (int)(secs / 3600);
	tm->tm_min = (int)(secs / 60 % 60);
	tm->tm_sec = (int)(secs % 60);
	tm->tm_wday = (int)((days % 7 + 11) % 7); /* 1970-01-01 was a Thursday */
	tm->tm_yday = (int)(days - days_from_civil(y, 1, 1));
	tm->tm_isdst = 0;
	tm->tm_gmtoff = 0;
	tm->tm_zone = zone;
	return tm;
}

WEAK struct tm *gmtime_r(const time_t *t, struct tm *tm) { return fill(*t, tm, "GMT"); }
WEAK struct tm *localtime_r(const time_t *t, struct tm *tm) { return fill(*t, tm, "UTC"); }
WEAK struct tm *gmtime(const time_t *t) {
	static __thread struct tm tm;
	return gmtime_r(t, &tm);
}
WEAK struct tm *localtime(const time_t *t) {
	static __thread struct tm tm;
	return localtime_r(t, &tm);
}

/* timegm normalizes tm (fields may be out of range) and returns its time. */
WEAK time_t timegm(struct tm *tm) {
	long long mon = tm->tm_mon, year = tm->tm_year + 1900LL;
	year += mon / 12;
	mon %= 12;
	if (mon < 0) {
		mon += 12;
		year--;
	}
	long long t = (days_from_civil(year, (unsigned)mon + 1, 1) + tm->tm_mday - 1) * 86400LL + tm->tm_hour * 3600LL +
	              tm->tm_min * 60LL + tm->tm_sec;
	fill((time_t)t, tm, "GMT");
	return (time_t)t;
}

WEAK time_t mktime(struct tm *tm) {
	time_t t = timegm(tm);
	tm->tm_zone = "UTC";
	return t;
}

WEAK double difftime(time_t a, time_t b) { return (double)a - (double)b; }

/* C11's timespec_get: the real-time clock, the only base C11 names. */
WEAK int timespec_get(struct timespec *ts, int base) {
	if (base != TIME_UTC || clock_gettime(CLOCK_REALTIME, ts) != 0)
		return 0;
	return base;
}

WEAK char *asctime_r(const struct tm *tm, char *buf) {
	sprintf(buf, "%.3s %.3s%3d %.2d:%.2d:%.2d %d\n", wdayName[tm->tm_wday], monName[tm->tm_mon], tm->tm_mday,
	        tm->tm_hour, tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
	return buf;
}
WEAK char *asctime(const struct tm *tm) {
	static __thread char buf[64];
	return asctime_r(tm, buf);
}
WEAK char *ctime_r(const time_t *t, char *buf) {
	struct tm tm;
	return asctime_r(localtime_r(t, &tm), buf);
}
WEAK char *ctime(const time_t *t) {
	static __thread char buf[64];
	return ctime_r(t, buf);
}

/* iso_week sets the ISO 8601 week-based year and week of tm. */
static void iso_week(const struct tm *tm, int *year, int *week) {
	int y = tm->tm_year + 1900;
	int wday = (tm->tm_wday + 6) % 7; /* Monday 0 */
	int w = (tm->tm_yday - wday + 10) / 7;
	if (w < 1) {
		y--;
		int prevDays = 365 + leap(y);
		w = (tm->tm_yday + prevDays - wday + 10) / 7;
	} else if (w == 53) {
		int days = 365 + leap(y);
		if (tm->tm_yday - wday + 3 >= days) {
			y++;
			w = 1;
		}
	}
	*year = y;
	*week = w;
}

WEAK size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm) {
	size_t n = 0;
	char tmp[64];
#define PUT(str)                                                                                                   \
	do {                                                                                                       \
		const char *p_ = (str);                                                                            \
		while (*p_) {                                                                                      \
			if (n + 1 >= max)                                                                          \
				return 0;                                                                          \
			s[n++] = *p_++;                                                                            \
		}                                                                                                  \
	} while (0)
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			if (n + 1 >= max)
				return 0;
			s[n++] = *fmt;
			continue;
		}
		fmt++;
		while (*fmt == 'E' || *fmt == 'O')
			fmt++;
		int isoYear, isoWeek;
		switch (*fmt) {
		case 'a': snprintf(tmp, sizeof tmp, "%.3s", wdayName[tm->tm_wday]); break;
		case 'A': snprintf(tmp, sizeof tmp, "%s", wdayName[tm->tm_wday]); break;
		case 'b':
		case 'h': snprintf(tmp, sizeof tmp, "%.3s", monName[tm->tm_mon]); break;
		case 'B': snprintf(tmp, sizeof tmp, "%s", monName[tm->tm_mon]); break;
		case 'c':
			snprintf(tmp, sizeof tmp, "%.3s %.3s %2d %.2d:%.2d:%.2d %d", wdayName[tm->tm_wday], monName[tm->tm_mon],
			         tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, 1900 + tm->tm_year);
			break;
		case 'C': snprintf(tmp, sizeof tmp, "%02d", (1900 + tm->tm_year) / 100); break;
		case 'd': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mday); break;
		case 'D': snprintf(tmp, sizeof tmp, "%02d/%02d/%02d", tm->tm_mon + 1, tm->tm_mday, tm->tm_year % 100); break;
		case 'e': snprintf(tmp, sizeof tmp, "%2d", tm->tm_mday); break;
		case 'F': snprintf(tmp, sizeof tmp, "%d-%02d-%02d", 1900 + tm->tm_year, tm->tm_mon + 1, tm->tm_mday); break;
		case 'g':
			iso_week(tm, &isoYear, &isoWeek);
			snprintf(tmp, sizeof tmp, "%02d", isoYear % 100);
			break;
		case 'G':
			iso_week(tm, &isoYear, &isoWeek);
			snprintf(tmp, sizeof tmp, "%d", isoYear);
			break;
		case 'H': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour); break;
		case 'I': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour % 12 ? tm->tm_hour % 12 : 12); break;
		case 'j': snprintf(tmp, sizeof tmp, "%03d", tm->tm_yday + 1); break;
		case 'm': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mon + 1); break;
		case 'M': snprintf(tmp, sizeof tmp, "%02d", tm->tm_min); break;
		case 'n': snprintf(tmp, sizeof tmp, "\n"); break;
		case 'p': snprintf(tmp, sizeof tmp, "%s", tm->tm_hour < 12 ? "AM" : "PM"); break;
		case 'P': snprintf(tmp, sizeof tmp, "%s", tm->tm_hour < 12 ? "am" : "pm"); break;
		case 'r':
			snprintf(tmp, sizeof tmp, "%02d:%02d:%02d %s", tm->tm_hour % 12 ? tm->tm_hour % 12 : 12, tm->tm_min,
			         tm->tm_sec, tm->tm_hour < 12 ? "AM" : "PM");
			break;
		case 'R': snprintf(tmp, sizeof tmp, "%02d:%02d", tm->tm_hour, tm->tm_min); break;
		case 's': {
			struct tm copy = *tm;
			snprintf(tmp, sizeof tmp, "%lld", (long long)timegm(&copy));
			break;
		}
		case 'S': snprintf(tmp, sizeof tmp, "%02d", tm->tm_sec); break;
		case 't': snprintf(tmp, sizeof tmp, "\t"); break;
		case 'T':
		case 'X': snprintf(tmp, sizeof tmp, "%02d:%02d:%02d", tm->tm_hour, tm->tm_min, tm->tm_sec); break;
		case 'u': snprintf(tmp, sizeof tmp, "%d", tm->tm_wday ? tm->tm_wday : 7); break;
		case 'U': snprintf(tmp, sizeof tmp, "%02d", (tm->tm_yday + 7 - tm->tm_wday) / 7); break;
		case 'V':
			iso_week(tm, &isoYear, &isoWeek);
			snprintf(tmp, sizeof tmp, "%02d", isoWeek);
			break;
		case 'w': snprintf(tmp, sizeof tmp, "%d", tm->tm_wday); break;
		case 'W': snprintf(tmp, sizeof tmp, "%02d", (tm->tm_yday + 7 - (tm->tm_wday + 6) % 7) / 7); break;
		case 'x': snprintf(tmp, sizeof tmp, "%02d/%02d/%02d", tm->tm_mon + 1, tm->tm_mday, tm->tm_year % 100); break;
		case 'y': snprintf(tmp, sizeof tmp, "%02d", tm->tm_year % 100); break;
		case 'Y': snprintf(tmp, sizeof tmp, "%d", 1900 + tm->tm_year); break;
		case 'z': snprintf(tmp, sizeof tmp, "+0000"); break;
		case 'Z': snprintf(tmp, sizeof tmp, "%s", tm->tm_zone ? tm->tm_zone : "UTC"); break;
		case '%': snprintf(tmp, sizeof tmp, "%%"); break;
		case '\0':
			fmt--;
			snprintf(tmp, sizeof tmp, "%%");
			break;
		default: snprintf(tmp, sizeof tmp, "%%%c", *fmt); break;
		}
		PUT(tmp);
	}
#undef PUT
	if (n >= max)
		return 0;
	s[n] = '\0';
	return n;
}

/* clock_nanosleep sleeps on the virtual clock, like nanosleep. */
WEAK int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem) {
	struct timespec d = *req;
	if (flags & TIMER_ABSTIME) {
		struct timespec now;
		clock_gettime(clock, &now);
		long long ns = (req->tv_sec - now.tv_sec) * 1000000000LL + (req->tv_nsec - now.tv_nsec);
		if (ns <= 0)
			return 0;
		d.tv_sec = ns / 1000000000LL;
		d.tv_nsec = ns % 1000000000LL;
	}
	(void)rem;
	return nanosleep(&d, NULL) == 0 ? 0 : errno;
}
