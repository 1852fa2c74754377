/* pread(2) for the Windows program (compat/win32.h): ReadFile at an
 * offset on the descriptor's handle, which neither the C runtime's text
 * mode nor its file position touches; pe/pe.c reads a DLL's parts where
 * they lie. */
#include "config.h"

#include <errno.h>
#include <io.h>
#include <windows.h>

long long
cudawiz_pread(int fd, void *buf, size_t len, long long off)
{
	HANDLE h = (HANDLE)_get_osfhandle(fd);
	OVERLAPPED ov = { 0 };
	DWORD got = 0;

	if (h == INVALID_HANDLE_VALUE) {
		errno = EBADF;
		return -1;
	}
	/* One ReadFile takes a DWORD; the caller loops over short reads. */
	if (len > 0x40000000u)
		len = 0x40000000u;
	ov.Offset = (DWORD)((unsigned long long)off & 0xffffffffu);
	ov.OffsetHigh = (DWORD)((unsigned long long)off >> 32);
	if (!ReadFile(h, buf, (DWORD)len, &got, &ov)) {
		if (GetLastError() == ERROR_HANDLE_EOF)
			return 0;
		errno = EIO;
		return -1;
	}
	return (long long)got;
}
