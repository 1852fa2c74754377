/* NVIDIA device names from pci.ids, read as a stream. Internal to
 * src/probe (pci.c). */
#ifndef CUDAWIZ_PROBE_PCIIDS_H
#define CUDAWIZ_PROBE_PCIIDS_H

#include <stddef.h>

#include "probe/probe.h"

/* The largest pci.ids read; about 1.7 MB in 2026. */
#define PCIIDS_CAP	(16u * 1024 * 1024)

/* The source named for what the built-in table answered. */
#define PCIIDS_BUILTIN	"built-in pci.ids"

/*
 * Names the n device ids of vendor 10de from the first pci.ids of the
 * usual places that has an NVIDIA block, in one pass that stops at the
 * last id wanted or at the end of that block: names[i] becomes the
 * device line's name (malloc'd) or stays NULL. Returns the path of the
 * file that answered (malloc'd), or PCIIDS_BUILTIN when none had an
 * NVIDIA block and data/pci-nvidia.ids, compiled in, answered; damage (binary
 * data, an overlong line, a file cut inside the block, one over
 * PCIIDS_CAP, a FIFO) becomes a probe note, never a wait or a crash.
 */
char	*pciids_nvidia_names(struct probe_ctx *ctx, const unsigned *ids,
	    size_t n, char **names);

#endif
