/* iconv between the encodings glibc builds in that text code converts
 * most: UTF-8, ISO-8859-1, ASCII, UTF-16 and UTF-32 (with and without a
 * byte-order mark, either byte order) and WCHAR_T; each way, with what
 * it returns and where it stops: a character the target lacks (EILSEQ),
 * an invalid input sequence (EILSEQ), input that ends within a character
 * (EINVAL), an output buffer too small (E2BIG), a flush, and a name it
 * does not know. (augur refuses //TRANSLIT, whose replacements follow
 * glibc's locale tables.) The output must be native's. */
#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

static void convert(const char *to, const char *from, const char *in, size_t inlen, size_t room) {
	iconv_t cd = iconv_open(to, from);
	printf("%s <- %s:", to, from);
	if (cd == (iconv_t)-1) {
		printf(" open fails, errno %d\n", errno);
		return;
	}
	char out[64];
	char *ip = (char *)in, *op = out;
	size_t il = inlen, ol = room;
	errno = 0;
	size_t r = iconv(cd, &ip, &il, &op, &ol);
	printf(" r=%ld errno=%d used=%td left=%zu out=", (long)r, r == (size_t)-1 ? errno : 0, ip - in, il);
	for (char *p = out; p < op; p++)
		printf("%02x", (unsigned char)*p);
	size_t f = iconv(cd, NULL, NULL, &op, &ol);
	printf(" flush=%ld", (long)f);
	printf("\n");
	iconv_close(cd);
}

int main(void) {
	const char *utf8 = "caf\xc3\xa9 \xe2\x82\xac!";
	size_t n = strlen(utf8);
	convert("ISO-8859-1", "UTF-8", "caf\xc3\xa9", 5, 64);
	convert("LATIN1", "UTF-8", utf8, n, 64);
	convert("UTF-8", "ISO-8859-1", "caf\xe9\xff", 5, 64);
	convert("ASCII", "UTF-8", utf8, n, 64);
	convert("US-ASCII", "ISO-8859-1", "ab\x80", 3, 64);
	convert("UTF-8", "ASCII", "ok\x80", 3, 64);
	convert("UTF-16", "UTF-8", utf8, n, 64);
	convert("UTF-16LE", "UTF-8", "a\xf0\x9f\x98\x80", 5, 64);
	convert("UTF-16BE", "UTF-8", "a\xf0\x9f\x98\x80", 5, 64);
	convert("UTF-8", "UTF-16LE", "a\0=\xd8\x00\xde", 6, 64);
	convert("UTF-8", "UTF-16BE", "\0a\xd8=\xde\x00", 6, 64);
	convert("UTF-8", "UTF-16", "\xff\xfe" "a\0", 4, 64);
	convert("UTF-8", "UTF-16", "\xfe\xff" "\0a", 4, 64);
	convert("UTF-8", "UTF-16", "a\0", 2, 64);
	convert("UTF-8", "UTF-16LE", "\x00\xdc" "a\0", 4, 64);
	convert("UTF-32", "UTF-8", "a\xc3\xa9", 3, 64);
	convert("UTF-32LE", "UTF-8", "a\xc3\xa9", 3, 64);
	convert("UTF-32BE", "UTF-8", "a\xc3\xa9", 3, 64);
	convert("UTF-8", "UTF-32LE", "\xac\x20\0\0" "\0\0\x11\0", 8, 64);
	convert("WCHAR_T", "UTF-8", "\xe2\x82\xac", 3, 64);
	convert("UTF-8", "WCHAR_T", "\xac\x20\0\0", 4, 64);
	convert("UTF-8", "UTF-8", "ok\xc3", 3, 64);
	convert("UTF-8", "UTF-8", "ok\xc3(", 4, 64);
	convert("UTF-8", "UTF-8", "\xed\xa0\x80", 3, 64);
	convert("ISO-8859-1", "UTF-8", utf8, n, 3);
	convert("UTF-16LE", "UTF-8", utf8, n, 5);
	convert("utf-8", "latin1", "\xe9", 1, 64);
	convert("UTF8", "ISO_8859-1", "\xe9", 1, 64);
	convert("EBCDIC-NOT-A-CHARSET", "UTF-8", "x", 1, 64);
	convert("UTF-16LE", "UTF-8", "a\xf4\x90\x80\x80", 5, 64);
	convert("UTF-16LE", "UTF-8", "a\xf8\x88\x80\x80\x80", 6, 64);
	convert("UTF-16LE", "UTF-8", "a\xe0\x80\x80", 4, 64);
	convert("UTF-8", "UTF-32", "\0\0\xfe\xff\0\0\0a", 8, 64);
	convert("UTF-8", "UTF-16BE", "\xd8\x3d", 2, 64);
	convert("UTF-8", "UTF-16LE", "\x3d\xd8" "a\0", 4, 64);

	/* A conversion goes on across calls: a sequence split between two. */
	iconv_t cd = iconv_open("UTF-16LE", "UTF-8");
	char out[16], *op = out;
	size_t ol = sizeof out;
	char *ip = "\xe2\x82";
	size_t il = 2;
	size_t r = iconv(cd, &ip, &il, &op, &ol);
	printf("split: %ld errno %d left %zu\n", (long)r, errno, il);
	ip = "\xe2\x82\xac";
	il = 3;
	r = iconv(cd, &ip, &il, &op, &ol);
	printf("whole: %ld left %zu wrote %td\n", (long)r, il, op - out);
	printf("close %d\n", iconv_close(cd));
	return 0;
}
