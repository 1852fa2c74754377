/* xid: NVIDIA's Xid codes, the driver's error reports in the kernel log
 * ("NVRM: Xid (PCI:0000:01:00): 79, …"), each with what it means and
 * what to do. From NVIDIA's "Xid Errors" deployment guide
 * (https://docs.nvidia.com/deploy/xid-errors/). Internal to
 * src/diagnose; pure. */
#ifndef CUDAWIZ_XID_H
#define CUDAWIZ_XID_H

#include "diagnose/finding.h"

struct xid_info {
	unsigned	 code;
	enum severity	 severity;	/* ERROR: the GPU or its link is at
					 * fault; WARNING: most often a program */
	const char	*meaning;	/* N_() */
	const char	*action;	/* N_() */
};

/* The row for code, or NULL for a code the table does not hold. */
const struct xid_info	*xid_lookup(unsigned code);

#endif
