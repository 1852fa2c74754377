/* The report as Prometheus metrics, in the text exposition format 0.0.4
 * (docs/METRICS.md lists every family; the names are a contract).
 *
 * Every family is built first and written after: the format wants each
 * family's samples together under one # HELP and # TYPE, and a label set
 * at most once per family, which a machine does not promise (two
 * toolkits under one path once bad bytes are replaced, one finding code
 * met five times). A repeated label set is merged as its family says:
 * counted, kept once, or the lowest value kept. Label values are what
 * the probes read, so anything: they are escaped as the format says
 * (backslash, double quote, newline) and bytes that are not UTF-8, which
 * Prometheus refuses, become U+FFFD. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "present/prom.h"
#include "util/strbuf.h"
#include "util/strmap.h"
#include "util/utf8width.h"
#include "util/xalloc.h"

/* How a label set met twice in one family is kept. */
enum merge {
	MERGE_ONCE = 0,		/* the first value (info metrics: 1) */
	MERGE_SUM,		/* counts */
	MERGE_MIN,		/* 0|1: ready only if every copy is */
};

enum fam {
	F_UP = 0,
	F_LAST_RUN,
	F_FINDINGS,
	F_FINDING,
	F_DRIVER_INFO,
	F_GPUS,
	F_GPU_INFO,
	F_TOOLKIT_INFO,
	F_CUDNN_INFO,
	F_FRAMEWORK_INFO,
	F_FRAMEWORK_READY,
	F_VERIFY_OK,
	F_COPY_BW,
	F_MEMCPY_BW,
	F_FMA,
	F_PINNED_H2D,
	F_PINNED_D2H,
	F_COUNT
};

static const struct {
	const char	*name;
	const char	*help;
	enum merge	 merge;
} fams[F_COUNT] = {
	[F_UP] = { "cudawiz_up",
	    "1 when cudawiz made this report.", MERGE_ONCE },
	[F_LAST_RUN] = { "cudawiz_last_run_timestamp_seconds",
	    "When the report was made, in seconds since the epoch.", MERGE_ONCE },
	[F_FINDINGS] = { "cudawiz_findings",
	    "Findings of the report by severity.", MERGE_SUM },
	[F_FINDING] = { "cudawiz_finding",
	    "Findings of the report with this code and severity.", MERGE_SUM },
	[F_DRIVER_INFO] = { "cudawiz_driver_info",
	    "The NVIDIA driver: userspace libcuda version, branch, kernel "
	    "module version and the newest CUDA it runs.", MERGE_ONCE },
	[F_GPUS] = { "cudawiz_gpus",
	    "NVIDIA GPUs on the PCI bus.", MERGE_ONCE },
	[F_GPU_INFO] = { "cudawiz_gpu_info",
	    "An NVIDIA GPU and its PCIe link.", MERGE_ONCE },
	[F_TOOLKIT_INFO] = { "cudawiz_toolkit_info",
	    "A CUDA toolkit found on the machine.", MERGE_ONCE },
	[F_CUDNN_INFO] = { "cudawiz_cudnn_info",
	    "A cuDNN found on the machine.", MERGE_ONCE },
	[F_FRAMEWORK_INFO] = { "cudawiz_framework_info",
	    "A GPU framework in a Python environment and the CUDA it was "
	    "built with.", MERGE_ONCE },
	[F_FRAMEWORK_READY] = { "cudawiz_framework_gpu_ready",
	    "1 when the framework is a GPU build whose CUDA libraries all "
	    "load as they should.", MERGE_MIN },
	[F_VERIFY_OK] = { "cudawiz_verify_check_ok",
	    "1 when every run of this live check passed, 0 when one failed.",
	    MERGE_MIN },
	[F_COPY_BW] = { "cudawiz_verify_copy_bandwidth_bytes_per_second",
	    "Device memory bandwidth of the copy kernel (reads and writes).",
	    MERGE_ONCE },
	[F_MEMCPY_BW] = { "cudawiz_verify_memcpy_bandwidth_bytes_per_second",
	    "Device to device cuMemcpy bandwidth.", MERGE_ONCE },
	[F_FMA] = { "cudawiz_verify_fma_flops",
	    "Single precision FMA throughput, in floating point operations "
	    "per second.", MERGE_ONCE },
	[F_PINNED_H2D] = { "cudawiz_verify_pinned_host_to_device_bytes_per_second",
	    "Host to device copy bandwidth from pinned memory.", MERGE_ONCE },
	[F_PINNED_D2H] = { "cudawiz_verify_pinned_device_to_host_bytes_per_second",
	    "Device to host copy bandwidth to pinned memory.", MERGE_ONCE },
};

struct sample {
	char	*labels;	/* "" or {a="x",b="y"} */
	double	 value;
};

struct family {
	struct strmap	index;		/* labels -> index into samples */
	struct {
		struct sample	*v;
		size_t		 n, cap;
	} samples;
};

struct metrics {
	struct family	f[F_COUNT];
};

/* Appends s as a label value: escaped, bad bytes as U+FFFD. */
static void
esc_value(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s != NULL ? s : "");

	while (*p != '\0') {
		size_t n = utf8_seq(p, SIZE_MAX, NULL);

		if (n == 0) {
			strbuf_puts(sb, "\xef\xbf\xbd");
			p++;
			continue;
		}
		if (*p == '\\')
			strbuf_puts(sb, "\\\\");
		else if (*p == '"')
			strbuf_puts(sb, "\\\"");
		else if (*p == '\n')
			strbuf_puts(sb, "\\n");
		else
			strbuf_add(sb, (const char *)p, n);
		p += n;
	}
}

/* Adds a sample; the arguments after value are label name, value pairs
 * ended by NULL (a NULL value is the empty string: unknown). */
static void
put(struct metrics *ms, enum fam fam, double value, ...)
{
	struct family *f = &ms->f[fam];
	struct strbuf sb = STRBUF_INIT;
	const char *name;
	struct sample *s;
	size_t *at;
	va_list ap;

	va_start(ap, value);
	while ((name = va_arg(ap, const char *)) != NULL) {
		strbuf_puts(&sb, sb.len == 0 ? "{" : ",");
		strbuf_printf(&sb, "%s=\"", name);
		esc_value(&sb, va_arg(ap, const char *));
		strbuf_putc(&sb, '"');
	}
	va_end(ap);
	if (sb.len > 0)
		strbuf_putc(&sb, '}');
	if ((at = strmap_get(&f->index, strbuf_str(&sb))) != NULL) {
		s = &f->samples.v[*at];
		if (fams[fam].merge == MERGE_SUM)
			s->value += value;
		else if (fams[fam].merge == MERGE_MIN && value < s->value)
			s->value = value;
		strbuf_free(&sb);
		return;
	}
	(void)strmap_put(&f->index, strbuf_str(&sb), f->samples.n);
	s = VEC_PUSH(&f->samples);
	s->labels = strbuf_take(&sb);
	s->value = value;
}

/* A float as Prometheus reads it; whole numbers without a fraction
 * (isnan and isinf are macros: no libm for this). */
static void
print_value(FILE *fp, double v)
{
	if (isnan(v))
		fputs("NaN", fp);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", fp);
	else if (v > -1e15 && v < 1e15 && v == (double)(long long)v)
		fprintf(fp, "%lld", (long long)v);
	else
		fprintf(fp, "%.17g", v);
}

static const char *
known(const struct fact_str *f)
{
	return f->state == FACT_KNOWN ? f->value : NULL;
}

static void
add_findings(struct metrics *ms, const struct findings *fs)
{
	static const enum severity order[] = { SEV_ERROR, SEV_WARNING,
	    SEV_INFO };

	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		put(ms, F_FINDINGS, (double)findings_count(fs, order[i]),
		    "severity", severity_name(order[i]), NULL);
	for (size_t i = 0; i < fs->n; i++)
		put(ms, F_FINDING, 1, "code", finding_code_name(fs->v[i].code),
		    "severity", severity_name(fs->v[i].severity), NULL);
}

/* The userspace libcuda's version, as the spec's driver.version. */
static const char *
libcuda_version(const struct driver_facts *d)
{
	for (size_t i = 0; i < d->libs.n; i++)
		if (strcmp(d->libs.v[i].name, "libcuda") == 0 &&
		    d->libs.v[i].version != NULL)
			return d->libs.v[i].version;
	return NULL;
}

static void
add_driver(struct metrics *ms, const struct driver_facts *d)
{
	const char *version = libcuda_version(d);
	const char *module = known(&d->module_version);
	const char *max_cuda = known(&d->max_cuda);
	const char *from;
	char *branch = NULL;

	if (module == NULL)
		module = known(&d->sys_module_version);
	from = module != NULL ? module : version;
	if (from != NULL)
		branch = xstrndup(from, strcspn(from, "."));
	if (from != NULL || max_cuda != NULL)
		put(ms, F_DRIVER_INFO, 1, "version", version, "branch", branch,
		    "module_version", module, "max_cuda", max_cuda, NULL);
	free(branch);
}

static void
add_gpus(struct metrics *ms, const struct facts *f)
{
	if (f->gpus_state.state == FACT_KNOWN)
		put(ms, F_GPUS, (double)f->gpus.n, NULL);
	for (size_t i = 0; i < f->gpus.n; i++) {
		const struct gpu_fact *g = &f->gpus.v[i];

		put(ms, F_GPU_INFO, 1, "pci_address", g->pci_address,
		    "name", known(&g->name),
		    "compute_capability", known(&g->cc),
		    "link_width", known(&g->link_width),
		    "link_speed", known(&g->link_speed),
		    "max_link_width", known(&g->max_link_width),
		    "max_link_speed", known(&g->max_link_speed), NULL);
	}
}

static void
add_libraries(struct metrics *ms, const struct facts *f)
{
	for (size_t i = 0; i < f->toolkits.n; i++) {
		const struct toolkit_fact *t = &f->toolkits.v[i];

		put(ms, F_TOOLKIT_INFO, 1, "version", t->release != NULL ?
		    t->release : known(&t->version), "path", t->root, NULL);
	}
	for (size_t i = 0; i < f->cudnn.n; i++) {
		const struct cudnn_fact *c = &f->cudnn.v[i];
		const char *v = known(&c->version);

		put(ms, F_CUDNN_INFO, 1, "version", v != NULL ? v :
		    known(&c->lib_version), "path", c->lib_dir, NULL);
	}
}

static void
add_frameworks(struct metrics *ms, const struct facts *f)
{
	for (size_t i = 0; i < f->python_envs.n; i++) {
		const struct py_env *e = &f->python_envs.v[i];

		for (size_t j = 0; j < e->frameworks.n; j++) {
			const struct framework_fact *fw = &e->frameworks.v[j];
			const char *cuda = fw->cuda;

			if (cuda == NULL && fw->gpu == FW_GPU_NO)
				cuda = "cpu";
			put(ms, F_FRAMEWORK_INFO, 1, "env", e->prefix,
			    "name", fw->name, "version", fw->version,
			    "cuda", cuda, NULL);
			put(ms, F_FRAMEWORK_READY,
			    framework_gpu_ready(fw) ? 1 : 0, "env", e->prefix,
			    "name", fw->name, NULL);
		}
	}
}

/* A measured figure of a record, scaled to base units (GB/s and
 * GFLOP/s to bytes and operations per second). */
static void
add_figure(struct metrics *ms, enum fam fam, const struct verify_record *rec,
    const char *key)
{
	char dev[24];
	double v;

	if (rec->ok != 1 || !verify_num(rec, key, &v))
		return;
	snprintf(dev, sizeof dev, "%d", rec->device);
	put(ms, fam, v * 1e9, "device", dev, NULL);
}

static void
add_verify(struct metrics *ms, const struct verify_facts *vf)
{
	if (vf->state != VERIFY_STATE_RAN)
		return;
	for (size_t i = 0; i < vf->runs.n; i++) {
		const struct verify_run *r = &vf->runs.v[i];

		for (size_t j = 0; j < r->records.n; j++) {
			const struct verify_record *rec = &r->records.v[j];

			if (rec->ok >= 0 && rec->check != NULL)
				put(ms, F_VERIFY_OK, rec->ok, "check",
				    rec->check, NULL);
			if (r->kind != VERIFY_DRIVER || rec->check == NULL ||
			    rec->device < 0)
				continue;
			if (strcmp(rec->check, "copy_bandwidth") == 0) {
				add_figure(ms, F_COPY_BW, rec, "kernel_gbps");
				add_figure(ms, F_MEMCPY_BW, rec, "memcpy_gbps");
			} else if (strcmp(rec->check, "fma") == 0) {
				add_figure(ms, F_FMA, rec, "gflops");
			} else if (strcmp(rec->check, "pinned") == 0) {
				add_figure(ms, F_PINNED_H2D, rec, "h2d_gbps");
				add_figure(ms, F_PINNED_D2H, rec, "d2h_gbps");
			}
		}
	}
}

static void
print_family(FILE *fp, enum fam fam, const struct family *f)
{
	if (f->samples.n == 0)
		return;
	fprintf(fp, "# HELP %s %s\n# TYPE %s gauge\n", fams[fam].name,
	    fams[fam].help, fams[fam].name);
	for (size_t i = 0; i < f->samples.n; i++) {
		fprintf(fp, "%s%s ", fams[fam].name, f->samples.v[i].labels);
		print_value(fp, f->samples.v[i].value);
		fputc('\n', fp);
	}
}

static void
metrics_free(struct metrics *ms)
{
	for (size_t i = 0; i < F_COUNT; i++) {
		struct family *f = &ms->f[i];

		for (size_t j = 0; j < f->samples.n; j++)
			free(f->samples.v[j].labels);
		free(f->samples.v);
		strmap_free(&f->index);
	}
}

int
prom_print_doctor(FILE *fp, const struct facts *facts,
    const struct findings *findings, const struct matrix *m, time_t now)
{
	struct metrics ms;

	(void)m;	/* what the report says of the matrix is in findings */
	memset(&ms, 0, sizeof ms);
	put(&ms, F_UP, 1, NULL);
	put(&ms, F_LAST_RUN, (double)now, NULL);
	add_findings(&ms, findings);
	add_driver(&ms, &facts->driver);
	add_gpus(&ms, facts);
	add_libraries(&ms, facts);
	add_frameworks(&ms, facts);
	add_verify(&ms, &facts->verify);
	for (size_t i = 0; i < F_COUNT; i++)
		print_family(fp, (enum fam)i, &ms.f[i]);
	metrics_free(&ms);
	return ferror(fp) ? -1 : 0;
}
