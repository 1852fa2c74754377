/* Pins the portable binaries to glibc 2.28 (--enable-portable only;
 * docs/DECISIONS.md "Portable binary").
 *
 * We build on a new glibc, where a program binds to the newest version of
 * each symbol. The few whose newest version is above 2.28 are redirected
 * here by the linker (-Wl,--wrap=NAME: every object's reference to NAME,
 * the Debian .a files' included, becomes __wrap_NAME), and each wrapper
 * calls the version that old glibc exports, named with .symver. Wrapping
 * at link time rather than a forced-include header catches the static
 * libraries, which were compiled long before us. tests/pkg/portable-glibc.sh
 * checks the result with objdump: a new symbol needs a line here. */
#include <stddef.h>

struct stat;

#if defined(__x86_64__)
#define CW_GLIBC_BASE "GLIBC_2.2.5"
#define CW_GLIBC_DLINFO "GLIBC_2.3.3"
#define CW_GLIBC_FXSTATAT "GLIBC_2.4"
/* _STAT_VER_LINUX: the struct stat layout the old __xstat calls fill. */
#define CW_STAT_VER 1
#elif defined(__aarch64__)
#define CW_GLIBC_BASE "GLIBC_2.17"
#define CW_GLIBC_DLINFO "GLIBC_2.17"
#define CW_GLIBC_FXSTATAT "GLIBC_2.17"
#define CW_STAT_VER 0
#else
#error "compat/glibc-wrap.c: no glibc baseline for this architecture"
#endif

#define CW_OLD(name, sym, ver) __asm__(".symver " #name ", " sym "@" ver)

/* Declared here, not from the headers: the headers declare the new ones. */
typedef int (*cw_main_fn)(int, char **, char **);
typedef void (*cw_init_fn)(int, char **, char **);
typedef void (*cw_void_fn)(void);

int __wrap___libc_start_main(cw_main_fn, int, char **, cw_init_fn,
    cw_void_fn, cw_void_fn, void *);
int __wrap_stat(const char *, struct stat *);
int __wrap_lstat(const char *, struct stat *);
int __wrap_fstat(int, struct stat *);
int __wrap_fstatat(int, const char *, struct stat *, int);
void *__wrap_dlopen(const char *, int);
void *__wrap_dlsym(void *, const char *);
int __wrap_dlclose(void *);
char *__wrap_dlerror(void);
int __wrap_dlinfo(void *, int, void *);

int cw_libc_start_main(cw_main_fn, int, char **, cw_init_fn, cw_void_fn,
    cw_void_fn, void *);
CW_OLD(cw_libc_start_main, "__libc_start_main", CW_GLIBC_BASE);
int cw_xstat(int, const char *, struct stat *);
CW_OLD(cw_xstat, "__xstat", CW_GLIBC_BASE);
int cw_lxstat(int, const char *, struct stat *);
CW_OLD(cw_lxstat, "__lxstat", CW_GLIBC_BASE);
int cw_fxstat(int, int, struct stat *);
CW_OLD(cw_fxstat, "__fxstat", CW_GLIBC_BASE);
int cw_fxstatat(int, int, const char *, struct stat *, int);
CW_OLD(cw_fxstatat, "__fxstatat", CW_GLIBC_FXSTATAT);
/* Until 2.34 these lived in libdl.so.2 (linked as NEEDED for that); the
 * dynamic linker finds a versioned symbol in whichever loaded object
 * defines it, so the same reference works before and after the move. */
void *cw_dlopen(const char *, int);
CW_OLD(cw_dlopen, "dlopen", CW_GLIBC_BASE);
void *cw_dlsym(void *, const char *);
CW_OLD(cw_dlsym, "dlsym", CW_GLIBC_BASE);
int cw_dlclose(void *);
CW_OLD(cw_dlclose, "dlclose", CW_GLIBC_BASE);
char *cw_dlerror(void);
CW_OLD(cw_dlerror, "dlerror", CW_GLIBC_BASE);
int cw_dlinfo(void *, int, void *);
CW_OLD(cw_dlinfo, "dlinfo", CW_GLIBC_DLINFO);

/* From crti.o and the linker script. */
extern void _init(void);
extern cw_init_fn __init_array_start[] __attribute__((visibility("hidden")));
extern cw_init_fn __init_array_end[] __attribute__((visibility("hidden")));

/* What glibc < 2.34's crt1.o passed as init (__libc_csu_init): _init and
 * the executable's init_array (constructors). crt1.o of 2.34 and later
 * passes NULL because the new __libc_start_main runs them itself; the old
 * one, which we call, then would not, so we hand it this. The dynamic
 * linker runs the preinit_array and, at exit, the fini_array itself. */
static void
cw_init(int argc, char **argv, char **envp)
{
	size_t i, n = (size_t)(__init_array_end - __init_array_start);

	_init();
	for (i = 0; i < n; i++)
		__init_array_start[i](argc, argv, envp);
}

int
__wrap___libc_start_main(cw_main_fn main_fn, int argc, char **argv,
    cw_init_fn init, cw_void_fn fini, cw_void_fn rtld_fini, void *stack_end)
{
	return cw_libc_start_main(main_fn, argc, argv,
	    init != NULL ? init : cw_init, fini, rtld_fini, stack_end);
}

/* stat and friends became functions in 2.33; before, the headers turned
 * them into calls of __xstat and friends with a layout version. */
int
__wrap_stat(const char *path, struct stat *st)
{
	return cw_xstat(CW_STAT_VER, path, st);
}

int
__wrap_lstat(const char *path, struct stat *st)
{
	return cw_lxstat(CW_STAT_VER, path, st);
}

int
__wrap_fstat(int fd, struct stat *st)
{
	return cw_fxstat(CW_STAT_VER, fd, st);
}

int
__wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	return cw_fxstatat(CW_STAT_VER, dirfd, path, st, flags);
}

void *
__wrap_dlopen(const char *file, int mode)
{
	return cw_dlopen(file, mode);
}

void *
__wrap_dlsym(void *handle, const char *name)
{
	return cw_dlsym(handle, name);
}

int
__wrap_dlclose(void *handle)
{
	return cw_dlclose(handle);
}

char *
__wrap_dlerror(void)
{
	return cw_dlerror();
}

int
__wrap_dlinfo(void *handle, int request, void *arg)
{
	return cw_dlinfo(handle, request, arg);
}
