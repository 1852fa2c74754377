/* A GPU's architecture and compute capability from its chip name.
 *
 * pci.ids names NVIDIA devices after their chip ("GF117M [GeForce 610M]",
 * "GA102GL [RTX A6000]"); the chip fixes the compute capability, so a GPU
 * the marketing-name table has never heard of still gets one. Pure
 * functions over an embedded table; no I/O. */
#ifndef CUDAWIZ_PROBE_GPUARCH_H
#define CUDAWIZ_PROBE_GPUARCH_H

#include <stdbool.h>
#include <stddef.h>

struct gpu_chip {
	const char	*chip;		/* the base chip: "GF117", "GK110B" */
	const char	*arch;		/* "Fermi" */
	const char	*cc;		/* "2.1" */
	bool		 uncertain;	/* inferred, not from NVIDIA's own tables */
};

/* The chip token at the start of a pci.ids device name ("GF117M" of
 * "GF117M [GeForce 610M/…]"), copied into buf; false when the name does
 * not start with one. */
bool	gpuarch_chip_token(const char *pci_name, char *buf, size_t n);
/* The table row for a chip token: the longest base chip the token starts
 * with, when what follows is a variant suffix (M, GL, GLM, B, BM …);
 * NULL for a chip the table does not hold. */
const struct gpu_chip	*gpuarch_lookup(const char *token);

#endif
