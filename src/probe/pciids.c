/* NVIDIA device names from pci.ids (see pciids.h).
 *
 * The file is 1.7 MB and NVIDIA's block sits in its middle; reading it
 * line by line and stopping once every wanted id is named (or the block
 * ends) reads about half of it, in one buffer, with no copy of the whole.
 * Lines are capped: a real one is under 200 bytes. Where the system has
 * no pci.ids (a minimal container, Debian's base system), NVIDIA's block
 * of data/pci-nvidia.ids, compiled in, answers: older than a system
 * file, so last. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/pciids.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define CHUNK		(64 * 1024)
/* A longer line is not one of pci.ids'. */
#define LINE_CAP	1024
/* A device name longer than this is not one from a sane database. */
#define NAME_MAX_LEN	256

static const char *const pci_ids_paths[] = {
	"/usr/share/misc/pci.ids",	/* Debian, Ubuntu (pciutils) */
	"/usr/share/hwdata/pci.ids",	/* Fedora, RHEL, Arch (hwdata) */
	"/usr/share/pci.ids",		/* older layouts */
};

/* data/pci-nvidia.ids (generated pci-nvidia-ids.c, made by
 * data/bin2c.sh). */
extern const unsigned char pci_nvidia_ids[];
extern const size_t pci_nvidia_ids_len;

enum where { BEFORE, IN_BLOCK, AFTER };

struct scan {
	const unsigned	*ids;
	size_t		 n, left;
	char		**names;
	enum where	 where;
	bool		 overlong_noted;
};

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "\tXXXX  name": the id, or -1 for any other line. */
static long
device_line_id(const char *s, size_t len)
{
	long v = 0;

	if (len < 8 || s[0] != '\t' || s[5] != ' ' || s[6] != ' ')
		return -1;
	for (size_t i = 1; i < 5; i++) {
		int d = hexval(s[i]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* One whole line (no newline). False once the scan has what it wants. */
static bool
scan_line(struct scan *sc, const char *s, size_t len)
{
	long id;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (sc->where == BEFORE) {
		if (len >= 6 && memcmp(s, "10de  ", 6) == 0)
			sc->where = IN_BLOCK;
		return true;
	}
	/* In the block: devices (one tab), subsystems (two), comments and
	 * blank lines; anything else is the next vendor or a class. */
	if (len == 0 || s[0] == '#')
		return true;
	if (s[0] != '\t') {
		sc->where = AFTER;
		return false;
	}
	id = device_line_id(s, len);
	if (id < 0)
		return true;
	for (size_t i = 0; i < sc->n; i++) {
		const char *name = s + 7;
		size_t nl = len - 7;

		if ((unsigned)id != (sc->ids[i] & 0xffffu) || sc->names[i] != NULL)
			continue;
		while (nl > 0 && name[nl - 1] == ' ')
			nl--;
		/* A damaged name names nothing; the id stays unnamed. */
		if (nl > 0 && nl <= NAME_MAX_LEN && text_is_clean(name, nl))
			sc->names[i] = xstrndup(name, nl);
		sc->left--;
	}
	return sc->left > 0;
}

/*
 * Streams one file through scan_line. Returns 0, or an errno/sysroot
 * code for a file that could not be read; *bad names damage that ends
 * the read early (the names found before it stand).
 */
static int
scan_file(struct probe_ctx *ctx, const char *path, struct scan *sc,
    const char **bad)
{
	char *buf = xmalloc(CHUNK + LINE_CAP);
	size_t have = 0, total = 0;
	bool skipping = false;	/* inside an overlong line */
	struct stat st;
	int fd, rc = sysroot_open_file(ctx->sr, path, &fd);

	*bad = NULL;
	if (rc != 0) {
		free(buf);
		return rc;
	}
	/* One over the cap is refused before a byte is read; the count
	 * below still stops a file that grows while it is read. */
	if (fstat(fd, &st) != 0)
		rc = errno;
	else if ((unsigned long long)st.st_size > PCIIDS_CAP)
		rc = SYSROOT_ETOOBIG;
	if (rc != 0) {
		close(fd);
		free(buf);
		return rc;
	}
	for (;;) {
		ssize_t got = read(fd, buf + have, CHUNK);
		size_t start = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = errno;
			break;
		}
		if (got == 0) {
			/* The last line may lack its newline. */
			if (have > 0 && !skipping)
				(void)scan_line(sc, buf, have);
			break;
		}
		total += (size_t)got;
		if (total > PCIIDS_CAP) {
			*bad = N_("larger than 16 MiB; read no further");
			break;
		}
		if (memchr(buf + have, '\0', (size_t)got) != NULL) {
			*bad = N_("holds binary data (a NUL byte); read no further");
			break;
		}
		have += (size_t)got;
		for (;;) {
			char *nl = memchr(buf + start, '\n', have - start);

			if (nl == NULL)
				break;
			if (!skipping && !scan_line(sc, buf + start,
			    (size_t)(nl - (buf + start)))) {
				close(fd);
				free(buf);
				return 0;
			}
			skipping = false;
			start = (size_t)(nl - buf) + 1;
		}
		/* Keep the unfinished line; one past LINE_CAP is skipped to
		 * its end. */
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have >= LINE_CAP) {
			if (!sc->overlong_noted)
				facts_note(ctx->facts, path,
				    _("a line longer than %d bytes; skipped"),
				    LINE_CAP);
			sc->overlong_noted = true;
			skipping = true;
			have = 0;
		}
	}
	close(fd);
	free(buf);
	return rc;
}

/* The built-in table, line by line from memory: it is ours, so no caps
 * and no notes. */
static void
scan_builtin(struct scan *sc)
{
	const char *p = (const char *)pci_nvidia_ids;
	const char *end = p + pci_nvidia_ids_len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);

		if (!scan_line(sc, p, len))
			return;
		p += len + 1;
	}
}

char *
pciids_nvidia_names(struct probe_ctx *ctx, const unsigned *ids, size_t n,
    char **names)
{
	for (size_t p = 0; p < sizeof pci_ids_paths / sizeof pci_ids_paths[0]; p++) {
		const char *path = pci_ids_paths[p];
		struct scan sc = { ids, n, n, names, BEFORE, false };
		const char *bad;
		int rc = scan_file(ctx, path, &sc, &bad);

		if (rc == ENOENT || rc == ENOTDIR)
			continue;
		if (rc != 0) {
			facts_note(ctx->facts, path, _("cannot read: %s"),
			    sysroot_strerror(rc));
			continue;
		}
		if (bad != NULL)
			facts_note(ctx->facts, path, "%s", _(bad));
		else if (sc.where == IN_BLOCK && sc.left > 0)
			/* A real file has vendors after NVIDIA's. */
			facts_note(ctx->facts, path, _("ends inside NVIDIA's "
			    "block: cut short?"));
		if (sc.where == BEFORE)
			/* No NVIDIA block: the next file may have one. */
			continue;
		return xstrdup(path);
	}
	/* No system file has NVIDIA's block. */
	scan_builtin(&(struct scan){ ids, n, n, names, BEFORE, false });
	return xstrdup(PCIIDS_BUILTIN);
}
