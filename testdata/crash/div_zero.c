// expect: crash SIGFPE "division by zero" line 4
static volatile int zero = 0;

static int ratio(int a, int b) { return a / b; }

int main(void) { return ratio(10, zero); }
