/* UTF-8 and Windows' wide strings, for the Windows program's back ends
 * (src/win/, sysroot_win.c): every layer of cudawiz reads UTF-8, every
 * wide Windows API wants UTF-16. Compiled only for Windows. */
#ifndef CUDAWIZ_UTIL_WSTR_H
#define CUDAWIZ_UTIL_WSTR_H

#include <wchar.h>

/* w as UTF-8, owned; NULL when it cannot be converted (an unpaired
 * surrogate). */
char	*wstr_utf8(const wchar_t *w);
/* s as a wide string, owned; NULL when s is not valid UTF-8. */
wchar_t	*wstr_wide(const char *s);
/* Windows' message for a GetLastError() code, UTF-8, without its
 * trailing period and newline; owned. */
char	*wstr_error(unsigned long code);

#endif
