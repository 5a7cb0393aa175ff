/* getopt, getopt_long and getopt_long_only with glibc's behavior: options
 * may follow operands (argv is permuted so operands end up last, in their
 * order) unless optstring starts with '+' or POSIXLY_CORRECT is set; a
 * leading '-' returns operands as option 1; a leading ':' reports a missing
 * argument as ':' and prints nothing. Messages are glibc's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))

WEAK char *optarg;
WEAK int optind = 1, opterr = 1, optopt = '?';

static int nextchar; /* position inside a cluster of short options */
static int permute_from; /* first operand moved past, or 0 */

static int is_option(const char *s) { return s[0] == '-' && s[1] != '\0'; }

/* rotate moves argv[from..to) to the front of argv[at..to), keeping order:
 * the options found past some operands go before those operands. */
static void rotate(char **argv, int at, int from, int to) {
	while (from < to) {
		char *x = argv[from];
		for (int i = from; i > at; i--)
			argv[i] = argv[i - 1];
		argv[at++] = x;
		from++;
	}
}

static const char *progname(char *const argv[]) { return argv[0] ? argv[0] : ""; }

/* needs_arg reports how option c is declared: 0 none, 1 required, 2 optional,
 * -1 not an option. */
static int needs_arg(const char *optstring, int c) {
	if (c == ':' || c == '+' || c == '-')
		return -1;
	const char *p = strchr(optstring, c);
	if (!p || c == 0)
		return -1;
	if (p[1] != ':')
		return 0;
	return p[2] == ':' ? 2 : 1;
}

/* span is how many argv elements the option at argv[i] takes: itself and,
 * for a short option whose argument is the next element, that one. */
static int span(char *const argv[], int argc, int i, const char *optstring, const struct option *longopts) {
	const char *s = argv[i];
	if (s[1] == '-') {
		/* --name value: the value moves with it when name takes one */
		const char *name = s + 2;
		size_t len = strcspn(name, "=");
		if (!longopts || name[len] == '=' || i + 1 >= argc)
			return 1;
		for (int k = 0; longopts[k].name; k++)
			if (strncmp(longopts[k].name, name, len) == 0)
				return longopts[k].has_arg == required_argument ? 2 : 1;
		return 1;
	}
	for (int k = 1; s[k]; k++) {
		int need = needs_arg(optstring, (unsigned char)s[k]);
		if (need > 0) {
			if (s[k + 1] == '\0' && need == 1 && i + 1 < argc)
				return 2;
			return 1;
		}
	}
	return 1;
}

static int match_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                      int *longindex, const char *name, int dashes) {
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	int found = -1, exact = 0, ambiguous = 0;
	for (int i = 0; longopts[i].name; i++) {
		if (strncmp(longopts[i].name, name, len) != 0)
			continue;
		if (strlen(longopts[i].name) == len) {
			found = i;
			exact = 1;
			break;
		}
		if (found < 0)
			found = i;
		else if (longopts[i].has_arg != longopts[found].has_arg || longopts[i].flag != longopts[found].flag ||
		         longopts[i].val != longopts[found].val)
			ambiguous = 1;
	}
	const char *prefix = dashes == 2 ? "--" : "-";
	optind++;
	nextchar = 0;
	if (found >= 0 && ambiguous && !exact) {
		if (opterr) {
			fprintf(stderr, "%s: option '%s%s' is ambiguous; possibilities:", progname(argv), prefix, name);
			for (int i = 0; longopts[i].name; i++)
				if (strncmp(longopts[i].name, name, len) == 0)
					fprintf(stderr, " '%s%s'", prefix, longopts[i].name);
			fputc('\n', stderr);
		}
		optopt = 0;
		return '?';
	}
	if (found < 0) {
		if (opterr)
			fprintf(stderr, "%s: unrecognized option '%s%s'\n", progname(argv), prefix, name);
		optopt = 0;
		return '?';
	}
	const struct option *o = &longopts[found];
	optarg = NULL;
	if (eq) {
		if (o->has_arg == no_argument) {
			if (opterr)
				fprintf(stderr, "%s: option '%s%s' doesn't allow an argument\n", progname(argv), prefix, o->name);
			optopt = o->val;
			return '?';
		}
		optarg = (char *)eq + 1;
	} else if (o->has_arg == required_argument) {
		if (optind >= argc) {
			if (opterr && optstring[0] != ':')
				fprintf(stderr, "%s: option '%s%s' requires an argument\n", progname(argv), prefix, o->name);
			optopt = o->val;
			return optstring[0] == ':' ? ':' : '?';
		}
		optarg = argv[optind++];
	}
	if (longindex)
		*longindex = found;
	if (o->flag) {
		*o->flag = o->val;
		return 0;
	}
	return o->val;
}

static int getopt_impl(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                       int *longindex, int long_only) {
	char **args = (char **)argv;
	int in_order = optstring[0] == '+' || getenv("POSIXLY_CORRECT") != NULL;
	int operands_as_1 = optstring[0] == '-';
	if (optstring[0] == '+' || optstring[0] == '-')
		optstring++;
	if (optind == 0) { /* a reset */
		optind = 1;
		nextchar = 0;
	}
	optarg = NULL;
	if (nextchar == 0) {
		if (permute_from > optind || optind >= argc)
			permute_from = 0;
		if (optind >= argc)
			return -1;
		if (!is_option(argv[optind])) {
			if (operands_as_1) {
				optarg = argv[optind++];
				return 1;
			}
			if (in_order)
				return -1;
			int j = optind;
			while (j < argc && !is_option(argv[j]))
				j++;
			if (j >= argc)
				return -1;
			if (strcmp(argv[j], "--") == 0) {
				rotate(args, optind, j, j + 1);
				optind++;
				return -1;
			}
			rotate(args, optind, j, j + span(argv, argc, j, optstring, longopts));
		}
		if (strcmp(argv[optind], "--") == 0) {
			optind++;
			return -1;
		}
		if (longopts && argv[optind][1] == '-')
			return match_long(argc, argv, optstring, longopts, longindex, argv[optind] + 2, 2);
		if (longopts && long_only && argv[optind][2] != '\0') {
			const char *name = argv[optind] + 1;
			size_t len = strcspn(name, "=");
			for (int i = 0; longopts[i].name; i++)
				if (strncmp(longopts[i].name, name, len) == 0)
					return match_long(argc, argv, optstring, longopts, longindex, name, 1);
		}
		nextchar = 1;
	}
	const char *s = argv[optind];
	int c = (unsigned char)s[nextchar++];
	int need = needs_arg(optstring, c);
	int last = s[nextchar] == '\0';
	if (need < 0) {
		if (opterr && optstring[0] != ':')
			fprintf(stderr, "%s: invalid option -- '%c'\n", progname(argv), c);
		optopt = c;
		if (last) {
			optind++;
			nextchar = 0;
		}
		return '?';
	}
	if (need == 0) {
		if (last) {
			optind++;
			nextchar = 0;
		}
		return c;
	}
	int rest = nextchar; /* where an attached argument starts */
	nextchar = 0;
	optind++;
	if (!last) {
		optarg = (char *)s + rest;
		return c;
	}
	if (need == 2)
		return c; /* optional argument: only when attached */
	if (optind >= argc) {
		optopt = c;
		if (optstring[0] == ':')
			return ':';
		if (opterr)
			fprintf(stderr, "%s: option requires an argument -- '%c'\n", progname(argv), c);
		return '?';
	}
	optarg = argv[optind++];
	return c;
}

WEAK int getopt(int argc, char *const argv[], const char *optstring) {
	return getopt_impl(argc, argv, optstring, NULL, NULL, 0);
}

WEAK int getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                     int *longindex) {
	return getopt_impl(argc, argv, optstring, longopts, longindex, 0);
}

WEAK int getopt_long_only(int argc, char *const argv[], const char *optstring, const struct option *longopts,
                          int *longindex) {
	return getopt_impl(argc, argv, optstring, longopts, longindex, 1);
}
