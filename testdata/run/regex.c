/* The runtime's POSIX regular expressions against glibc's: basic and
 * extended syntax, bracket expressions and classes, anchors, intervals,
 * alternation (leftmost-longest), subexpressions and back references,
 * REG_ICASE, REG_NEWLINE, REG_NOSUB, REG_NOTBOL, and the errors regcomp
 * reports with regerror's texts. Prints the same natively and under
 * augur. */
#include <regex.h>
#include <stdio.h>
#include <string.h>

static const struct {
	const char *pattern;
	int cflags;
	const char *subject;
	int eflags;
} cases[] = {
	{"abc", 0, "xxabcxx", 0},
	{"a.c", 0, "abc a-c", 0},
	{"^ab*c$", 0, "abbbc", 0},
	{"^ab*c$", 0, "xabbbc", 0},
	{"a\\{2,3\\}", 0, "caaaab", 0},
	{"\\(ab\\)*c", 0, "ababc", 0},
	{"\\(a*\\)b\\1", 0, "aabaa", 0},
	{"a*", 0, "bbb", 0},
	{"x*y", 0, "*y xy", 0},
	{"*a", 0, "b*a", 0},
	{"a\\|b", 0, "cb", 0},
	{"a\\+", 0, "baaa", 0},
	{"[[:digit:]]\\+", 0, "abc 123 def", 0},
	{"[^a-z ]", 0, "abc Def", 0},
	{"[]a]", 0, "x]", 0},
	{"[a-]", 0, "x-", 0},
	{"(a|ab)(c|bcd)(d*)", REG_EXTENDED, "abcd", 0},
	{"(wee|week)(knights|night)", REG_EXTENDED, "weeknights", 0},
	{"x(a|b)+y", REG_EXTENDED, "xababy", 0},
	{"[0-9]{3}-[0-9]{4}", REG_EXTENDED, "call 555-1234 now", 0},
	{"^(GET|POST) (/[^ ]*) HTTP/1\\.([01])$", REG_EXTENDED, "GET /index.html HTTP/1.1", 0},
	{"([a-z]+)@([a-z]+)\\.com", REG_EXTENDED, "mail bob@example.com today", 0},
	{"(a)(b)?", REG_EXTENDED, "a", 0},
	{"colou?r", REG_EXTENDED, "the color red", 0},
	{"hello", REG_EXTENDED | REG_ICASE, "Say HeLLo", 0},
	{"[a-c]+", REG_EXTENDED | REG_ICASE, "xxABCabz", 0},
	{"^b", REG_EXTENDED | REG_NEWLINE, "a\nb", 0},
	{"a$", REG_EXTENDED | REG_NEWLINE, "a\nb", 0},
	{"a.b", REG_EXTENDED | REG_NEWLINE, "a\nb", 0},
	{"a.b", REG_EXTENDED, "a\nb", 0},
	{"^b", REG_EXTENDED, "a\nb", 0},
	{"^a", REG_EXTENDED, "abc", REG_NOTBOL},
	{"c$", REG_EXTENDED, "abc", REG_NOTEOL},
	{"b+", REG_EXTENDED | REG_NOSUB, "abbb", 0},
	{"()", REG_EXTENDED, "abc", 0},
	{"(a*)*", REG_EXTENDED, "aaa", 0},
	{"(a*)+b", REG_EXTENDED, "aab", 0},
	{"(.*)-(.*)", REG_EXTENDED, "one-two-three", 0},
	{"([[:alpha:]]+)[[:space:]]+\\1", REG_EXTENDED, "say the the word", 0},
	{"a{,2}", REG_EXTENDED, "a{,2}", 0},
	{"a[", REG_EXTENDED, "", 0},
	{"a(b", REG_EXTENDED, "", 0},
	{"a\\", 0, "", 0},
	{"[[:nope:]]", 0, "", 0},
	{"a{3,1}", REG_EXTENDED, "", 0},
	{"\\(a\\)\\2", 0, "", 0},
	{"z-a", 0, "z-a", 0},
	{"[z-a]", 0, "", 0},
	{"+a", REG_EXTENDED, "", 0},
	{"a\\{1", 0, "", 0},
};

int main(void) {
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		regex_t re;
		int rc = regcomp(&re, cases[i].pattern, cases[i].cflags);
		printf("%2zu /%s/: ", i, cases[i].pattern);
		if (rc != 0) {
			char msg[64];
			size_t n = regerror(rc, &re, msg, sizeof msg);
			printf("regcomp %d (%s, %zu)\n", rc, msg, n);
			continue;
		}
		regmatch_t m[6];
		for (int k = 0; k < 6; k++)
			m[k].rm_so = m[k].rm_eo = -7;
		rc = regexec(&re, cases[i].subject, 6, m, cases[i].eflags);
		printf("nsub %zu, %s", re.re_nsub, rc == 0 ? "match" : rc == REG_NOMATCH ? "no match" : "error");
		if (rc == 0 && !(cases[i].cflags & REG_NOSUB)) {
			for (size_t k = 0; k <= re.re_nsub && k < 6; k++)
				printf(" [%d,%d)", (int)m[k].rm_so, (int)m[k].rm_eo);
		}
		printf("\n");
		regfree(&re);
	}
	char small[8];
	printf("truncated: %zu [%s]\n", regerror(REG_EBRACK, NULL, small, sizeof small), small);
	return 0;
}
