// args: -v -n 3 input.txt -o out.bin --level=2 -x -qv --name alpha -- -notanoption last
/* getopt_long as glibc does it: short options in clusters, attached and
 * separate arguments, long options with = and with a separate argument,
 * an unknown option's message, options after operands (argv permuted so
 * the operands come last), and "--". */
#include <getopt.h>
#include <stdio.h>

int main(int argc, char **argv) {
	static struct option longopts[] = {
		{"level", required_argument, NULL, 'l'},
		{"name", required_argument, NULL, 'N'},
		{"verbose", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0},
	};
	int verbose = 0, c;
	while ((c = getopt_long(argc, argv, "vqn:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'v':
			verbose++;
			break;
		case 'q':
			printf("quiet\n");
			break;
		case 'n':
		case 'o':
		case 'l':
		case 'N':
			printf("option %c = %s\n", c, optarg);
			break;
		case '?':
			printf("unknown option %c\n", optopt ? optopt : '-');
			break;
		}
	}
	printf("verbose %d, operands from %d:", verbose, optind);
	for (int i = optind; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");

	char *again[] = {"prog", "-ab", "-c", NULL};
	optind = 1;
	opterr = 0;
	while ((c = getopt(3, again, ":ab:c:")) != -1)
		printf("second pass: %c optarg %s optopt %c\n", c, optarg ? optarg : "(none)", optopt);
	return 0;
}
