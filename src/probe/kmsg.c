/* The kernel log's NVRM Xid lines: what the driver reported about each
 * GPU (a GPU fallen off the bus, double-bit ECC errors, page faults of
 * programs), readable even when the driver is no longer loaded.
 *
 * On the host the log's last KMSG_CAP bytes are read with syslog(2)'s
 * READ_ALL, which leaves the log as it is and returns its tail, so the
 * newest reports are the ones kept. Where that call is refused (a
 * seccomp profile) /dev/kmsg is read instead: one record per read()
 * ("6,1234,5678,-;NVRM: Xid (PCI:0000:01:00): 79, pid=…, GPU has
 * fallen off the bus."), non-blocking, until EAGAIN or KMSG_CAP bytes
 * (the oldest records come first there). Under --root, ROOT/dev/kmsg
 * is a regular file of such records, one a line, of which only the last
 * KMSG_CAP bytes are read. Only Xid lines are kept, grouped by GPU and
 * code with a count and the newest line, so what is held stays small.
 * Reading it needs root (or kernel.dmesg_restrict=0): without, the log
 * is just not known, which is no problem to report. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define KMSG		"/dev/kmsg"
/* The tail of the log read: 1 MiB holds thousands of records. */
#define KMSG_CAP	(1024 * 1024)
/* A record is at most about 8 KiB (the kernel's own limit is 1 KiB of
 * text plus its dictionary). */
#define RECORD_MAX	8192
/* Distinct (GPU, code) groups kept: a GPU that logs every code is rare. */
#define GROUPS_MAX	64
#define LINE_MAX_LEN	512

/* Parses "NVRM: Xid (PCI:0000:01:00): 79, pid=…" (older drivers write
 * "NVRM: Xid (0000:01:00): 79, …") in the message of one record. */
static void
take_line(struct facts *facts, const char *msg, size_t len)
{
	static const char key[] = "NVRM: Xid (";
	const char *p, *addr, *rp, *end = msg + len;
	char *pci, *line;
	unsigned long code;
	struct xid_group *g = NULL;

	p = memmem(msg, len, key, sizeof key - 1);
	if (p == NULL)
		return;
	p += sizeof key - 1;
	if ((size_t)(end - p) > 4 && strncmp(p, "PCI:", 4) == 0)
		p += 4;
	addr = p;
	rp = memchr(p, ')', (size_t)(end - p));
	if (rp == NULL || rp == p || rp - p > 32 || end - rp < 4 ||
	    rp[1] != ':' || rp[2] != ' ' ||
	    !text_is_clean(p, (size_t)(rp - p)))
		return;
	code = 0;
	for (p = rp + 3; p < end && *p >= '0' && *p <= '9'; p++) {
		code = code * 10 + (unsigned long)(*p - '0');
		if (code > 100000)
			return;
	}
	if (p == rp + 3)
		return;
	pci = xstrndup(addr, (size_t)(rp - addr));
	line = xstrndup(msg, len > LINE_MAX_LEN ? LINE_MAX_LEN : len);
	/* Shown as evidence: no control characters. */
	for (char *c = line; *c != '\0'; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = ' ';
	for (size_t i = 0; i < facts->xids.n && g == NULL; i++)
		if (facts->xids.v[i].code == code &&
		    strcmp(facts->xids.v[i].pci, pci) == 0)
			g = &facts->xids.v[i];
	if (g == NULL && facts->xids.n >= GROUPS_MAX) {
		free(pci);
		free(line);
		return;
	}
	if (g == NULL) {
		g = VEC_PUSH(&facts->xids);
		g->pci = pci;
		g->code = (unsigned)code;
	} else {
		free(pci);
		free(g->last);
	}
	g->count++;
	g->last = line;
}

/* One record "PRI,SEQ,TS,FLAGS;MESSAGE" (continuation lines, " KEY=V",
 * are not part of the message). */
static void
take_record(struct facts *facts, const char *rec, size_t len)
{
	const char *semi = memchr(rec, ';', len), *nl;

	if (semi == NULL)
		return;
	semi++;
	nl = memchr(semi, '\n', len - (size_t)(semi - rec));
	take_line(facts, semi, nl != NULL ? (size_t)(nl - semi) :
	    len - (size_t)(semi - rec));
}

/* Lines of the log, one a line: /dev/kmsg records ("PRI,SEQ,TS,-;MSG")
 * when RECORDS, else syslog(2)'s "<PRI>[TS] MSG". Only lines holding an
 * Xid matter: find those, not every line. */
static void
scan_lines(struct facts *facts, const char *buf, size_t len, bool records)
{
	size_t start = 0;

	while (start < len) {
		const char *hit = memmem(buf + start, len - start, "NVRM: Xid (", 11);
		const char *bol, *nl;
		size_t n;

		if (hit == NULL)
			break;
		bol = hit;
		while (bol > buf + start && bol[-1] != '\n')
			bol--;
		nl = memchr(hit, '\n', len - (size_t)(hit - buf));
		n = (size_t)((nl != NULL ? nl : buf + len) - bol);
		/* Continuation lines start with a blank. */
		if (*bol != ' ' && records)
			take_record(facts, bol, n);
		else if (*bol != ' ')
			take_line(facts, bol, n);
		start = nl != NULL ? (size_t)(nl - buf) + 1 : len;
	}
}

/* The log's last KMSG_CAP bytes, without consuming them. */
static int
read_syslog(struct facts *facts)
{
	char *buf = xmalloc(KMSG_CAP);
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, KMSG_CAP), rc = 0;

	if (n < 0)
		rc = errno;
	else
		scan_lines(facts, buf, (size_t)n, false);
	free(buf);
	return rc;
}

/* The live device: one record a read, EPIPE when the oldest ones were
 * overwritten while reading (go on), EAGAIN at the end. */
static int
read_device(struct facts *facts)
{
	char *buf = xmalloc(RECORD_MAX);
	size_t total = 0;
	int fd = open(KMSG, O_RDONLY | O_NONBLOCK | O_CLOEXEC), rc = 0;

	if (fd < 0) {
		free(buf);
		return errno;
	}
	/* The device cannot be read from its end backwards, so the bound is
	 * on what is read. */
	while (total < (size_t)KMSG_CAP) {
		ssize_t n = read(fd, buf, RECORD_MAX - 1);

		if (n < 0 && errno == EPIPE)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (errno != EAGAIN)
				rc = errno;
			break;
		}
		if (n == 0)
			break;
		total += (size_t)n;
		take_record(facts, buf, (size_t)n);
	}
	close(fd);
	free(buf);
	return rc;
}

/* A regular file of records, one a line: its last KMSG_CAP bytes, from
 * the first whole line on. */
static int
read_regular(struct probe_ctx *ctx)
{
	char *buf;
	size_t len;
	int rc = sysroot_read_tail(ctx->sr, KMSG, KMSG_CAP, &buf, &len);

	if (rc != 0)
		return rc;
	scan_lines(ctx->facts, buf, len, true);
	free(buf);
	return 0;
}

void
probe_kernel_log(struct probe_ctx *ctx)
{
	struct facts *f = ctx->facts;
	struct stat st;
	int rc;

	/* No GPU, nothing the log could say about one. */
	if (f->gpus.n == 0) {
		fact_unknown(&f->kmsg_state, _("no NVIDIA GPU to look for"));
		return;
	}
	rc = sysroot_stat(ctx->sr, KMSG, &st);
	if (rc == 0 && S_ISCHR(st.st_mode) && sysroot_is_host(ctx->sr)) {
		if (read_syslog(f) != 0)
			rc = read_device(f);
	}
	else if (rc == 0 && S_ISREG(st.st_mode))
		rc = read_regular(ctx);
	else if (rc == 0)
		rc = ENODEV;
	if (rc == 0) {
		fact_set(&f->kmsg_state, "read", KMSG);
		return;
	}
	/* EPERM/EACCES: only root may read it; not a problem to note. */
	fact_unknown(&f->kmsg_state, _("%s: %s"), KMSG, rc == EPERM ||
	    rc == EACCES ? _("only root may read it") : sysroot_strerror(rc));
}
