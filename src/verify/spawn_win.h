/* Running the helper on Windows (issue 23): cudawiz-verify.exe in a
 * child process, its stdout read through a pipe, killed with everything
 * it started when the timeout passes. Compiled only for _WIN32 (with
 * mingw-w64); the Linux build runs the helper with spawn.c. */
#ifndef CUDAWIZ_VERIFY_SPAWN_WIN_H
#define CUDAWIZ_VERIFY_SPAWN_WIN_H

#include <stddef.h>

enum winrun_how {
	WINRUN_EXITED,		/* code: its exit code */
	WINRUN_CRASHED,		/* code: the NTSTATUS it died of */
	WINRUN_TIMEOUT,		/* killed when the timeout passed */
	WINRUN_NOSTART,		/* code: CreateProcessW's GetLastError */
};

struct winrun {
	enum winrun_how how;
	unsigned long code;
	char *out;		/* stdout, NUL-terminated; the caller frees */
	size_t out_len;
	int truncated;		/* more than the cap came and was dropped */
};

/* Runs ARGV (UTF-8; ARGV[0] the program's path) with stdout read into
 * RES->out (at most OUT_CAP bytes kept), stderr shared with this
 * process, and kills the process and every process it started once
 * TIMEOUT_MS passes. 0 when RES says what happened, -1 (errno set) when
 * this process could not even try (no memory, an argument not UTF-8). */
int winrun(const char *const *argv, unsigned long timeout_ms, size_t out_cap,
    struct winrun *res);

/* The command line CreateProcessW gets for ARGV, quoted so that
 * CommandLineToArgvW (and the CRT) give ARGV back; NULL when an argument
 * cannot be (ARGV[0] with a '"', no memory). The caller frees. */
wchar_t *winrun_cmdline(const char *const *argv);

/* NTSTATUS's name for a crash code ("STATUS_ACCESS_VIOLATION"), or
 * NULL for one it does not know. */
const char *winrun_status_name(unsigned long code);

#endif
