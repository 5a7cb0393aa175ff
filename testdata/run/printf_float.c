/* Floating printf conversions: %f %e %g %E %G and their flags. */
#include <stdio.h>

int main(void) {
	double vals[] = {0.0, -0.0, 1.0, -1.5, 0.1, 123.456, 1e-5, 1e-4, 123456789.0, 1e21, 2.5, 3.5, 0.000123456};
	for (int i = 0; i < 13; i++) {
		double v = vals[i];
		printf("[%f][%.2f][%10.3f][%-10.1f][%+f][%.0f][%#.0f]\n", v, v, v, v, v, v, v);
		printf("[%e][%.2e][%E][%12.4e]\n", v, v, v, v);
		printf("[%g][%.3g][%G][%#g][%10g][%.10g]\n", v, v, v, v, v, v);
	}
	printf("[%08.2f][%-8.2f|][% .3f]\n", -3.14159, 2.5, 2.0);
	printf("[%5.1f%%]\n", 99.44);
	float f = 0.1f;
	printf("[%f][%.10f]\n", f, f);
	return 0;
}
