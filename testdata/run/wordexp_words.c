/* wordexp as a program expands a path or a command line from its
 * configuration: blanks, quoting, parameters and the forms of ${...} that
 * augur takes, field splitting of unquoted values, arithmetic, a leading
 * tilde, file names matched over the file system, the characters a word
 * may not hold unquoted, command substitution refused under WRDE_NOCMD,
 * unterminated quotes, WRDE_UNDEF, WRDE_DOOFFS and WRDE_APPEND, and
 * glibc's failure at a quoted empty parameter. The output must be
 * native's. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <wordexp.h>
#include <sys/stat.h>
static void show(const char *s, int flags) {
	wordexp_t w;
	int r = wordexp(s, &w, flags);
	printf("[%s] flags %d -> %d", s, flags, r);
	if (r == 0) {
		printf(" n=%zu:", w.we_wordc);
		for (size_t i = 0; i < w.we_wordc; i++) printf(" <%s>", w.we_wordv[i]);
		wordfree(&w);
	}
	printf("\n");
}
int main(void) {
	setenv("HOME", "/home/tester", 1);
	setenv("NAME", "two words", 1);
	setenv("EMPTY", "", 1);
	unsetenv("UNSET_X");
	show("alpha beta\tgamma", 0);
	show("  leading and trailing  ", 0);
	show("'single quoted' \"double $NAME\" back\\ slash", 0);
	show("$NAME ${NAME} x${NAME}y", 0);
	show("\"$NAME\"", 0);
	show("$EMPTY a", 0);
	show("\"$EMPTY\" a", 0);
	show("\"${EMPTY}x\"", 0);
	show("\"x$EMPTY\" \"\"$EMPTY \"${UNSET_X:-}\"", 0);
	show("$UNSET_X b", 0);
	show("$UNSET_X b", WRDE_UNDEF);
	show("~ ~/x ~nosuchuser_x/y a~b", 0);
	show("a|b", 0);
	show("a;b", 0);
	show("a&b", 0);
	show("a<b", 0);
	show("a(b", 0);
	show("{a}", 0);
	show("'a|b' \"a;b\" a\\|b", 0);
	show("$(echo hi)", WRDE_NOCMD);
	show("`echo hi`", WRDE_NOCMD);
	show("'unterminated", 0);
	show("\"unterminated", 0);
	show("${UNCLOSED", 0);
	show("$((1+2)) $((3*4))", 0);
	show("${NAME:-default} ${UNSET_X:-default} ${#NAME}", 0);
	show("a\\", 0);
	show("", 0);
	show("\"\"", 0);
	show("''", 0);
	show("/nonexistent_dir_x/*.c", 0);
	show("\"a\"'b'c", 0);
	show("$HOME/x", 0);
	show("a\nb", 0);
	mkdir("wexp_dir", 0755);
	for (const char *const *n = (const char *const[]){"wexp_dir/b.c", "wexp_dir/a.c", "wexp_dir/c.h", NULL}; *n; n++)
		fclose(fopen(*n, "w"));
	show("wexp_dir/*.c 'wexp_dir/*.c' wexp_dir/?.h", 0);
	remove("wexp_dir/a.c");
	remove("wexp_dir/b.c");
	remove("wexp_dir/c.h");
	rmdir("wexp_dir");
	wordexp_t w;
	w.we_offs = 2;
	wordexp("x y", &w, WRDE_DOOFFS);
	printf("offs: %zu %p %s %s\n", w.we_wordc, (void *)w.we_wordv[0], w.we_wordv[2], w.we_wordv[3]);
	wordexp("z", &w, WRDE_DOOFFS | WRDE_APPEND);
	printf("append: %zu %s %p\n", w.we_wordc, w.we_wordv[4], (void *)w.we_wordv[5]);
	wordfree(&w);
	return 0;
}
