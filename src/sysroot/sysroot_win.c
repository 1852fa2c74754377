/* The sysroot layer's Windows back end (the Windows program only; see
 * sysroot.h for the interface and src/win/win.mk). The host's sysroot
 * holds every drive, each as the directory of its letter at the top:
 * "/C/Windows/System32" is C:\Windows\System32 and "/" lists the drives
 * (dllsearch_env.all_drives). A sysroot of one drive ("D:") has that
 * drive as "/", the view src/winload/dllsearch.c takes of a drive by
 * default. Names go to the wide (UTF-16) API converted from UTF-8, and
 * come back as UTF-8.
 *
 * What the POSIX back end guards against (symbolic links leading out of
 * a --root tree, a name swapped between check and open) has no meaning
 * for the live drive this serves: links (reparse points) are followed as
 * Windows follows them, and --root is not supported here yet. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "i18n.h"
#include "sysroot/sysroot.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/xalloc.h"
#include "util/wstr.h"

struct sysroot {
	char	 drive;		/* upper case; the system drive for the host */
	bool	 host;		/* every drive, asked for as "/" */
	char	 dir[4];	/* "C:\\" */
};

void (*sysroot_walk_hook)(const char *walked);

char
sysroot_system_drive(void)
{
	wchar_t w[MAX_PATH];
	UINT n = GetSystemDirectoryW(w, MAX_PATH);

	if (n >= 2 && n < MAX_PATH && w[1] == L':' &&
	    ((w[0] >= L'A' && w[0] <= L'Z') || (w[0] >= L'a' && w[0] <= L'z')))
		return (char)(w[0] & ~0x20);
	return 'C';
}

struct sysroot *
sysroot_new(const char *dir, char **err)
{
	struct sysroot *sr;
	char d;

	if (dir == NULL || dir[0] == '\0' || strcmp(dir, "/") == 0) {
		d = sysroot_system_drive();
	} else if (((dir[0] >= 'A' && dir[0] <= 'Z') ||
	    (dir[0] >= 'a' && dir[0] <= 'z')) && dir[1] == ':' &&
	    (dir[2] == '\0' || ((dir[2] == '\\' || dir[2] == '/') &&
	    dir[3] == '\0'))) {
		d = (char)(dir[0] & ~0x20);
	} else {
		*err = xasprintf(_("%s: on Windows the root is a drive (\"D:\"); "
		    "a directory standing for one is not supported yet"), dir);
		return NULL;
	}
	sr = xcalloc(1, sizeof *sr);
	sr->drive = d;
	sr->host = dir == NULL || dir[0] == '\0' || strcmp(dir, "/") == 0;
	sr->dir[0] = d;
	sr->dir[1] = ':';
	sr->dir[2] = '\\';
	return sr;
}

void
sysroot_free(struct sysroot *sr)
{
	free(sr);
}

bool
sysroot_is_host(const struct sysroot *sr)
{
	return sr->host;
}

const char *
sysroot_dir(const struct sysroot *sr)
{
	return sr->host ? "/" : sr->dir;
}

const char *
sysroot_strerror(int err)
{
	switch (err) {
	case SYSROOT_ENOTREG:
		return _("not a regular file");
	case SYSROOT_ETOOBIG:
		return _("file is larger than expected");
	case SYSROOT_ECHANGED:
		return _("the file was replaced while it was being opened");
	default:
		return strerror(err);
	}
}

/* ------------------------------------------------------------- names */

/* The Windows path of path inside the sysroot, wide; NULL when it cannot
 * be one (not valid UTF-8, a character no Windows name holds, "/" of the
 * host, which is no directory of Windows). A path without a leading '/'
 * is taken from the root too. */
static wchar_t *
win_path(const struct sysroot *sr, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	wchar_t *w;
	char *s;

	while (*path == '/')
		path++;
	if (sr->host) {
		/* "C", "C/x": the drive letter first. */
		if (!((path[0] >= 'A' && path[0] <= 'Z') ||
		    (path[0] >= 'a' && path[0] <= 'z')) ||
		    (path[1] != '\0' && path[1] != '/'))
			return NULL;
		strbuf_printf(&sb, "%c:\\", path[0] & ~0x20);
		path++;
	} else {
		strbuf_printf(&sb, "%c:\\", sr->drive);
	}
	for (const char *p = path; *p != '\0'; p++) {
		if (*p == '/') {
			if (sb.len > 0 && strbuf_str(&sb)[sb.len - 1] != '\\')
				strbuf_putc(&sb, '\\');
			continue;
		}
		if (strchr("<>:\"|?*", *p) != NULL || (unsigned char)*p < 32) {
			strbuf_free(&sb);
			return NULL;
		}
		strbuf_putc(&sb, *p);
	}
	s = strbuf_take(&sb);
	w = wstr_wide(s);
	free(s);
	return w;
}

/* "/" of the host: the drive letters in use. */
static bool
host_top(const struct sysroot *sr, const char *path)
{
	return sr->host && path[strspn(path, "/")] == '\0';
}

static int
errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_BAD_PATHNAME:
	case ERROR_INVALID_DRIVE:
	case ERROR_NOT_READY:
		return ENOENT;
	case ERROR_ACCESS_DENIED:
	case ERROR_SHARING_VIOLATION:
		return EACCES;
	case ERROR_DIRECTORY:
		return ENOTDIR;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	default:
		return EIO;
	}
}

/* --------------------------------------------------------------- stat */

int
sysroot_stat(const struct sysroot *sr, const char *path, struct stat *st)
{
	WIN32_FILE_ATTRIBUTE_DATA a;
	wchar_t *w;
	ULARGE_INTEGER t;
	BOOL ok;

	if (host_top(sr, path)) {
		memset(st, 0, sizeof *st);
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 1;
		return 0;
	}
	if ((w = win_path(sr, path)) == NULL)
		return ENOENT;
	ok = GetFileAttributesExW(w, GetFileExInfoStandard, &a);
	free(w);
	if (!ok)
		return errno_of(GetLastError());
	memset(st, 0, sizeof *st);
	st->st_mode = (a.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ?
	    (S_IFDIR | 0755) : (S_IFREG | 0644);
	st->st_size = (off_t)(((unsigned long long)a.nFileSizeHigh << 32) |
	    a.nFileSizeLow);
	/* 100 ns ticks since 1601 to seconds since 1970. */
	t.LowPart = a.ftLastWriteTime.dwLowDateTime;
	t.HighPart = a.ftLastWriteTime.dwHighDateTime;
	st->st_mtime = (time_t)(t.QuadPart / 10000000ULL - 11644473600ULL);
	st->st_nlink = 1;
	return 0;
}

/* Reparse points are followed, as LoadLibrary follows them. */
int
sysroot_lstat(const struct sysroot *sr, const char *path, struct stat *st)
{
	return sysroot_stat(sr, path, st);
}

int
sysroot_readlink(const struct sysroot *sr, const char *path, char **target)
{
	struct stat st;
	int rc = sysroot_stat(sr, path, &st);

	*target = NULL;
	return rc != 0 ? rc : EINVAL;
}

int
sysroot_realpath(const struct sysroot *sr, const char *path, char **out)
{
	struct stat st;
	int rc = sysroot_stat(sr, path, &st);

	*out = NULL;
	if (rc != 0)
		return rc;
	*out = path[0] == '/' ? xstrdup(path) : xasprintf("/%s", path);
	return 0;
}

/* -------------------------------------------------------------- files */

static int
open_handle(const struct sysroot *sr, const char *path, HANDLE *h,
    unsigned long long *size)
{
	wchar_t *w = win_path(sr, path);
	BY_HANDLE_FILE_INFORMATION info;

	if (w == NULL)
		return ENOENT;
	*h = CreateFileW(w, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE |
	    FILE_SHARE_DELETE, NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL |
	    FILE_FLAG_BACKUP_SEMANTICS, NULL);
	free(w);
	if (*h == INVALID_HANDLE_VALUE)
		return errno_of(GetLastError());
	if (!GetFileInformationByHandle(*h, &info) ||
	    (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ||
	    GetFileType(*h) != FILE_TYPE_DISK) {
		CloseHandle(*h);
		return SYSROOT_ENOTREG;
	}
	*size = ((unsigned long long)info.nFileSizeHigh << 32) |
	    info.nFileSizeLow;
	return 0;
}

/* Reads want bytes from off into a new NUL-terminated buffer. */
static int
read_range(HANDLE h, unsigned long long off, size_t want, char **data,
    size_t *len)
{
	LARGE_INTEGER at;
	size_t got = 0;
	char *buf = xmalloc(want + 1);

	at.QuadPart = (LONGLONG)off;
	if (!SetFilePointerEx(h, at, NULL, FILE_BEGIN)) {
		free(buf);
		return EIO;
	}
	while (got < want) {
		DWORD n = 0, ask = want - got > 1u << 30 ? 1u << 30 :
		    (DWORD)(want - got);

		if (!ReadFile(h, buf + got, ask, &n, NULL)) {
			free(buf);
			return errno_of(GetLastError());
		}
		if (n == 0)
			break;
		got += n;
	}
	buf[got] = '\0';
	*data = buf;
	*len = got;
	return 0;
}

int
sysroot_read_file(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *len)
{
	unsigned long long size;
	HANDLE h;
	int rc;

	*data = NULL;
	*len = 0;
	if ((rc = open_handle(sr, path, &h, &size)) != 0)
		return rc;
	if (size > cap) {
		CloseHandle(h);
		return SYSROOT_ETOOBIG;
	}
	rc = read_range(h, 0, (size_t)size, data, len);
	CloseHandle(h);
	return rc;
}

int
sysroot_read_head(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *len)
{
	unsigned long long size;
	HANDLE h;
	int rc;

	*data = NULL;
	*len = 0;
	if ((rc = open_handle(sr, path, &h, &size)) != 0)
		return rc;
	rc = read_range(h, 0, size < cap ? (size_t)size : cap, data, len);
	CloseHandle(h);
	return rc;
}

int
sysroot_read_tail(const struct sysroot *sr, const char *path, size_t cap,
    char **data, size_t *len)
{
	unsigned long long size;
	HANDLE h;
	char *nl;
	int rc;

	*data = NULL;
	*len = 0;
	if ((rc = open_handle(sr, path, &h, &size)) != 0)
		return rc;
	if (size <= cap) {
		rc = read_range(h, 0, (size_t)size, data, len);
		CloseHandle(h);
		return rc;
	}
	rc = read_range(h, size - cap, cap, data, len);
	CloseHandle(h);
	if (rc == 0 && (nl = memchr(*data, '\n', *len)) != NULL) {
		size_t skip = (size_t)(nl + 1 - *data);

		memmove(*data, nl + 1, *len - skip + 1);
		*len -= skip;
	}
	return rc;
}

int
sysroot_open_file(const struct sysroot *sr, const char *path, int *fd)
{
	unsigned long long size;
	HANDLE h;
	int rc;

	*fd = -1;
	if ((rc = open_handle(sr, path, &h, &size)) != 0)
		return rc;
	*fd = _open_osfhandle((intptr_t)h, _O_RDONLY | _O_BINARY);
	if (*fd < 0) {
		CloseHandle(h);
		return EMFILE;
	}
	return 0;
}

/* ---------------------------------------------------------- listings */

/* Each call lists again: the live drive is listed by one search at a
 * time, and dllsearch keeps what it listed. */
void
sysroot_keep_listings(struct sysroot *sr)
{
	(void)sr;
}

int
sysroot_list_dir(const struct sysroot *sr, const char *path,
    struct strv *names)
{
	wchar_t *dir, *w;
	WIN32_FIND_DATAW fd;
	size_t n;
	HANDLE h;
	DWORD e;

	if (host_top(sr, path)) {
		DWORD drives = GetLogicalDrives();

		for (int i = 0; i < 26; i++)
			if (drives & (1u << i))
				strv_pushf(names, "%c", 'A' + i);
		return 0;
	}
	if ((dir = win_path(sr, path)) == NULL)
		return ENOENT;
	/* dir\* ("C:\" already ends in one). */
	n = wcslen(dir);
	w = xcalloc(n + 3, sizeof *w);
	memcpy(w, dir, n * sizeof *w);
	free(dir);
	if (n > 0 && w[n - 1] != L'\\')
		w[n++] = L'\\';
	w[n] = L'*';
	h = FindFirstFileExW(w, FindExInfoBasic, &fd, FindExSearchNameMatch,
	    NULL, 0);
	free(w);
	if (h == INVALID_HANDLE_VALUE) {
		e = GetLastError();
		return e == ERROR_FILE_NOT_FOUND ? 0 : errno_of(e);
	}
	do {
		char *name;

		if (wcscmp(fd.cFileName, L".") == 0 ||
		    wcscmp(fd.cFileName, L"..") == 0)
			continue;
		if ((name = wstr_utf8(fd.cFileName)) != NULL)
			strv_push_owned(names, name);
	} while (FindNextFileW(h, &fd));
	e = GetLastError();
	FindClose(h);
	if (e != ERROR_NO_MORE_FILES)
		return errno_of(e);
	strv_sort(names);
	return 0;
}
