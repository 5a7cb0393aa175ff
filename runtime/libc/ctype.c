/* ctype.h: glibc's classification and case tables for the "C" locale. The
 * macros in <ctype.h> index (*__ctype_b_loc())[c] for c in -128..255. */
#include <ctype.h>

static unsigned short class_table[384];
static int upper_table[384], lower_table[384];
static const unsigned short *class_ptr;
static const int *upper_ptr, *lower_ptr;

static void init_tables(void) {
	for (int i = 0; i < 384; i++) {
		int c = i - 128;
		unsigned short m = 0;
		int up = c >= 'A' && c <= 'Z', lo = c >= 'a' && c <= 'z', dig = c >= '0' && c <= '9';
		int sp = c == ' ' || (c >= '\t' && c <= '\r');
		int ctl = (c >= 0 && c < 32) || c == 127;
		int prn = c >= 32 && c < 127;
		if (up)
			m |= _ISupper;
		if (lo)
			m |= _ISlower;
		if (up || lo)
			m |= _ISalpha;
		if (dig)
			m |= _ISdigit;
		if (dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
			m |= _ISxdigit;
		if (sp)
			m |= _ISspace;
		if (prn)
			m |= _ISprint;
		if (prn && c != ' ')
			m |= _ISgraph;
		if (c == ' ' || c == '\t')
			m |= _ISblank;
		if (ctl)
			m |= _IScntrl;
		if (prn && c != ' ' && !up && !lo && !dig)
			m |= _ISpunct;
		if (up || lo || dig)
			m |= _ISalnum;
		class_table[i] = m;
		upper_table[i] = lo ? c - 32 : c;
		lower_table[i] = up ? c + 32 : c;
	}
	class_ptr = class_table + 128;
	upper_ptr = upper_table + 128;
	lower_ptr = lower_table + 128;
}

const unsigned short **__ctype_b_loc(void) {
	if (!class_ptr)
		init_tables();
	return &class_ptr;
}

const int **__ctype_toupper_loc(void) {
	if (!upper_ptr)
		init_tables();
	return &upper_ptr;
}

const int **__ctype_tolower_loc(void) {
	if (!lower_ptr)
		init_tables();
	return &lower_ptr;
}

#define CLASS(name, bit) \
	int(name)(int c) { return (c >= -128 && c < 256) ? ((*__ctype_b_loc())[c] & (bit)) != 0 : 0; }
CLASS(isalpha, _ISalpha)
CLASS(isdigit, _ISdigit)
CLASS(isalnum, _ISalnum)
CLASS(isspace, _ISspace)
CLASS(isupper, _ISupper)
CLASS(islower, _ISlower)
CLASS(isxdigit, _ISxdigit)
CLASS(isprint, _ISprint)
CLASS(isgraph, _ISgraph)
CLASS(ispunct, _ISpunct)
CLASS(iscntrl, _IScntrl)
CLASS(isblank, _ISblank)

int(toupper)(int c) { return (c >= -128 && c < 256) ? (*__ctype_toupper_loc())[c] : c; }
int(tolower)(int c) { return (c >= -128 && c < 256) ? (*__ctype_tolower_loc())[c] : c; }
