/* Running the helper on Windows (spawn_win.h). The child is created
 * suspended, put into a job object that kills every process in it when
 * its last handle closes, and resumed: a process a vendor DLL starts is
 * in the job too, and dies with it. A thread reads the child's stdout so
 * that a full pipe never stops the child while this thread waits on its
 * process with the timeout. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "verify/spawn_win.h"

/* How long to wait for the reader once the job is dead: it ends when the
 * last writer does, and every writer was in the job. */
#define DRAIN_MS	5000

static wchar_t *
widen(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1,
	    NULL, 0);
	wchar_t *w;

	if (n <= 0)
		return NULL;
	if ((w = malloc((size_t)n * sizeof *w)) == NULL)
		return NULL;
	if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w,
	    n) != n) {
		free(w);
		return NULL;
	}
	return w;
}

/* Appends W (LEN characters) to *BUF. */
static int
append(wchar_t **buf, size_t *len, size_t *cap, const wchar_t *w, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*cap != 0 ? *cap : 256);
		wchar_t *p;

		while (c < *len + n + 1)
			c *= 2;
		if ((p = realloc(*buf, c * sizeof *p)) == NULL)
			return -1;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, w, n * sizeof *w);
	*len += n;
	(*buf)[*len] = L'\0';
	return 0;
}

/* One argument by CommandLineToArgvW's rules: quoted when empty or when
 * it has a blank; inside quotes, a run of backslashes before a quote is
 * doubled and the quote escaped, a run at the end doubled (the closing
 * quote follows); backslashes elsewhere are themselves. */
static int
quote_arg(wchar_t **buf, size_t *len, size_t *cap, const wchar_t *a)
{
	size_t slashes = 0;

	if (a[0] != L'\0' && wcspbrk(a, L" \t\n\v\"") == NULL)
		return append(buf, len, cap, a, wcslen(a));
	if (append(buf, len, cap, L"\"", 1) < 0)
		return -1;
	for (const wchar_t *p = a;; p++) {
		if (*p == L'\\') {
			slashes++;
			continue;
		}
		if (*p == L'\0' || *p == L'"') {
			/* Each backslash before a quote (or the closing one)
			 * doubled; a quote of the argument's escaped. */
			for (size_t i = 0; i < slashes * 2; i++)
				if (append(buf, len, cap, L"\\", 1) < 0)
					return -1;
			if (*p == L'\0')
				break;
			if (append(buf, len, cap, L"\\\"", 2) < 0)
				return -1;
		} else {
			for (size_t i = 0; i < slashes; i++)
				if (append(buf, len, cap, L"\\", 1) < 0)
					return -1;
			if (append(buf, len, cap, p, 1) < 0)
				return -1;
		}
		slashes = 0;
	}
	return append(buf, len, cap, L"\"", 1);
}

wchar_t *
winrun_cmdline(const char *const *argv)
{
	wchar_t *buf = NULL, *w;
	size_t len = 0, cap = 0;
	int rc = 0;

	for (size_t i = 0; argv[i] != NULL && rc == 0; i++) {
		if ((w = widen(argv[i])) == NULL) {
			free(buf);
			return NULL;
		}
		if (i > 0)
			rc = append(&buf, &len, &cap, L" ", 1);
		/* The program's name is read to the next quote or blank,
		 * with no escapes: quoted whole, and never with a quote. */
		if (i == 0 && wcschr(w, L'"') != NULL)
			rc = -1;
		else if (i == 0)
			rc = append(&buf, &len, &cap, L"\"", 1) < 0 ||
			    append(&buf, &len, &cap, w, wcslen(w)) < 0 ||
			    append(&buf, &len, &cap, L"\"", 1) < 0 ? -1 : 0;
		else if (rc == 0)
			rc = quote_arg(&buf, &len, &cap, w);
		free(w);
	}
	if (rc < 0 || buf == NULL) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct reader {
	HANDLE pipe;
	char *out;
	size_t len, cap, max;
	int truncated;
};

static DWORD WINAPI
read_all(LPVOID arg)
{
	struct reader *r = arg;
	char chunk[4096];
	DWORD n;

	/* Until every writer is gone (ERROR_BROKEN_PIPE) or the read is
	 * cancelled. */
	while (ReadFile(r->pipe, chunk, sizeof chunk, &n, NULL) && n > 0) {
		size_t keep = n;

		if (r->len + keep > r->max) {
			keep = r->max - r->len;
			r->truncated = 1;
		}
		if (r->len + keep + 1 > r->cap) {
			size_t c = r->cap != 0 ? r->cap : 8192;
			char *p;

			while (c < r->len + keep + 1)
				c *= 2;
			if ((p = realloc(r->out, c)) == NULL) {
				r->truncated = 1;
				continue;
			}
			r->out = p;
			r->cap = c;
		}
		memcpy(r->out + r->len, chunk, keep);
		r->len += keep;
		r->out[r->len] = '\0';
	}
	return 0;
}

const char *
winrun_status_name(unsigned long code)
{
	static const struct {
		unsigned long code;
		const char *name;
	} names[] = {
		{ 0x80000003, "STATUS_BREAKPOINT" },
		{ 0xC0000005, "STATUS_ACCESS_VIOLATION" },
		{ 0xC0000006, "STATUS_IN_PAGE_ERROR" },
		{ 0xC000001D, "STATUS_ILLEGAL_INSTRUCTION" },
		{ 0xC0000025, "STATUS_NONCONTINUABLE_EXCEPTION" },
		{ 0xC000008C, "STATUS_ARRAY_BOUNDS_EXCEEDED" },
		{ 0xC0000094, "STATUS_INTEGER_DIVIDE_BY_ZERO" },
		{ 0xC0000096, "STATUS_PRIVILEGED_INSTRUCTION" },
		{ 0xC00000FD, "STATUS_STACK_OVERFLOW" },
		{ 0xC0000135, "STATUS_DLL_NOT_FOUND" },
		{ 0xC0000139, "STATUS_ENTRYPOINT_NOT_FOUND" },
		{ 0xC0000142, "STATUS_DLL_INIT_FAILED" },
		{ 0xC0000374, "STATUS_HEAP_CORRUPTION" },
		{ 0xC0000409, "STATUS_STACK_BUFFER_OVERRUN" },
		{ 0xC0000417, "STATUS_INVALID_CRUNTIME_PARAMETER" },
	};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (names[i].code == code)
			return names[i].name;
	return NULL;
}

/* An exit code that is an NTSTATUS of severity error (0xC…) or warning
 * (0x8…, a breakpoint): the process died of an exception. A program
 * could exit with such a code itself; none of the helper's codes is one. */
static int
is_crash(unsigned long code)
{
	return (code & 0xC0000000ul) == 0xC0000000ul || code == 0x80000003ul;
}

/* The job that takes the child and all it starts; NULL when there is
 * none (then only the child itself is killed). */
static HANDLE
kill_job(void)
{
	JOBOBJECT_EXTENDED_LIMIT_INFORMATION lim;
	HANDLE job = CreateJobObjectW(NULL, NULL);

	if (job == NULL)
		return NULL;
	memset(&lim, 0, sizeof lim);
	lim.BasicLimitInformation.LimitFlags =
	    JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE |
	    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
	if (!SetInformationJobObject(job, JobObjectExtendedLimitInformation,
	    &lim, sizeof lim)) {
		CloseHandle(job);
		return NULL;
	}
	return job;
}

int
winrun(const char *const *argv, unsigned long timeout_ms, size_t out_cap,
    struct winrun *res)
{
	SECURITY_ATTRIBUTES sa = { sizeof sa, NULL, TRUE };
	struct reader rd = { NULL, NULL, 0, 0, out_cap, 0 };
	PROCESS_INFORMATION pi;
	STARTUPINFOW si;
	HANDLE wr = NULL, err = NULL, job, thread;
	wchar_t *cmd, *prog;
	DWORD wait, code = 0;
	BOOL made;

	memset(res, 0, sizeof *res);
	cmd = winrun_cmdline(argv);
	prog = widen(argv[0]);
	if (cmd == NULL || prog == NULL) {
		free(cmd);
		free(prog);
		errno = EINVAL;
		return -1;
	}
	/* Only the write end and the stderr copy are inheritable. */
	if (!CreatePipe(&rd.pipe, &wr, &sa, 0) ||
	    !SetHandleInformation(rd.pipe, HANDLE_FLAG_INHERIT, 0)) {
		res->how = WINRUN_NOSTART;
		res->code = GetLastError();
		goto out;
	}
	if (!DuplicateHandle(GetCurrentProcess(), GetStdHandle(STD_ERROR_HANDLE),
	    GetCurrentProcess(), &err, 0, TRUE, DUPLICATE_SAME_ACCESS))
		err = NULL;
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	si.dwFlags = STARTF_USESTDHANDLES;
	si.hStdInput = NULL;
	si.hStdOutput = wr;
	si.hStdError = err;
	job = kill_job();
	/* Suspended until it is in the job, so nothing it starts escapes.
	 * A job also stops a crash from waiting on a debugger or an error
	 * report (DIE_ON_UNHANDLED_EXCEPTION): the exit code is the
	 * exception's. */
	made = CreateProcessW(prog, cmd, NULL, NULL, TRUE, CREATE_SUSPENDED |
	    CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW, NULL, NULL, &si, &pi);
	CloseHandle(wr);
	wr = NULL;
	if (err != NULL)
		CloseHandle(err);
	if (!made) {
		res->how = WINRUN_NOSTART;
		res->code = GetLastError();
		if (job != NULL)
			CloseHandle(job);
		goto out;
	}
	if (job != NULL && !AssignProcessToJobObject(job, pi.hProcess)) {
		CloseHandle(job);
		job = NULL;
	}
	/* Without the reader the timeout could not be kept: then the child
	 * never runs. */
	thread = CreateThread(NULL, 0, read_all, &rd, 0, NULL);
	if (thread == NULL || ResumeThread(pi.hThread) == (DWORD)-1) {
		res->how = WINRUN_NOSTART;
		res->code = GetLastError();
		TerminateProcess(pi.hProcess, 1);
		WaitForSingleObject(pi.hProcess, INFINITE);
		wait = WAIT_FAILED;
	} else
		wait = WaitForSingleObject(pi.hProcess, timeout_ms);
	CloseHandle(pi.hThread);
	if (res->how == WINRUN_NOSTART)
		;	/* said above */
	else if (wait != WAIT_OBJECT_0) {
		res->how = WINRUN_TIMEOUT;
		if (job != NULL)
			TerminateJobObject(job, 1);
		TerminateProcess(pi.hProcess, 1);
		WaitForSingleObject(pi.hProcess, INFINITE);
	} else if (!GetExitCodeProcess(pi.hProcess, &code)) {
		res->how = WINRUN_EXITED;
		res->code = (unsigned long)-1;
	} else {
		res->code = code;
		res->how = is_crash(code) ? WINRUN_CRASHED : WINRUN_EXITED;
	}
	/* What the helper left running holds the pipe: killed with the
	 * job, so the reader sees the end. */
	if (job != NULL) {
		TerminateJobObject(job, 1);
		CloseHandle(job);
	}
	if (thread != NULL) {
		if (WaitForSingleObject(thread, DRAIN_MS) != WAIT_OBJECT_0) {
			CancelSynchronousIo(thread);
			WaitForSingleObject(thread, INFINITE);
		}
		CloseHandle(thread);
	}
	CloseHandle(pi.hProcess);
out:
	if (rd.pipe != NULL)
		CloseHandle(rd.pipe);
	if (wr != NULL)
		CloseHandle(wr);
	free(cmd);
	free(prog);
	res->out = rd.out;
	res->out_len = rd.len;
	res->truncated = rd.truncated;
	return 0;
}
