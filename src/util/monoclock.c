/* See monoclock.h. */
#include "config.h"

#include <time.h>

#include "util/monoclock.h"

double
mono_ms(void)
{
	struct timespec ts;

	/* CLOCK_MONOTONIC cannot fail on Linux with a valid pointer. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}
