/* The findings of `cudawiz.exe verify` (src/win/cmd_verify.c): what each
 * run of cudawiz-verify.exe ended in, turned into the Linux codes
 * (VERIFY_CRASHED, VERIFY_TIMEOUT, RUNTIME_INIT_FAILED, KERNEL_FAILED,
 * CUDNN_FAILED) with their meanings kept. Pure: the runs are told, nothing
 * is read; compiled only into the Windows program (src/win/win.mk). */
#ifndef CUDAWIZ_DIAGNOSE_RULES_WINDOWS_VERIFY_H
#define CUDAWIZ_DIAGNOSE_RULES_WINDOWS_VERIFY_H

#include <stddef.h>

#include "diagnose/finding.h"

enum wv_kind { WV_DRIVER, WV_RUNTIME, WV_CUDNN };

enum wv_how {
	WV_WORKS,	/* exited 0 with {"check":"end","ok":true} */
	WV_FAILED,	/* went to its end, a check not ok */
	WV_CRASHED,	/* died of an NTSTATUS (code, status_name) */
	WV_EXITED,	/* exited with code before its end record */
	WV_TIMEOUT,	/* stopped after timeout_s */
	WV_NOSTART,	/* CreateProcessW failed: code is GetLastError */
};

struct wv_run {
	enum wv_kind	 kind;
	const char	*lib;		/* the DLL's Windows path */
	enum wv_how	 how;
	unsigned long	 code;
	const char	*status_name;	/* NTSTATUS's name; NULL: unknown */
	const char	*last_step;	/* the last step record's name; NULL */
	const char	*failed_check;	/* WV_FAILED: the first check not ok */
	const char	*message;	/* its name/message/error; NULL */
	double		 timeout_s;
};

/* "driver", "runtime", "cudnn": the helper's mode for KIND. */
const char *wv_kind_name(enum wv_kind kind);

void rules_windows_verify(const struct wv_run *runs, size_t n,
    struct findings *out);

#endif
