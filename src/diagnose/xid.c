/* The Xid table; see xid.h. Meanings and actions follow NVIDIA's Xid
 * catalogue and its "Xid Errors" guide; where the guide says the cause
 * is most often the program (13, 31, 43, 45), the severity is WARNING. */
#include "config.h"

#include <stddef.h>

#include "diagnose/xid.h"
#include "i18n.h"

static const struct xid_info table[] = {
	{ 8, SEV_WARNING, N_("GPU stopped processing (a timeout)"),
	    N_("most often a program that hung the GPU; if it repeats with "
	    "other programs, update the driver and check cooling") },
	{ 13, SEV_WARNING, N_("graphics engine exception: a program ran an "
	    "illegal instruction or accessed memory out of bounds"),
	    N_("debug the program that ran (compute-sanitizer finds the "
	    "bad access); if every program does this, suspect the driver or "
	    "the GPU") },
	{ 31, SEV_WARNING, N_("GPU memory page fault: a program accessed "
	    "memory it does not own (an illegal address)"),
	    N_("debug the program (compute-sanitizer); a fault in many "
	    "programs points at the driver or the GPU's memory") },
	{ 32, SEV_WARNING, N_("invalid or corrupted push buffer stream"),
	    N_("often a PCIe problem or a driver bug: check the link and "
	    "update the driver") },
	{ 38, SEV_ERROR, N_("driver firmware error"),
	    N_("update or reinstall the driver; reboot") },
	{ 43, SEV_WARNING, N_("GPU stopped processing: a program hit a "
	    "fault and was stopped; the GPU itself stays healthy"),
	    N_("look at the program's own error; nothing to do for the GPU "
	    "unless other Xids come with it") },
	{ 45, SEV_WARNING, N_("preemptive cleanup: a program's GPU work was "
	    "torn down, most often because it was killed or after another "
	    "error"),
	    N_("nothing on its own; look at the Xid logged before it") },
	{ 48, SEV_ERROR, N_("double-bit ECC error: an uncorrectable error in "
	    "the GPU's memory"),
	    N_("reset the GPU or reboot; if it comes back, the board needs "
	    "service (nvidia-smi -q -d ECC shows the counts)") },
	{ 61, SEV_WARNING, N_("internal micro-controller breakpoint or warning"),
	    N_("update the driver; reset the GPU if it stops answering") },
	{ 62, SEV_ERROR, N_("internal micro-controller halted"),
	    N_("reset the GPU or reboot and update the driver; if it "
	    "repeats, check cooling and power, then the board") },
	{ 63, SEV_WARNING, N_("ECC page retirement or row remapping event: "
	    "a memory error was recorded"),
	    N_("reset the GPU (or reboot) so the remapping takes effect; "
	    "nvidia-smi -q -d ROW_REMAPPER,PAGE_RETIREMENT shows the state") },
	{ 64, SEV_ERROR, N_("ECC page retirement or row remapping failed"),
	    N_("the GPU's memory has more bad rows than it can replace: the "
	    "board needs service") },
	{ 69, SEV_WARNING, N_("graphics engine class error"),
	    N_("most often a program or driver bug; update the driver if it "
	    "repeats") },
	{ 74, SEV_ERROR, N_("NVLink error"),
	    N_("reseat the NVLink bridge or check the NVLink connections, "
	    "then reset the GPUs; if it repeats, the hardware needs service") },
	{ 79, SEV_ERROR, N_("the GPU has fallen off the bus: it no longer "
	    "answers on PCIe"),
	    N_("reboot; check the power supply and its cables, the slot or "
	    "riser, and cooling; reseat the card; if it repeats, the board "
	    "or slot is faulty") },
	{ 92, SEV_WARNING, N_("high single-bit ECC error rate"),
	    N_("the memory corrects the errors, but their rate is high: watch "
	    "it (nvidia-smi -q -d ECC) and plan service") },
	{ 94, SEV_WARNING, N_("contained ECC error: the program that used the "
	    "bad memory was stopped, others go on"),
	    N_("reset the GPU when no program uses it, so the row is "
	    "remapped") },
	{ 95, SEV_ERROR, N_("uncontained ECC error: every program on the GPU "
	    "was affected"),
	    N_("reset the GPU or reboot; if it repeats, the board needs "
	    "service") },
	{ 119, SEV_ERROR, N_("GSP RPC timeout: the GPU System Processor "
	    "firmware stopped answering"),
	    N_("reset the GPU or reboot and update the driver; if it "
	    "repeats, load the proprietary module without the GSP firmware "
	    "(NVreg_EnableGpuFirmware=0) where the GPU allows it") },
	{ 120, SEV_ERROR, N_("GSP error: the GPU System Processor firmware "
	    "reported an error"),
	    N_("reset the GPU or reboot and update the driver") },
	{ 154, SEV_WARNING, N_("GPU recovery action changed: the driver asks "
	    "for a GPU reset or a reboot"),
	    N_("reset the GPU or reboot as the log line says") },
};

const struct xid_info *
xid_lookup(unsigned code)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (table[i].code == code)
			return &table[i];
	return NULL;
}
