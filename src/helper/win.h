/* The helper's Windows layer (cudawiz-verify.exe, built with mingw-w64):
 * what dlopen, dlsym, dlerror, dlinfo, clock_gettime and the descriptor
 * juggling of main.c do on Linux, with what Windows offers. Compiled
 * only for _WIN32; the Linux helper never includes it. */
#ifndef CUDAWIZ_HELPER_WIN_H
#define CUDAWIZ_HELPER_WIN_H

#include <stdbool.h>
#include <stddef.h>

/* *ARGV as UTF-8 (main()'s are in the ANSI code page, where a path
 * outside it is lost): from GetCommandLineW, split by
 * CommandLineToArgvW; left as they are when that fails. */
void win_utf8_argv(int *argc, char ***argv);

/* LoadLibraryExW of LIB (UTF-8). An absolute path is loaded with
 * LOAD_WITH_ALTERED_SEARCH_PATH, so the DLL's own directory is searched
 * for its dependencies (NVIDIA's cuDNN DLLs load their siblings so); a
 * bare name goes through the standard search. NULL on failure, with
 * "LIB: error N: the system's message" in ERR. */
void *win_dlopen(const char *lib, char *err, size_t errlen);

/* GetProcAddress; NULL when H does not export NAME. */
void *win_dlsym(void *h, const char *name);

/* The file H was loaded from (GetModuleFileNameW, as UTF-8); false when
 * it cannot be said. */
bool win_dlpath(void *h, char *buf, size_t n);

/* NAME in the system directory (System32), where the driver installs
 * nvcuda.dll: a static buffer, or NAME itself when the directory cannot
 * be had. Loading the driver by its bare name would search the helper's
 * and the current directory first. */
const char *win_system_dll(const char *name);

/* Milliseconds of a monotonic clock (QueryPerformanceCounter). */
double win_now_ms(void);

/* A crash or a missing DLL ends the process with its status instead of
 * a dialog box nobody is there to close. */
void win_quiet_errors(void);

/* Removes NAME from the CRT's and the process's environment. */
void win_unsetenv(const char *name);

/* main.c's private_stdout(): the records get a non-inheritable, binary
 * descriptor of the original stdout; descriptor 1 and STD_OUTPUT_HANDLE
 * then point at stderr. */
void win_private_stdout(void);

#endif
