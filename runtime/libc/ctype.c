/* ctype.h: glibc's classification and case tables for the "C" locale. The
 * macros in <ctype.h> index (*__ctype_b_loc())[c] for c in -128..255. */
#include <ctype.h>

/* The tables are constants the compiler computes, entry c + 128 for each
 * c in -128..255: nothing initializes them at run time, so threads that
 * classify their first characters together share only read-only data, as
 * they do with glibc's tables. */
#define UP(c) ((c) >= 'A' && (c) <= 'Z')
#define LO(c) ((c) >= 'a' && (c) <= 'z')
#define DIG(c) ((c) >= '0' && (c) <= '9')
#define PRN(c) ((c) >= 32 && (c) < 127)
#define CLASSOF(c) \
	(unsigned short)((UP(c) ? _ISupper : 0) | (LO(c) ? _ISlower : 0) | (UP(c) || LO(c) ? _ISalpha : 0) | \
	                 (DIG(c) ? _ISdigit : 0) | \
	                 (DIG(c) || ((c) >= 'a' && (c) <= 'f') || ((c) >= 'A' && (c) <= 'F') ? _ISxdigit : 0) | \
	                 ((c) == ' ' || ((c) >= '\t' && (c) <= '\r') ? _ISspace : 0) | (PRN(c) ? _ISprint : 0) | \
	                 (PRN(c) && (c) != ' ' ? _ISgraph : 0) | ((c) == ' ' || (c) == '\t' ? _ISblank : 0) | \
	                 (((c) >= 0 && (c) < 32) || (c) == 127 ? _IScntrl : 0) | \
	                 (PRN(c) && (c) != ' ' && !UP(c) && !LO(c) && !DIG(c) ? _ISpunct : 0) | \
	                 (UP(c) || LO(c) || DIG(c) ? _ISalnum : 0))
#define UPPEROF(c) (LO(c) ? (c) - 32 : (c))
#define LOWEROF(c) (UP(c) ? (c) + 32 : (c))
#define R4(F, c) F(c), F((c) + 1), F((c) + 2), F((c) + 3)
#define R16(F, c) R4(F, c), R4(F, (c) + 4), R4(F, (c) + 8), R4(F, (c) + 12)
#define R64(F, c) R16(F, c), R16(F, (c) + 16), R16(F, (c) + 32), R16(F, (c) + 48)
#define R384(F) R64(F, -128), R64(F, -64), R64(F, 0), R64(F, 64), R64(F, 128), R64(F, 192)

static const unsigned short class_table[384] = {R384(CLASSOF)};
static const int upper_table[384] = {R384(UPPEROF)}, lower_table[384] = {R384(LOWEROF)};
static const unsigned short *class_ptr = class_table + 128;
static const int *upper_ptr = upper_table + 128, *lower_ptr = lower_table + 128;

const unsigned short **__ctype_b_loc(void) { return &class_ptr; }
const int **__ctype_toupper_loc(void) { return &upper_ptr; }
const int **__ctype_tolower_loc(void) { return &lower_ptr; }

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
