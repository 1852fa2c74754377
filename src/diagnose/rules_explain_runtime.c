/* The explain rules for messages that are not setup faults, or whose
 * cause is elsewhere: out of memory, errors of the program's own kernels,
 * CUDA's "unknown error", a CPU-only framework build, and the messages
 * (TensorFlow's summary, NCCL's) that only point at another log; see
 * rules_explain.c. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_explain_int.h"
#include "diagnose/rules_loader_int.h"
#include "explain/recognize.h"
#include "i18n.h"
#include "util/xalloc.h"

/* The finding of code made here before, with m as one more message;
 * NULL when there is none yet. */
static struct finding *
again(struct ctx *c, enum finding_code code, const struct explain_match *m)
{
	struct finding *f = rx_have(c, code);

	if (f != NULL)
		rx_message_evidence(f, m);
	return f;
}

void
rx_explain_oom(struct ctx *c, const struct explain_match *m)
{
	struct finding *f;

	if (again(c, FINDING_GPU_OUT_OF_MEMORY, m) != NULL)
		return;
	f = finding_add(c->out, FINDING_GPU_OUT_OF_MEMORY,
	    _("The GPU had no memory left for an allocation. This is not a "
	    "fault of the CUDA setup: other processes hold the memory, or the "
	    "work is too large for this GPU."));
	rx_message_evidence(f, m);
	lr_fix_comment(f, _("see which processes hold GPU memory:"));
	strv_push(&f->fix, "nvidia-smi");
	lr_fix_comment(f, _("make the work smaller (batch size, sequence "
	    "length, model precision); for PyTorch's fragmentation:"));
	strv_push(&f->fix, "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
	lr_fix_comment(f, _("JAX and TensorFlow under XLA take most of the "
	    "memory at start; allocate on demand instead:"));
	strv_push(&f->fix, "export XLA_PYTHON_CLIENT_PREALLOCATE=false");
	strv_push(&f->fix, "export TF_FORCE_GPU_ALLOW_GROWTH=true");
}

/* cudaErrorUnknown (999): most often the driver's state after suspend
 * and resume (nvidia_uvm), or a container without its device nodes. */
static void
unknown_error(struct ctx *c, const struct explain_match *m)
{
	struct finding *f;

	if (again(c, FINDING_RUNTIME_INIT_FAILED, m) != NULL)
		return;
	f = finding_add(c->out, FINDING_RUNTIME_INIT_FAILED,
	    _("CUDA failed with an unknown error (cudaErrorUnknown, 999). "
	    "After a suspend and resume the nvidia_uvm module often loses its "
	    "state; in a container, the GPU's device nodes (/dev/nvidia-uvm, "
	    "/dev/nvidiactl) may not have been passed in."));
	rx_message_evidence(f, m);
	rx_driver_evidence(c, f);
	lr_fix_comment(f, _("after a suspend and resume, reload nvidia_uvm "
	    "(or reboot):"));
	fd_reload(f, c->facts, true);
	lr_fix_comment(f, _("in a container: start it with the GPUs passed in "
	    "(docker run --gpus all, or the NVIDIA Container Toolkit's CDI "
	    "devices) and check that /dev/nvidia-uvm exists inside"));
	finding_evidence_cap(f, EVIDENCE_MAX);
}

/* An error of the program's own kernels or calls. */
static void
program_error(struct ctx *c, const struct explain_match *m)
{
	struct finding *f = finding_add(c->out, FINDING_PROGRAM_CUDA_ERROR,
	    _("%s (%ld): %s. This is not a fault of the CUDA setup; the "
	    "program or a library it uses made the error."), m->code, m->number,
	    m->meaning != NULL ? _(m->meaning) : "");

	rx_message_evidence(f, m);
	lr_fix_comment(f, _("CUDA reports kernel errors at a later call; run "
	    "again with launches synchronous to see the call that failed:"));
	strv_push(&f->fix, "export CUDA_LAUNCH_BLOCKING=1");
	if (m->number == 710)
		lr_fix_comment(f, _("PyTorch: run the same step on the CPU once; "
		    "it prints the index or value the assertion rejected"));
	if (m->number == 719 || m->number == 715)
		lr_fix_comment(f, _("if it happens in every program, look for Xid "
		    "lines in the kernel log (sudo dmesg): a GPU fault"));
	if (m->number == 101)
		lr_fix_comment(f, _("list the GPUs this process may use "
		    "(nvidia-smi -L, and CUDA_VISIBLE_DEVICES) and ask for one of "
		    "them"));
}

void
rx_explain_cuda_error(struct ctx *c, const struct explain_match *m)
{
	switch (m->number) {
	case 221:
		rx_library_rules(c, "libnvidia-ptxjitcompiler.so.1", m);
		break;
	case 999:
		unknown_error(c, m);
		break;
	case 101: case 700: case 701: case 702: case 710: case 715: case 716:
	case 719:
		program_error(c, m);
		break;
	default:
		break;
	}
}

/* "Cannot dlopen some GPU libraries" (its lines above name them) and
 * NCCL's "unhandled cuda error" (its own log names the cause). */
void
rx_explain_incomplete(struct ctx *c, const struct explain_match *m)
{
	bool nccl = rx_streq(m->code, "nccl");
	struct finding *f;

	if (!nccl)
		for (size_t i = 0; i < c->ex->matches.n; i++)
			if (c->ex->matches.v[i].kind == EXPLAIN_DLOPEN_FAILED)
				return;	/* the lines it points at were pasted */
	if (again(c, FINDING_MESSAGE_INCOMPLETE, m) != NULL)
		return;
	if (nccl) {
		f = finding_add(c->out, FINDING_MESSAGE_INCOMPLETE,
		    _("NCCL reports only that a call failed (%s); its own log "
		    "names the CUDA or system error beneath it."), m->reason);
		lr_fix_comment(f, _("run again with NCCL's log on and paste the "
		    "lines that start with NCCL WARN:"));
		strv_push(&f->fix, "export NCCL_DEBUG=INFO");
		lr_fix_comment(f, _("in Docker, a small /dev/shm is a frequent "
		    "cause of system errors: start the container with --ipc=host "
		    "or a larger --shm-size"));
	} else {
		f = finding_add(c->out, FINDING_MESSAGE_INCOMPLETE,
		    _("TensorFlow names the libraries it could not load on the "
		    "lines above this one (\"Could not load dynamic library '…'\"); "
		    "this text does not hold them."));
		lr_fix_comment(f, _("paste the whole log from the start of the run, "
		    "with the \"Could not load dynamic library\" lines; TensorFlow "
		    "prints them with its default log level:"));
		strv_push(&f->fix, "export TF_CPP_MIN_LOG_LEVEL=0");
	}
	rx_message_evidence(f, m);
}

/* A framework installed without CUDA: nothing on the library path helps. */
void
rx_explain_cpu_only(struct ctx *c, const struct explain_match *m)
{
	struct finding *f;

	if (again(c, FINDING_FRAMEWORK_CPU_ONLY, m) != NULL)
		return;
	f = finding_add(c->out, FINDING_FRAMEWORK_CPU_ONLY,
	    _("The framework that printed this was installed without CUDA "
	    "support (a CPU-only build); no driver or library change makes it "
	    "use the GPU."));
	f->severity = SEV_ERROR;
	rx_message_evidence(f, m);
	lr_fix_comment(f, _("install the framework's CUDA build for this "
	    "machine's driver (PyTorch: the selector at "
	    "https://pytorch.org/get-started/locally/; JAX: the jax[cudaNN] "
	    "extra); `cudawiz doctor` shows which CUDA the driver runs"));
}
