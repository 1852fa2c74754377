/* Rules for live verification: what the helper's runs (facts->verify)
 * say about the driver, each runtime and each cuDNN. Pure: the runs
 * happened before; this reads their records.
 *
 * One finding per root cause: a live result that proves what a static
 * rule already said (the stub libcuda, a driver too old for a toolkit)
 * becomes evidence on that finding, not a second one. Failures that only
 * follow from having no driver at all are information: NO_NVIDIA_GPU or
 * DRIVER_NOT_LOADED already say what is wrong. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/diagnose.h"
#include "diagnose/fixdriver.h"
#include "diagnose/rules_loader_int.h"
#include "diagnose/subject.h"
#include "i18n.h"
#include "matrix/matrix.h"
#include "util/pathnorm.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Error codes the driver API (CUresult) and the runtime API (cudaError_t)
 * share for the failures that matter here. */
#define CU_STUB			34
#define CU_INSUFFICIENT		35
#define CU_UNAVAILABLE		46
#define CU_NO_DEVICE		100
#define CU_INVALID_PTX		218
#define CU_UNSUPPORTED_PTX	222
#define CU_SYSTEM_MISMATCH	803
#define CU_COMPAT		804
#define CU_UNKNOWN		999

/* Lines of a JIT log or of stderr kept as evidence. */
#define LOG_LINES	6

struct vctx {
	const struct diagnose_input	*in;
	const struct facts		*facts;
	struct findings			*out;
	bool				 driver;	/* a driver is there to talk to */
};

/* "the driver library /usr/lib/…/libcuda.so.1", "the CUDA runtime
 * …/libcudart.so.11.0 (conda environment tf)". */
static char *
run_words(const struct verify_run *r)
{
	const char *what = r->kind == VERIFY_DRIVER ? _("the driver library") :
	    r->kind == VERIFY_RUNTIME ? _("the CUDA runtime") : _("cuDNN");

	if (r->owner_name != NULL && strcmp(r->where, "conda") == 0)
		return xasprintf(_("%s %s (conda environment %s)"), what, r->lib,
		    r->owner_name);
	if (r->owner_name != NULL)
		return xasprintf(_("%s %s (environment %s)"), what, r->lib,
		    r->owner_name);
	if (r->kind == VERIFY_RUNTIME && strcmp(r->where, "toolkit") == 0 &&
	    r->owner != NULL)
		return xasprintf(_("%s %s (toolkit %s)"), what, r->lib, r->owner);
	return xasprintf("%s %s", what, r->lib);
}

/* The helper's command line, pasteable: the same run, alone. */
static char *
reproduce(const struct verify_facts *vf, const struct verify_run *r)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_puts(&sb, "CUDA_CACHE_DISABLE=1 ");
	if (r->ld_library_path != NULL && *r->ld_library_path != '\0') {
		strbuf_puts(&sb, "LD_LIBRARY_PATH=");
		shquote(&sb, r->ld_library_path);
		strbuf_putc(&sb, ' ');
	}
	shquote(&sb, vf->helper != NULL ? vf->helper : "cudawiz-verify");
	for (size_t i = 0; i < r->argv.n; i++) {
		strbuf_putc(&sb, ' ');
		shquote(&sb, r->argv.v[i]);
	}
	return strbuf_take(&sb);
}

/* "libcudart.so.12 in /opt/venv: cudaErrorInsufficientDriver (35)": the
 * library checked, where it belongs, and what it answered (code, NULL:
 * nothing to add). */
static void
run_subject(struct finding *f, const struct verify_run *r, const char *code)
{
	const char *lib = r->lib != NULL ? path_basename(r->lib) : "?";
	const char *owner = r->owner_name != NULL ? r->owner_name : r->owner;
	char *what;

	if (owner != NULL && strcmp(r->where, "system") != 0) {
		subj_in(f, lib, owner);
		what = xstrdup(f->subject);
	} else {
		what = xstrdup(lib);
	}
	if (code != NULL)
		finding_subject(f, "%s: %s", what, code);
	else
		finding_subject(f, "%s", what);
	free(what);
}

static void
common_evidence(const struct vctx *c, struct finding *f,
    const struct verify_run *r)
{
	char *cmd = reproduce(&c->facts->verify, r);

	/* Findings of another rule this run adds to keep their subject. */
	if (f->subject == NULL)
		run_subject(f, r, NULL);

	strv_pushf(&f->evidence, _("checked with: %s"), cmd);
	free(cmd);
}

/* The last lines of a text, each as one evidence line. */
static void
tail_evidence(struct finding *f, const char *label, const char *text)
{
	struct strv lines = STRV_INIT;
	size_t from;

	if (text == NULL)
		return;
	strv_split(&lines, text, "\n");
	from = lines.n > LOG_LINES ? lines.n - LOG_LINES : 0;
	for (size_t i = from; i < lines.n; i++)
		if (lines.v[i][strspn(lines.v[i], " \t\r")] != '\0')
			strv_pushf(&f->evidence, "%s: %s", label, lines.v[i]);
	strv_free(&lines);
}

/* "cudaErrorInsufficientDriver (35)", or the number alone. */
static char *
code_words(const struct verify_record *rec)
{
	if (rec->name != NULL)
		return xasprintf("%s (%lld)", rec->name, rec->code);
	return xasprintf(_("error %lld"), rec->code);
}

static void
record_evidence(struct finding *f, const struct verify_record *rec,
    const char *what)
{
	char *code = code_words(rec);

	if (rec->message != NULL)
		strv_pushf(&f->evidence, _("live: %s returned %s: \"%s\""), what,
		    code, rec->message);
	else
		strv_pushf(&f->evidence, _("live: %s returned %s"), what, code);
	free(code);
}

/* An existing finding of code whose text names needle; NULL. */
static struct finding *
existing(struct findings *out, enum finding_code code, const char *needle)
{
	for (size_t i = 0; i < out->n; i++) {
		struct finding *f = &out->v[i];

		if (f->code != code)
			continue;
		if (needle == NULL || strstr(f->detail, needle) != NULL)
			return f;
		for (size_t j = 0; j < f->evidence.n; j++)
			if (strstr(f->evidence.v[j], needle) != NULL)
				return f;
	}
	return NULL;
}

/* ------------------------------------------------------ the run's end */

static void
crash_fix(struct finding *f, const struct verify_run *r, const char *cmd)
{
	lr_fix_comment(f, _("run the same check alone, to see it fail outside "
	    "cudawiz:"));
	strv_push(&f->fix, cmd);
	if (r->kind == VERIFY_DRIVER) {
		lr_fix_comment(f, _("the kernel log says what the driver saw "
		    "(Xid errors, a GPU that fell off the bus):"));
		strv_push(&f->fix, "sudo dmesg | grep -iE 'nvrm|xid'");
	}
}

static void
rule_outcome(const struct vctx *c, const struct verify_run *r)
{
	const struct verify_facts *vf = &c->facts->verify;
	char *who = run_words(r), *cmd = reproduce(vf, r);
	const char *step = r->last_step != NULL ? r->last_step : _("its start-up");
	struct finding *f = NULL;

	switch (r->outcome) {
	case VERIFY_DONE:
		break;
	case VERIFY_NOT_STARTED:
		f = finding_add(c->out, FINDING_VERIFY_CRASHED,
		    _("The verification helper for %s could not be started: %s. "
		    "Nothing was checked live."), who,
		    r->start_error != NULL ? r->start_error : "?");
		f->severity = SEV_WARNING;
		break;
	case VERIFY_SIGNALLED: {
		const char *sn = verify_signal_name(r->signal);

		f = finding_add(c->out, FINDING_VERIFY_CRASHED,
		    _("Checking %s crashed: the helper process was killed by %s "
		    "(%s) in %s. A program that loads this library the same way "
		    "crashes too; cudawiz survived because the check ran in a "
		    "separate process."), who, sn != NULL ? sn : "?",
		    strsignal(r->signal), step);
		crash_fix(f, r, cmd);
		break;
	}
	case VERIFY_EXITED:
		f = finding_add(c->out, FINDING_VERIFY_CRASHED,
		    _("Checking %s ended early: the helper exited with status %d in "
		    "%s without finishing. A library it loaded called exit(), which "
		    "ends any program that loads it the same way."), who,
		    r->exit_status, step);
		crash_fix(f, r, cmd);
		break;
	case VERIFY_TIMED_OUT:
		f = finding_add(c->out, FINDING_VERIFY_TIMEOUT,
		    _("Checking %s did not finish within %g seconds and was "
		    "stopped; it was in %s. A program doing the same hangs."), who,
		    vf->timeout_s, step);
		if (r->kind == VERIFY_DRIVER) {
			lr_fix_comment(f, _("a hang in cuInit or in creating a "
			    "context is most often nvidia_uvm or the GPU in a bad "
			    "state; with no GPU job running, reload it:"));
			fd_reload(f, c->in->facts, true);
		}
		lr_fix_comment(f, _("or give a slow machine more time:"));
		strv_pushf(&f->fix, "cudawiz verify --timeout %g", vf->timeout_s * 4);
		crash_fix(f, r, cmd);
		break;
	case VERIFY_GARBLED:
		f = finding_add(c->out, FINDING_VERIFY_CRASHED,
		    _("Checking %s gave output that is not the helper's: %zu "
		    "line(s) could not be read. The results that could be read "
		    "are still used."), who, r->garbage_lines);
		f->severity = SEV_WARNING;
		if (r->garbage_sample != NULL)
			strv_pushf(&f->evidence, _("first unreadable line: %s"),
			    r->garbage_sample);
		break;
	}
	if (f != NULL) {
		if (r->last_step != NULL)
			strv_pushf(&f->evidence, _("last step: %s"), r->last_step);
		tail_evidence(f, _("stderr"), r->stderr_tail);
		common_evidence(c, f, r);
		finding_evidence_cap(f, 16);
	}
	free(who);
	free(cmd);
}

/* ------------------------------------------------- failing initialisation */

/* A plain-language cause and a fix for an error code shared by the
 * driver and runtime APIs; false when the code has none. */
static bool
cause_of(const struct vctx *c, long long code, struct finding *f)
{
	switch (code) {
	case CU_NO_DEVICE:
		strv_push(&f->evidence, _("cause: the driver sees no CUDA device "
		    "(no GPU, the device files /dev/nvidia* missing, or a "
		    "container started without --gpus)"));
		strv_push(&f->fix, "nvidia-smi");
		strv_push(&f->fix, "ls -l /dev/nvidia*");
		return true;
	case CU_UNKNOWN:
		strv_push(&f->evidence, _("cause: an unknown error, most often "
		    "nvidia_uvm in a bad state after a suspend and resume or a "
		    "driver update without a reboot"));
		lr_fix_comment(f, _("with no GPU job running, reload nvidia_uvm "
		    "(or reboot):"));
		fd_reload(f, c->in->facts, true);
		return true;
	case CU_UNAVAILABLE:
		strv_push(&f->evidence, _("cause: every device is busy or "
		    "unavailable: an exclusive-process compute mode with another "
		    "process on the GPU, or a prohibited mode"));
		strv_push(&f->fix, "nvidia-smi -q -d COMPUTE");
		lr_fix_comment(f, _("allow several processes on the GPU:"));
		strv_push(&f->fix, "sudo nvidia-smi -c DEFAULT");
		return true;
	case CU_SYSTEM_MISMATCH:
		strv_push(&f->evidence, _("cause: the driver's userspace libraries "
		    "and its kernel module are different versions (an update "
		    "without a reboot)"));
		lr_fix_comment(f, _("reboot, so the new kernel module loads:"));
		fd_reboot(f, c->in->facts);
		return true;
	case 3:
		strv_push(&f->evidence, _("cause: the driver could not initialise: "
		    "the kernel module is not loaded, or /dev/nvidia* cannot be "
		    "opened (permissions, a container without the devices)"));
		strv_push(&f->fix, "ls -l /dev/nvidia*");
		return true;
	case 2:
		strv_push(&f->evidence, _("cause: out of memory: other processes "
		    "hold the GPU's memory"));
		strv_push(&f->fix, "nvidia-smi");
		return true;
	}
	return false;
}

/* The minimum driver for a runtime version integer (12040 → "12.4"). */
static void
driver_fix(const struct vctx *c, struct finding *f, double rt)
{
	const char *min;
	enum matrix_status st;
	char cuda[32];

	if (c->in->matrix == NULL || rt <= 0)
		return;
	snprintf(cuda, sizeof cuda, "%d.%d", (int)rt / 1000, ((int)rt % 1000) / 10);
	min = matrix_cuda_min_driver(c->in->matrix, cuda, MATRIX_LINUX, &st);
	if (min == NULL)
		return;
	strv_pushf(&f->evidence, _("CUDA %s needs driver >= %s (matrix: %s)"),
	    cuda, min, matrix_status_name(st));
	fd_install(f, c->in->facts, c->in->matrix, min, cuda);
}

static void
version_evidence(struct finding *f, const struct verify_run *r)
{
	const struct verify_record *rv = verify_find(r, "runtime_version", -1);
	const struct verify_record *dv = verify_find(r, "driver_version", -1);
	double v;

	if (rv != NULL && verify_num(rv, "version", &v))
		strv_pushf(&f->evidence, _("live: cudaRuntimeGetVersion = %.0f "
		    "(CUDA %d.%d)"), v, (int)v / 1000, ((int)v % 1000) / 10);
	if (dv != NULL && verify_num(dv, "version", &v))
		strv_pushf(&f->evidence, v > 0 ? _("live: the driver runs CUDA "
		    "up to %d.%d") : _("live: no driver answered (version 0)"),
		    (int)v / 1000, ((int)v % 1000) / 10);
}

static void
init_failed(const struct vctx *c, const struct verify_run *r,
    const struct verify_record *rec, const char *call)
{
	char *who = run_words(r), *code = code_words(rec);
	struct finding *f;
	double rt = 0;
	const struct verify_record *rv = verify_find(r, "runtime_version", -1);

	size_t before = c->out->n;

	if (rv != NULL)
		verify_num(rv, "version", &rt);
	switch (rec->code) {
	case CU_STUB:
		f = existing(c->out, FINDING_STUB_LIBCUDA, NULL);
		if (f == NULL) {
			f = finding_add(c->out, FINDING_STUB_LIBCUDA,
			    _("%s got the CUDA toolkit's stub libcuda instead of the "
			    "driver's: %s returned %s. The stub exists only to link "
			    "against; nothing runs on the GPU through it."), who,
			    call, code);
			lr_fix_comment(f, _("see where libcuda.so.1 comes from:"));
			strv_push(&f->fix, "cudawiz why libcuda.so.1");
		}
		record_evidence(f, rec, call);
		common_evidence(c, f, r);
		break;
	case CU_INSUFFICIENT:
		if (!c->driver) {
			f = finding_add(c->out, FINDING_RUNTIME_INIT_FAILED,
			    _("%s cannot start: %s returned %s, because no NVIDIA "
			    "driver is loaded on this machine. No CUDA program can "
			    "use a GPU here until one is."), who, call, code);
			f->severity = SEV_INFO;
			record_evidence(f, rec, call);
			version_evidence(f, r);
			common_evidence(c, f, r);
			break;
		}
		f = r->owner != NULL ? existing(c->out, FINDING_DRIVER_TOO_OLD,
		    r->owner) : NULL;
		if (f == NULL) {
			f = finding_add(c->out, FINDING_DRIVER_TOO_OLD,
			    _("%s needs a newer driver than the one in use: %s "
			    "returned %s. Programs and frameworks using this "
			    "runtime cannot use the GPU."), who, call, code);
			driver_fix(c, f, rt);
		}
		record_evidence(f, rec, call);
		version_evidence(f, r);
		common_evidence(c, f, r);
		break;
	case CU_COMPAT:
		f = finding_add(c->out, FINDING_FORWARD_COMPAT_UNSUPPORTED,
		    _("%s loads a forward-compatibility libcuda (the cuda-compat "
		    "package) that this GPU or driver does not support: %s "
		    "returned %s. Forward compatibility works only on data-centre "
		    "GPUs with a matching kernel module."), who, call, code);
		lr_fix_comment(f, _("drop the cuda-compat directory (…/compat) from "
		    "LD_LIBRARY_PATH and /etc/ld.so.conf.d, or remove the package:"));
		strv_push(&f->fix, "sudo apt-get remove 'cuda-compat-*'");
		record_evidence(f, rec, call);
		common_evidence(c, f, r);
		break;
	case CU_NO_DEVICE:
		f = existing(c->out, FINDING_NO_VISIBLE_DEVICES, NULL);
		if (f != NULL) {
			record_evidence(f, rec, call);
			break;
		}
		/* clang's -Wimplicit-fallthrough takes no comment, only
		 * the attribute (gcc takes both). */
		__attribute__((fallthrough));
	default:
		f = finding_add(c->out, FINDING_RUNTIME_INIT_FAILED,
		    _("%s failed to initialise: %s returned %s%s%s."), who, call,
		    code, rec->message != NULL ? ": " : "",
		    rec->message != NULL ? rec->message : "");
		if (!c->driver)
			f->severity = SEV_INFO;
		if (!cause_of(c, rec->code, f) && !c->driver)
			strv_push(&f->evidence, _("cause: no NVIDIA driver is "
			    "loaded on this machine"));
		version_evidence(f, r);
		common_evidence(c, f, r);
		break;
	}
	if (f != NULL && (size_t)(f - c->out->v) >= before)
		run_subject(f, r, code);
	free(who);
	free(code);
}

static void
load_failed(const struct vctx *c, const struct verify_run *r,
    const struct verify_record *rec)
{
	const char *err = verify_str(rec, "error");
	char *who;
	struct finding *f;

	/* No driver: LIBCUDA_NOT_FOUND or NO_NVIDIA_GPU already says it. */
	if (r->kind == VERIFY_DRIVER && !c->driver)
		return;
	who = run_words(r);
	f = finding_add(c->out, r->kind == VERIFY_CUDNN ? FINDING_CUDNN_FAILED :
	    FINDING_RUNTIME_INIT_FAILED,
	    _("%s could not be loaded: %s."), who, err != NULL ? err : "?");
	common_evidence(c, f, r);
	free(who);
}

static void
symbols_missing(const struct vctx *c, const struct verify_run *r,
    const struct verify_record *rec)
{
	const struct verify_kv *kv = verify_kv(rec, "missing");
	char *who = run_words(r);
	struct finding *f;

	f = finding_add(c->out, r->kind == VERIFY_CUDNN ? FINDING_CUDNN_FAILED :
	    FINDING_RUNTIME_INIT_FAILED,
	    _("%s lacks functions every release of it has (%s): it is damaged, "
	    "truncated, or not the library its name says."), who,
	    kv != NULL && kv->str != NULL ? kv->str : "?");
	common_evidence(c, f, r);
	free(who);
}

/* ------------------------------------------------------ PTX and kernels */

static void
ptx_failed(const struct vctx *c, const struct verify_run *r,
    const struct verify_record *rec)
{
	char *who = run_words(r), *code = code_words(rec);
	const struct verify_kv *tried = verify_kv(rec, "tried");
	struct finding *f;

	f = finding_add(c->out, FINDING_PTX_JIT_FAILED,
	    _("The driver behind %s could not JIT-compile the verification "
	    "kernels on device %d: %s. Programs that ship PTX instead of "
	    "machine code for this GPU (most new GPUs with older builds) fail "
	    "the same way."), who, rec->device, code);
	if (rec->code == CU_UNSUPPORTED_PTX)
		strv_push(&f->evidence, _("cause: the PTX is of a newer ISA than "
		    "this driver's JIT compiler knows: the driver is older than "
		    "the toolkit that made it"));
	else if (rec->code == CU_INVALID_PTX)
		strv_push(&f->evidence, _("cause: the JIT compiler rejected the "
		    "PTX (its log follows)"));
	if (tried != NULL && tried->str != NULL)
		strv_pushf(&f->evidence, _("variants tried: %s"), tried->str);
	tail_evidence(f, _("JIT log"), verify_str(rec, "log"));
	common_evidence(c, f, r);
	run_subject(f, r, code);
	free(who);
	free(code);
}

static const char *const kernel_checks[] = {
	"saxpy", "copy_bandwidth", "fma", "pinned", "roundtrip",
};

static void
kernel_evidence(struct finding *f, const struct verify_record *rec)
{
	double bad, err;
	char *code = rec->has_code ? code_words(rec) : NULL;

	if (code != NULL)
		strv_pushf(&f->evidence, _("%s: %s%s%s"), rec->check, code,
		    rec->message != NULL ? ": " : "",
		    rec->message != NULL ? rec->message : "");
	else if (verify_num(rec, "bad", &bad) && verify_num(rec, "max_error", &err))
		strv_pushf(&f->evidence, _("%s: %.0f results wrong, largest error "
		    "%g"), rec->check, bad, err);
	else
		strv_pushf(&f->evidence, _("%s: failed"), rec->check);
	free(code);
}

static void
kernels_failed(const struct vctx *c, const struct verify_run *r)
{
	struct finding *f = NULL;
	char *who = NULL;

	for (size_t i = 0; i < r->records.n; i++) {
		const struct verify_record *rec = &r->records.v[i];
		bool kernel = false;

		for (size_t k = 0; k < sizeof kernel_checks / sizeof *kernel_checks; k++)
			kernel = kernel || strcmp(rec->check, kernel_checks[k]) == 0;
		if (!kernel || rec->ok != 0)
			continue;
		if (f == NULL) {
			who = run_words(r);
			f = finding_add(c->out, FINDING_KERNEL_FAILED,
			    _("Work on the GPU through %s failed: a kernel did not "
			    "launch, a copy did not complete, or results came back "
			    "wrong. The GPU cannot be trusted with real work until "
			    "this passes."), who);
		}
		kernel_evidence(f, rec);
	}
	if (f != NULL) {
		lr_fix_comment(f, _("the kernel log shows Xid errors for a GPU "
		    "that faults:"));
		strv_push(&f->fix, "sudo dmesg | grep -iE 'nvrm|xid'");
		common_evidence(c, f, r);
	}
	free(who);
}

/* --------------------------------------------------------------- cuDNN */

static void
cudnn_failed(const struct vctx *c, const struct verify_run *r,
    const struct verify_record *rec, bool conv)
{
	char *who = run_words(r), *code = rec->has_code ? code_words(rec) : NULL;
	const struct verify_record *ver = verify_find(r, "cudnn_version", -1);
	double v, cv;
	struct finding *f;

	if (conv) {
		double err = 0;

		verify_num(rec, "max_error", &err);
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("%s ran a convolution whose result is wrong or that failed%s%s "
		    "(largest error %g against the CPU)."), who,
		    code != NULL ? ": " : "", code != NULL ? code : "", err);
	} else {
		f = finding_add(c->out, FINDING_CUDNN_FAILED,
		    _("%s could not create a handle: cudnnCreate returned %s%s%s."),
		    who, code != NULL ? code : "?",
		    rec->message != NULL ? ": " : "",
		    rec->message != NULL ? rec->message : "");
		if (!c->driver) {
			f->severity = SEV_INFO;
			strv_push(&f->evidence, _("cause: no NVIDIA driver is "
			    "loaded on this machine; cuDNN needs a GPU"));
		}
	}
	if (ver != NULL && verify_num(ver, "version", &v) &&
	    verify_num(ver, "cudart_version", &cv))
		strv_pushf(&f->evidence, _("live: cuDNN %.0f, built against CUDA "
		    "runtime %.0f"), v, cv);
	if (r->cudart != NULL)
		strv_pushf(&f->evidence, _("with the CUDA runtime %s"), r->cudart);
	common_evidence(c, f, r);
	run_subject(f, r, code);
	free(who);
	free(code);
}

/* ---------------------------------------------------------------- entry */

static void
rule_run(const struct vctx *c, const struct verify_run *r)
{
	const char *init_call = r->kind == VERIFY_DRIVER ? "cuInit" :
	    "cudaGetDeviceCount";

	rule_outcome(c, r);
	for (size_t i = 0; i < r->records.n; i++) {
		const struct verify_record *rec = &r->records.v[i];

		if (rec->ok != 0)
			continue;
		if (strcmp(rec->check, "load") == 0)
			load_failed(c, r, rec);
		else if (strcmp(rec->check, "symbols") == 0)
			symbols_missing(c, r, rec);
		else if (strcmp(rec->check, "init") == 0)
			init_failed(c, r, rec, init_call);
		else if (strcmp(rec->check, "context") == 0)
			init_failed(c, r, rec, "cuCtxCreate");
		else if (strcmp(rec->check, "ptx_jit") == 0)
			ptx_failed(c, r, rec);
		else if (strcmp(rec->check, "cudnn_create") == 0)
			cudnn_failed(c, r, rec, false);
		else if (strcmp(rec->check, "convolution") == 0)
			cudnn_failed(c, r, rec, true);
	}
	kernels_failed(c, r);
}

void
rules_verify(const struct diagnose_input *in, struct findings *out)
{
	const struct verify_facts *vf = &in->facts->verify;
	struct vctx c = { in, in->facts, out, facts_driver_present(in->facts) };

	if (vf->state != VERIFY_STATE_RAN)
		return;
	for (size_t i = 0; i < vf->runs.n; i++)
		rule_run(&c, &vf->runs.v[i]);
}
