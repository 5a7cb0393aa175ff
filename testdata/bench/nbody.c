/* A planetary simulation in the style of the Benchmarks Game's n-body:
 * five bodies, a fixed step, pairwise gravity with a square root per pair,
 * floating point throughout. argv[1] is the number of steps (default
 * 20,000). Prints the system's energy before and after. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define BODIES 5
#define YEAR 365.24
#define SOLAR (4 * M_PI * M_PI)

struct body {
	double pos[3], vel[3], mass;
};

static struct body sys[BODIES] = {
	{{0, 0, 0}, {0, 0, 0}, SOLAR},
	{{4.84, -1.16, -0.10}, {0.00166 * YEAR, 0.00770 * YEAR, -0.0000690 * YEAR}, 0.000954 * SOLAR},
	{{8.34, 4.12, -0.40}, {-0.00277 * YEAR, 0.00500 * YEAR, 0.0000230 * YEAR}, 0.000286 * SOLAR},
	{{12.89, -15.11, -0.22}, {0.00296 * YEAR, 0.00237 * YEAR, -0.0000296 * YEAR}, 0.0000437 * SOLAR},
	{{15.38, -25.92, 0.18}, {0.00268 * YEAR, 0.00163 * YEAR, -0.0000951 * YEAR}, 0.0000515 * SOLAR},
};

/* still makes the total momentum zero by giving the sun the opposite of
 * the planets' momentum. */
static void still(void) {
	double p[3] = {0, 0, 0};
	for (int i = 0; i < BODIES; i++)
		for (int k = 0; k < 3; k++)
			p[k] += sys[i].vel[k] * sys[i].mass;
	for (int k = 0; k < 3; k++)
		sys[0].vel[k] = -p[k] / SOLAR;
}

static double energy(void) {
	double e = 0;
	for (int i = 0; i < BODIES; i++) {
		struct body *b = &sys[i];
		e += 0.5 * b->mass * (b->vel[0] * b->vel[0] + b->vel[1] * b->vel[1] + b->vel[2] * b->vel[2]);
		for (int j = i + 1; j < BODIES; j++) {
			double d[3];
			for (int k = 0; k < 3; k++)
				d[k] = b->pos[k] - sys[j].pos[k];
			e -= b->mass * sys[j].mass / sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
		}
	}
	return e;
}

static void advance(double dt) {
	for (int i = 0; i < BODIES; i++) {
		struct body *a = &sys[i];
		for (int j = i + 1; j < BODIES; j++) {
			struct body *b = &sys[j];
			double dx = a->pos[0] - b->pos[0], dy = a->pos[1] - b->pos[1], dz = a->pos[2] - b->pos[2];
			double r2 = dx * dx + dy * dy + dz * dz;
			double mag = dt / (r2 * sqrt(r2));
			a->vel[0] -= dx * b->mass * mag;
			a->vel[1] -= dy * b->mass * mag;
			a->vel[2] -= dz * b->mass * mag;
			b->vel[0] += dx * a->mass * mag;
			b->vel[1] += dy * a->mass * mag;
			b->vel[2] += dz * a->mass * mag;
		}
	}
	for (int i = 0; i < BODIES; i++)
		for (int k = 0; k < 3; k++)
			sys[i].pos[k] += dt * sys[i].vel[k];
}

int main(int argc, char **argv) {
	int steps = argc > 1 ? atoi(argv[1]) : 20000;
	still();
	printf("%.9f\n", energy());
	for (int s = 0; s < steps; s++)
		advance(0.01);
	printf("%.9f\n", energy());
	return 0;
}
