/* Milliseconds on the monotonic clock: for timeouts and durations, which
 * a wall-clock change must not stretch or cut. */
#ifndef CUDAWIZ_MONOCLOCK_H
#define CUDAWIZ_MONOCLOCK_H

double	mono_ms(void);

#endif
