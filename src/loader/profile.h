/* What the dynamic loader of the machine being looked at is like: its
 * default directories, what $LIB and $PLATFORM expand to, the hardware
 * capability subdirectories it searches in every directory, and the ABI
 * it loads. On the host these come from the loader itself (`ld.so --help`,
 * which glibc 2.33 and later print); under --root nothing may run, so
 * they are inferred from the tree's layout and said to be so. */
#ifndef CUDAWIZ_LOADER_PROFILE_H
#define CUDAWIZ_LOADER_PROFILE_H

#include <stdbool.h>

#include "sysroot/sysroot.h"
#include "util/strv.h"

struct loader_profile {
	int		 elf_class;	/* 64 */
	unsigned	 machine;	/* EM_X86_64 */
	char		*ldso;		/* /lib64/ld-linux-x86-64.so.2 */
	char		*ldso_soname;	/* ld-linux-x86-64.so.2 */
	struct strv	 system_dirs;	/* "/lib/x86_64-linux-gnu", … no trailing '/' */
	char		*dst_lib;	/* $LIB: "lib/x86_64-linux-gnu" */
	char		*dst_platform;	/* $PLATFORM: "haswell"; NULL: unknown */
	/* Subdirectories tried before each search directory itself, in the
	 * order tried: "glibc-hwcaps/x86-64-v3", …, then the legacy ones
	 * ("tls/haswell/x86_64", …, "x86_64"). Empty when none. */
	struct strv	 subdirs;
	struct strv	 hwcaps_active;	/* "x86-64-v3", "x86-64-v2": cache lookups */
	char		*cache_path;	/* "/etc/ld.so.cache" */
	char		*source;	/* how it was learnt: "ld.so --help" or "inferred from the tree" */
};

/* Fills prof for the sysroot. On the host runs the loader once; never
 * fails (falls back to inference and says so in prof->source). */
void	loader_profile_init(struct loader_profile *prof, const struct sysroot *sr);
void	loader_profile_free(struct loader_profile *prof);

#endif
