/* See reportfile.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "present/reportfile.h"
#include "util/atomicfile.h"
#include "util/xalloc.h"

int
report_write_file(const char *path, int (*print)(FILE *fp, void *arg),
    void *arg)
{
	struct atomic_out ao;
	char *err = NULL;
	FILE *fp = atomic_out_open(&ao, path);

	if (fp == NULL) {
		err = xasprintf(_("cannot write %s: %s"), path, strerror(errno));
	} else if (print(fp, arg) != 0) {
		int saved = errno != 0 ? errno : EIO;

		atomic_out_abort(&ao);
		err = xasprintf(_("cannot write %s: %s"), path, strerror(saved));
	} else if (atomic_out_commit(&ao, &err) == 0) {
		return 0;
	}
	fprintf(stderr, "%s: %s\n", PACKAGE, err);
	free(err);
	return -1;
}
