/* The host's identity (facts->host): its name, a hash of its machine-id,
 * the kernel and the distribution, so that reports gathered from many
 * machines stay attributable. Read through the sysroot like every probe,
 * so a --root tree names its own host. The files are small by nature but
 * a tree can hold anything: each is read up to a fixed count of bytes,
 * each value cut to a bound and mended to UTF-8 (a hostname may still
 * carry control characters: the presenters escape them). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/sha256.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

#define HOST_READ_MAX	4096	/* bytes read of each file */
#define HOST_NAME_CAP	64	/* the kernel's HOST_NAME_MAX */
#define HOST_OS_CAP	256
#define MACHINE_ID_HEX	16
#define MACHINE_ID_SALT	"cudawiz-machine-id:"

#define PROC_HOSTNAME	"/proc/sys/kernel/hostname"
#define ETC_HOSTNAME	"/etc/hostname"
#define MACHINE_ID	"/etc/machine-id"
#define OS_RELEASE	"/etc/os-release"
#define OS_RELEASE_LIB	"/usr/lib/os-release"

/* The first HOST_READ_MAX bytes of path, NUL-ended (text past a NUL byte
 * is not looked at). 0 or an errno / sysroot code; missing files are
 * quiet, other failures noted. */
static int
read_head(struct probe_ctx *ctx, const char *path, char **out)
{
	int rc = sysroot_read_head(ctx->sr, path, HOST_READ_MAX, out, NULL);

	if (rc != 0 && rc != ENOENT && rc != ENOTDIR)
		facts_note(ctx->facts, path, _("cannot read: %s"),
		    sysroot_strerror(rc));
	return rc;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* s without the blanks around it, in place. */
static char *
trim(char *s)
{
	size_t n;

	while (blank(*s))
		s++;
	n = strlen(s);
	while (n > 0 && blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* The first line of text that is neither empty nor a # comment
 * (hostname(5)), trimmed, in place; NULL when none. */
static char *
first_line(char *text)
{
	for (char *line = text; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n'), *t;

		if (nl != NULL)
			*nl = '\0';
		t = trim(line);
		if (*t != '\0' && *t != '#')
			return t;
		line = nl != NULL ? nl + 1 : NULL;
	}
	return NULL;
}

static void
host_name(struct probe_ctx *ctx, struct fact_str *f)
{
	static const char *const paths[] = { PROC_HOSTNAME, ETC_HOSTNAME };

	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		char *text = NULL, *line;

		if (read_head(ctx, paths[i], &text) != 0)
			continue;
		line = first_line(text);
		if (line != NULL)
			fact_set_owned(f, utf8_mend(line, HOST_NAME_CAP), paths[i]);
		free(text);
		if (line != NULL)
			return;
	}
	fact_unknown(f, _("neither %s nor %s names the host"), PROC_HOSTNAME,
	    ETC_HOSTNAME);
}

static void
machine_id(struct probe_ctx *ctx, struct fact_str *f)
{
	unsigned char d[SHA256_LEN];
	char hex[MACHINE_ID_HEX + 1];
	struct sha256 s;
	char *text = NULL, *id;

	if (read_head(ctx, MACHINE_ID, &text) != 0) {
		fact_unknown(f, _("%s cannot be read"), MACHINE_ID);
		return;
	}
	id = trim(text);
	/* systemd writes "uninitialized" until the first boot completes. */
	if (*id == '\0' || strcmp(id, "uninitialized") == 0) {
		fact_unknown(f, _("%s holds no id"), MACHINE_ID);
		free(text);
		return;
	}
	sha256_init(&s);
	sha256_update(&s, MACHINE_ID_SALT, strlen(MACHINE_ID_SALT));
	sha256_update(&s, id, strlen(id));
	sha256_final(&s, d);
	for (int i = 0; i < MACHINE_ID_HEX / 2; i++)
		snprintf(hex + 2 * i, 3, "%02x", d[i]);
	memset(text, 0, strlen(text));
	free(text);
	fact_set(f, hex, MACHINE_ID);
}

/* The value of PRETTY_NAME= in os-release text (os-release(5): shell
 * syntax, quoted or not, with \-escapes inside quotes), newly allocated;
 * NULL when absent. */
static char *
pretty_name(char *text)
{
	static const char key[] = "PRETTY_NAME=";

	for (char *line = text; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n'), *v, *w, *start;
		char quote;

		if (nl != NULL)
			*nl = '\0';
		v = trim(line);
		line = nl != NULL ? nl + 1 : NULL;
		if (strncmp(v, key, sizeof key - 1) != 0)
			continue;
		v += sizeof key - 1;
		quote = *v == '"' || *v == '\'' ? *v++ : '\0';
		for (start = w = v; *v != '\0' && *v != quote; v++) {
			if (*v == '\\' && quote == '"' && v[1] != '\0')
				v++;
			*w++ = *v;
		}
		*w = '\0';
		return *start != '\0' ? utf8_mend(start, HOST_OS_CAP) : NULL;
	}
	return NULL;
}

static void
host_os(struct probe_ctx *ctx, struct fact_str *f)
{
	static const char *const paths[] = { OS_RELEASE, OS_RELEASE_LIB };

	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		char *text = NULL, *name;
		int rc = read_head(ctx, paths[i], &text);

		/* /usr/lib/os-release is the fallback for a missing
		 * /etc/os-release only (os-release(5)). */
		if (rc == ENOENT || rc == ENOTDIR)
			continue;
		if (rc != 0)
			break;
		name = pretty_name(text);
		free(text);
		if (name == NULL)
			break;
		fact_set_owned(f, name, paths[i]);
		return;
	}
	fact_unknown(f, _("no PRETTY_NAME in %s or %s"), OS_RELEASE,
	    OS_RELEASE_LIB);
}

void
probe_host(struct probe_ctx *ctx)
{
	struct host_facts *h = &ctx->facts->host;
	const struct fact_str *k = &ctx->facts->driver.kernel_release;

	host_name(ctx, &h->name);
	machine_id(ctx, &h->machine_id);
	/* The driver probe read and checked it already. */
	if (fact_known(k))
		fact_set(&h->kernel, k->value, k->source);
	else
		fact_unknown(&h->kernel, "%s", k->why != NULL ? k->why : "");
	host_os(ctx, &h->os);
}
