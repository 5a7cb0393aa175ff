/* Structs, unions, bit-fields, nested aggregates, struct copies and returns. */
#include <stdio.h>
#include <string.h>

struct point {
	int x, y;
};
struct rect {
	struct point lo, hi;
	char label[8];
};
struct flags {
	unsigned ready : 1;
	unsigned mode : 3;
	signed level : 4;
	unsigned long long big : 40;
};
union word {
	unsigned int u;
	unsigned char bytes[4];
	float f;
};
struct big {
	long a, b, c, d;
};

static struct point add(struct point p, struct point q) {
	struct point r = {p.x + q.x, p.y + q.y};
	return r;
}

static struct big scale(struct big b, long k) {
	b.a *= k;
	b.b *= k;
	b.c *= k;
	b.d *= k;
	return b;
}

static int area(const struct rect *r) { return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y); }

int main(void) {
	struct rect r = {{1, 2}, {4, 6}, "box"};
	struct rect copy = r;
	copy.hi.x = 10;
	printf("area %d %d %s\n", area(&r), area(&copy), copy.label);
	struct point p = add(r.lo, r.hi);
	printf("sum %d %d\n", p.x, p.y);
	struct flags f = {1, 5, -3, 0x123456789AULL};
	f.mode++;
	printf("bits %u %u %d %llx %zu\n", f.ready, f.mode, f.level, (unsigned long long)f.big, sizeof f);
	union word w;
	w.f = 1.0f;
	printf("union %08x %02x %02x\n", w.u, w.bytes[0], w.bytes[3]);
	struct big b = {1, 2, 3, 4};
	struct big s = scale(b, 3);
	printf("big %ld %ld %ld %ld\n", s.a, s.b, s.c, s.d);
	struct point pts[3] = {{1, 1}, {2, 4}, {3, 9}};
	int tot = 0;
	for (int i = 0; i < 3; i++)
		tot += pts[i].x * pts[i].y;
	printf("pts %d %zu\n", tot, sizeof pts);
	struct rect zero;
	memset(&zero, 0, sizeof zero);
	printf("zero %d %d\n", zero.lo.x, area(&zero));
	return 0;
}
