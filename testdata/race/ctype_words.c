/* Two threads count the words of their own text with the <ctype.h>
 * classifiers and add their counts to a shared total without a lock. The
 * total is the only race: the classification tables are read-only data
 * the threads share, as they are in glibc, even when both threads
 * classify their first characters at once. */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>

static int total;

static void *count_words(void *arg) {
	const char *text = arg;
	int words = 0, in_word = 0;
	for (const char *p = text; *p; p++) {
		int letter = isalnum((unsigned char)*p) || *p == '\'';
		if (letter && !in_word && isupper(toupper((unsigned char)*p)))
			words++;
		in_word = letter && !isspace((unsigned char)*p);
	}
	total += words; // race: total output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, count_words, "the quick brown fox");
	pthread_create(&b, NULL, count_words, "jumps over\tthe lazy dog's back");
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d words\n", total);
	return 0;
}
