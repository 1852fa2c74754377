/* A tiny TAP producer for the C unit tests. */
#ifndef CUDAWIZ_TEST_TAP_H
#define CUDAWIZ_TEST_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failures;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(got, want, ...) tap_is_str((got), (want), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...) tap_is_int((long long)(got), (long long)(want), __FILE__, __LINE__, __VA_ARGS__)

__attribute__((format(printf, 4, 5)))
__attribute__((unused))
static int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	tap_count++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failures++;
		printf("#   at %s:%d\n", file, line);
	}
	return pass;
}


__attribute__((format(printf, 5, 6)))
__attribute__((unused))
static void
tap_is_str(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	int pass = (got == NULL && want == NULL) ||
	    (got != NULL && want != NULL && strcmp(got, want) == 0);

	tap_count++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failures++;
		printf("#   at %s:%d\n#   got:      %s\n#   expected: %s\n", file,
		    line, got ? got : "(null)", want ? want : "(null)");
	}
}

__attribute__((format(printf, 5, 6)))
__attribute__((unused))
static void
tap_is_int(long long got, long long want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	int pass = got == want;

	tap_count++;
	printf("%s %d - ", pass ? "ok" : "not ok", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failures++;
		printf("#   at %s:%d\n#   got:      %lld\n#   expected: %lld\n",
		    file, line, got, want);
	}
}

static int
done_testing(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures == 0 ? 0 : 1;
}

#endif
