/* The few POSIX spellings the shared sources use that mingw-w64 lacks,
 * for the Windows program alone (src/win/win.mk includes this before
 * every source with -include). Only what the sources of libcudawiz-win.a
 * need is here; a POSIX call with no Windows meaning gets no shim: the
 * file that needs it has a Windows back end instead (sysroot_win.c). */
#ifndef CUDAWIZ_COMPAT_WIN32_H
#define CUDAWIZ_COMPAT_WIN32_H
#ifdef _WIN32

/* C99's printf (%zu, %lld) from mingw-w64's own stdio, not msvcrt's. */
#ifndef __USE_MINGW_ANSI_STDIO
#define __USE_MINGW_ANSI_STDIO 1
#endif

/* gmtime_r and localtime_r, which mingw-w64's time.h defines then. */
#ifndef _POSIX_THREAD_SAFE_FUNCTIONS
#define _POSIX_THREAD_SAFE_FUNCTIONS 200112L
#endif

#include <direct.h>
#include <io.h>
#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>

/* The longest file name component (NTFS: 255 UTF-16 units). */
#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Windows directories have no mode bits. */
#define mkdir(path, mode) _mkdir(path)

/* open(2)'s flags: no handle is inherited by a child unless asked;
 * a directory cannot be opened as a file at all (the one caller,
 * matrix/cache.c's sync of a directory after a rename, then does
 * nothing, which is all NTFS needs). */
#include <fcntl.h>
#ifndef O_CLOEXEC
#define O_CLOEXEC _O_NOINHERIT
#endif
#ifndef O_DIRECTORY
#define O_DIRECTORY 0
#endif
#define fsync(fd) _commit(fd)

/* pread(2) on a CRT descriptor (compat/pread_win.c). */
long long	cudawiz_pread(int fd, void *buf, size_t len, long long off);
#define pread(fd, buf, len, off) cudawiz_pread((fd), (buf), (len), (off))

/* The signals a Linux helper's record can name (facts/vfacts.c names
 * them), with Linux's numbers; Windows raises none of them. */
#include <signal.h>
#ifndef SIGTRAP
#define SIGTRAP 5
#endif
#ifndef SIGBUS
#define SIGBUS 7
#endif
#ifndef SIGKILL
#define SIGKILL 9
#endif
#ifndef SIGSYS
#define SIGSYS 31
#endif

/* strsignal(3), for those signals: glibc's words. */
static inline char *
cw_strsignal(int sig)
{
	switch (sig) {
	case SIGSEGV: return (char *)"Segmentation fault";
	case SIGABRT: return (char *)"Aborted";
	case SIGFPE: return (char *)"Floating point exception";
	case SIGILL: return (char *)"Illegal instruction";
	case SIGTERM: return (char *)"Terminated";
	case SIGTRAP: return (char *)"Trace/breakpoint trap";
	case SIGBUS: return (char *)"Bus error";
	case SIGKILL: return (char *)"Killed";
	case SIGSYS: return (char *)"Bad system call";
	default: return (char *)"Unknown signal";
	}
}
#define strsignal cw_strsignal

/* memmem(3), a GNU extension the C runtime lacks. */
#include <string.h>
static inline void *
cw_memmem(const void *hay, size_t hlen, const void *needle, size_t nlen)
{
	const unsigned char *h = hay;

	if (nlen == 0)
		return (void *)hay;
	for (size_t i = 0; nlen <= hlen && i <= hlen - nlen; i++)
		if (h[i] == *(const unsigned char *)needle &&
		    memcmp(h + i, needle, nlen) == 0)
			return (void *)(h + i);
	return NULL;
}
#define memmem cw_memmem

#endif
#endif
