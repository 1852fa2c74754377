/* Secure Boot and module signing: what decides whether the kernel may
 * load an nvidia module it did not sign itself.
 *
 * The SecureBoot EFI variable is 4 attribute bytes then one value byte
 * (1 = on). The kernel's taint mask says whether an unsigned module was
 * loaded anyway (bit 13, E). DKMS signs the modules it builds with
 * /var/lib/dkms/mok.pub's key; the firmware's shim trusts it only once
 * it is enrolled, which puts its certificate into MokListRT. All of it
 * is a few small files. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "probe/probe.h"
#include "util/xalloc.h"

#define EFI_DIR		"/sys/firmware/efi"
#define EFIVARS		"/sys/firmware/efi/efivars"
#define SECUREBOOT_VAR	EFIVARS "/SecureBoot-8be4df61-93ca-11d2-aa0d-e98c0105bb95"
#define MOKLIST_VAR	EFIVARS "/MokListRT-605dab50-e046-4300-abb6-3dd810dd8b23"
/* Since Linux 5.10 the whole list, which can outgrow a variable. */
#define MOKLIST_MIRROR	"/sys/firmware/efi/mok-variables/MokListRT"
#define TAINTED		"/proc/sys/kernel/tainted"
#define DKMS_DIR	"/var/lib/dkms"
#define DKMS_MOK	"/var/lib/dkms/mok.pub"

#define VAR_CAP		64
#define TAINT_CAP	64
/* A DER certificate is about 1 KiB; a list of them a few. */
#define CERT_CAP	(16 * 1024)
#define MOKLIST_CAP	(256 * 1024)

static void
probe_state(struct probe_ctx *ctx, struct fact_str *f)
{
	char *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, SECUREBOOT_VAR, VAR_CAP, &data, &len);

	if (rc == 0) {
		if (len == 5 && (data[4] == 0 || data[4] == 1))
			fact_set(f, data[4] == 1 ? "yes" : "no", SECUREBOOT_VAR);
		else
			fact_unreadable(f, _("%s: not 4 attribute bytes and a "
			    "value of 0 or 1"), SECUREBOOT_VAR);
	} else if (rc != ENOENT && rc != ENOTDIR) {
		fact_unreadable(f, _("%s: %s"), SECUREBOOT_VAR,
		    sysroot_strerror(rc));
	} else if (sysroot_is_dir(ctx->sr, EFIVARS)) {
		/* Firmware without Secure Boot has no such variable. */
		fact_set(f, "no", EFIVARS);
	} else if (sysroot_is_dir(ctx->sr, "/sys/firmware") &&
	    !sysroot_exists(ctx->sr, EFI_DIR)) {
		/* A BIOS (legacy) boot: no Secure Boot at all. */
		fact_set(f, "no", EFI_DIR);
	} else {
		fact_unknown(f, _("%s does not exist"), EFIVARS);
	}
	free(data);
}

static void
probe_tainted(struct probe_ctx *ctx, struct fact_str *f)
{
	char *data = NULL;
	size_t len = 0;
	int rc = sysroot_read_file(ctx->sr, TAINTED, TAINT_CAP, &data, &len);

	if (rc != 0) {
		fact_unknown(f, _("%s: %s"), TAINTED, sysroot_strerror(rc));
		return;
	}
	while (len > 0 && data[len - 1] == '\n')
		data[--len] = '\0';
	if (len == 0 || len > 20 || strspn(data, "0123456789") != len) {
		fact_unreadable(f, _("%s: not a number"), TAINTED);
		free(data);
		return;
	}
	fact_set_owned(f, data, TAINTED);
}

/* Whether MokListRT holds the DKMS certificate, byte for byte. */
static void
probe_enrolled(struct probe_ctx *ctx, struct fact_str *f)
{
	char *cert = NULL, *list = NULL;
	size_t clen = 0, llen = 0;
	const char *src = MOKLIST_MIRROR;
	int rc = sysroot_read_file(ctx->sr, DKMS_MOK, CERT_CAP, &cert, &clen);

	if (rc != 0 || clen == 0) {
		fact_unknown(f, _("%s cannot be read"), DKMS_MOK);
		goto out;
	}
	rc = sysroot_read_file(ctx->sr, MOKLIST_MIRROR, MOKLIST_CAP, &list, &llen);
	if (rc == ENOENT || rc == ENOTDIR) {
		src = MOKLIST_VAR;
		rc = sysroot_read_file(ctx->sr, MOKLIST_VAR, MOKLIST_CAP, &list,
		    &llen);
	}
	if (rc == ENOENT && sysroot_is_dir(ctx->sr, EFIVARS)) {
		/* No machine owner key enrolled at all. */
		fact_set(f, "no", MOKLIST_VAR);
	} else if (rc != 0) {
		fact_unknown(f, _("%s: %s"), src, sysroot_strerror(rc));
	} else {
		fact_set(f, memmem(list, llen, cert, clen) != NULL ? "yes" : "no",
		    src);
	}
out:
	free(cert);
	free(list);
}

void
probe_secure_boot(struct probe_ctx *ctx)
{
	struct driver_facts *d = &ctx->facts->driver;

	probe_state(ctx, &d->secure_boot);
	probe_tainted(ctx, &d->tainted);
	if (sysroot_exists(ctx->sr, DKMS_MOK)) {
		fact_set(&d->dkms_mok, "yes", DKMS_MOK);
		probe_enrolled(ctx, &d->mok_enrolled);
	} else if (sysroot_is_dir(ctx->sr, DKMS_DIR)) {
		fact_set(&d->dkms_mok, "no", DKMS_MOK);
	} else {
		fact_unknown(&d->dkms_mok, _("%s does not exist"), DKMS_DIR);
	}
}
