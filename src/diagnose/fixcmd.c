/* Package install lines only for what was published; see fixcmd.h. The
 * catalogue is the matrix's published[] rows (data/SCHEMA.md); a line is
 * written when its row holds the package at the wanted versions, and the
 * words that replace it name the real alternatives. Pure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnose/fixcmd.h"
#include "diagnose/rules_install_plan.h"
#include "diagnose/rules_python_int.h"
#include "i18n.h"
#include "util/shquote.h"
#include "util/strbuf.h"
#include "util/strv.h"
#include "util/version.h"
#include "util/xalloc.h"

#define CUDNN_ARCHIVE	"https://developer.nvidia.com/rdp/cudnn-archive"
#define CUDA_ARCHIVE	"https://developer.nvidia.com/cuda-toolkit-archive"

/* The bounds a want asks the catalogue about: a pin is both ends ("8.*"
 * is the prefix "8"). */
static void
want_bounds(const struct fix_want *w, char *pin, size_t n, const char **min,
    const char **max)
{
	if (w->pin != NULL) {
		size_t len = strlen(w->pin);

		if (len >= 2 && strcmp(w->pin + len - 2, ".*") == 0)
			len -= 2;
		if (len >= n)
			len = n - 1;
		memcpy(pin, w->pin, len);
		pin[len] = '\0';
		*min = *max = pin;
		return;
	}
	*min = w->min;
	*max = w->max;
}

enum matrix_answer
fixcmd_published(const struct matrix *m, const struct fix_want *w)
{
	char pin[MATRIX_VERSION_MAX];
	const char *min, *max;

	if (m == NULL)
		return MATRIX_UNKNOWN;
	want_bounds(w, pin, sizeof pin, &min, &max);
	return matrix_published_has(m, w->channel, w->package, w->index_url,
	    min, max);
}

/* The version after a prefix: "7" -> "8", "12.4" -> "12.5". */
static char *
next_prefix(const char *v)
{
	const char *dot = strrchr(v, '.');
	const char *last = dot != NULL ? dot + 1 : v;

	return xasprintf("%.*s%lu", (int)(last - v), v,
	    strtoul(last, NULL, 10) + 1);
}

char *
fixcmd_pip_spec(const struct fix_want *w)
{
	char *next, *s;

	if (w->pin != NULL)
		return xasprintf("==%s", w->pin);
	if (w->min != NULL && w->max != NULL) {
		next = next_prefix(w->max);
		s = xasprintf(">=%s,<%s", w->min, next);
		free(next);
		return s;
	}
	if (w->max != NULL)
		return xasprintf("==%s.*", w->max);
	if (w->min != NULL)
		return xasprintf(">=%s", w->min);
	return xstrdup("");
}

/* conda's form: "=7.6" is every 7.6.x. */
static char *
conda_spec(const struct fix_want *w)
{
	size_t len;

	if (w->pin != NULL) {
		len = strlen(w->pin);
		if (len >= 2 && strcmp(w->pin + len - 2, ".*") == 0)
			len -= 2;
		return xasprintf("%s=%.*s", w->package, (int)len, w->pin);
	}
	if (w->max != NULL && w->min == NULL)
		return xasprintf("%s=%s", w->package, w->max);
	if (w->min != NULL || w->max != NULL) {
		char *spec = fixcmd_pip_spec(w), *s;

		s = xasprintf("%s%s", w->package, spec);
		free(spec);
		return s;
	}
	return xstrdup(w->package);
}

static bool
is_conda(const char *channel)
{
	return strcmp(channel, "pip") != 0 && strcmp(channel, "apt") != 0;
}

bool
fixcmd_install(const struct matrix *m, struct finding *f,
    const struct py_env *e, const struct fix_want *want, size_t n)
{
	const char *channel = n > 0 ? want[0].channel : NULL;
	struct strv words = STRV_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *spec;

	if (channel == NULL)
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(want[i].channel, channel) != 0 ||
		    fixcmd_published(m, &want[i]) != MATRIX_YES)
			return false;
	if (is_conda(channel)) {
		strv_push(&words, "install");
		strv_push(&words, "-c");
		strv_push(&words, channel);
	} else if (strcmp(channel, "pip") == 0) {
		strv_push(&words, "install");
		if (want[0].upgrade)
			strv_push(&words, "--upgrade");
	} else if (want[0].upgrade) {
		/* apt: only a newer version of what is installed. */
		strv_push(&words, "--only-upgrade");
	}
	for (size_t i = 0; i < n; i++) {
		if (is_conda(channel)) {
			strv_push_owned(&words, conda_spec(&want[i]));
		} else if (strcmp(channel, "apt") == 0) {
			strv_push_owned(&words, want[i].pin != NULL ?
			    xasprintf("%s=%s", want[i].package, want[i].pin) :
			    xstrdup(want[i].package));
		} else {
			spec = fixcmd_pip_spec(&want[i]);
			strv_pushf(&words, "%s%s", want[i].package, spec);
			free(spec);
		}
	}
	for (size_t i = 0; i < n && strcmp(channel, "pip") == 0; i++)
		if (want[i].index_url != NULL) {
			strv_push(&words, "--index-url");
			strv_push(&words, want[i].index_url);
			break;
		}
	if (e != NULL && strcmp(channel, "apt") != 0) {
		ip_fix_line(f, pr_cmdv(is_conda(channel) ? PR_CONDA : PR_PIP, e,
		    &words));
		strv_free(&words);
		return true;
	}
	strbuf_puts(&sb, strcmp(channel, "apt") == 0 ? "sudo apt-get install" :
	    is_conda(channel) ? "conda" : "pip");
	for (size_t i = 0; i < words.n; i++) {
		strbuf_putc(&sb, ' ');
		shquote(&sb, words.v[i]);
	}
	ip_fix_line(f, strbuf_take(&sb));
	strv_free(&words);
	return true;
}

/* The lowest version of a row's published ranges, or NULL. */
static const char *
first_version(const struct matrix_published *p)
{
	const char *lo = NULL;

	for (size_t i = 0; p != NULL && i < p->versions.n; i++)
		if (p->versions.v[i].min != NULL &&
		    (lo == NULL || version_cmp_str(p->versions.v[i].min, lo) < 0))
			lo = p->versions.v[i].min;
	return lo;
}

/* "8.9 (CUDA 12), 9.0 (CUDA 13)": where the wheels of a stem start, by
 * CUDA major, from the catalogue; empty when it has none. */
static char *
wheel_starts(const struct matrix *m, const char *stem)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(stem);

	for (size_t i = 0; i < matrix_published_count(m); i++) {
		const struct matrix_published *p = matrix_published_at(m, i);
		const char *lo = first_version(p);
		char mm[MATRIX_VERSION_MAX];

		if (strcmp(p->channel, "pip") != 0 || p->index_url != NULL ||
		    strncmp(p->package, stem, len) != 0 || lo == NULL ||
		    p->cuda_major == 0)
			continue;
		if (sb.len > 0)
			strbuf_puts(&sb, ", ");
		strbuf_printf(&sb, _("%s (CUDA %u)"),
		    pr_major_minor(lo, mm, sizeof mm) ? mm : lo, p->cuda_major);
	}
	return strbuf_take(&sb);
}

/* A comment line. */
static void
say(struct finding *f, char *text)
{
	ip_fix_line(f, xasprintf("# %s", text));
	free(text);
}

/* The newest cuDNN release of a major that conda has (7.6, 7.5 …), with
 * the newest CUDA it was built for that conda has as cudatoolkit: the
 * pair that still installs together. */
static bool
cudnn_pair(const struct matrix *m, struct finding *f, const struct py_env *e,
    unsigned cudnn_major)
{
	for (unsigned minor = 10; minor-- > 0;) {
		char mm[24];
		const struct matrix_cudnn_release *cr;
		struct fix_want pair[2] = {
			{ .channel = "conda-forge", .package = "cudatoolkit" },
			{ .channel = "conda-forge", .package = "cudnn", .pin = mm },
		};

		snprintf(mm, sizeof mm, "%u.%u", cudnn_major, minor);
		if ((cr = matrix_cudnn_release(m, mm)) == NULL ||
		    fixcmd_published(m, &pair[1]) != MATRIX_YES)
			continue;
		for (size_t j = cr->cuda.n; j-- > 0;) {
			const struct matrix_range *cu = &cr->cuda.v[j];
			const char *top = cu->max != NULL ? cu->max : cu->min;
			char tk[MATRIX_VERSION_MAX];

			if (!pr_major_minor(top, tk, sizeof tk))
				continue;
			pair[0].pin = tk;
			if (fixcmd_published(m, &pair[0]) != MATRIX_YES)
				continue;
			say(f, xasprintf(_("conda-forge still has cuDNN %s, with the "
			    "CUDA %s it was built for:"), mm, tk));
			return fixcmd_install(m, f, e != NULL &&
			    e->kind == PYENV_CONDA ? e : NULL, pair, 2);
		}
	}
	return false;
}

void
fixcmd_cudnn(const struct matrix *m, struct finding *f,
    const struct py_env *e, unsigned cudnn_major, const char *min_version,
    const unsigned *cuda_majors, size_t n)
{
	static const unsigned every[] = { 13, 12, 11 };
	char max[16], *starts;

	if (n == 0) {
		cuda_majors = every;
		n = sizeof every / sizeof every[0];
	}
	snprintf(max, sizeof max, "%u", cudnn_major);
	for (size_t i = 0; m != NULL && i < n; i++) {
		char *pkg = xasprintf("nvidia-cudnn-cu%u", cuda_majors[i]);
		struct fix_want w = { .channel = "pip", .package = pkg,
		    .min = min_version, .max = max };
		bool done = fixcmd_published(m, &w) == MATRIX_YES;

		if (done) {
			say(f, xasprintf(_("cuDNN %u for CUDA %u, as a wheel in one "
			    "Python environment:"), cudnn_major, cuda_majors[i]));
			fixcmd_install(m, f, e, &w, 1);
		}
		free(pkg);
		if (done)
			return;
	}
	starts = m != NULL ? wheel_starts(m, "nvidia-cudnn-cu") : xstrdup("");
	if (starts[0] != '\0')
		say(f, xasprintf(_("no cuDNN %u wheel was ever published for pip; "
		    "cuDNN wheels start at %s"), cudnn_major, starts));
	else
		say(f, xasprintf(_("no cuDNN %u wheel is known to have been "
		    "published for pip"), cudnn_major));
	free(starts);
	if (m == NULL || !cudnn_pair(m, f, e, cudnn_major))
		say(f, xasprintf(_("cuDNN %u is on NVIDIA's archive page: %s"),
		    cudnn_major, CUDNN_ARCHIVE));
	else
		say(f, xasprintf(_("or take cuDNN %u from NVIDIA's archive page: "
		    "%s"), cudnn_major, CUDNN_ARCHIVE));
	say(f, xstrdup(_("or install the framework version built for the "
	    "cuDNN this machine has")));
}

void
fixcmd_cudart(const struct matrix *m, struct finding *f,
    const struct py_env *e, unsigned cuda_major, const char *min)
{
	char *pkg = xasprintf("nvidia-cuda-runtime-cu%u", cuda_major);
	char max[16], tk[MATRIX_VERSION_MAX], *starts;
	/* CUDA 13's wheels carry no -cuNN suffix. */
	struct fix_want w[2] = {
		{ .channel = "pip", .package = pkg, .max = max },
		{ .channel = "pip", .package = "nvidia-cuda-runtime", .max = max },
	};

	snprintf(max, sizeof max, "%u", cuda_major);
	for (size_t i = 0; i < 2; i++)
		if (fixcmd_published(m, &w[i]) == MATRIX_YES) {
			say(f, xasprintf(_("or install the CUDA %u runtime as a wheel, "
			    "for one Python environment:"), cuda_major));
			fixcmd_install(m, f, e, &w[i], 1);
			free(pkg);
			return;
		}
	free(pkg);
	if (m == NULL)
		return;
	starts = wheel_starts(m, "nvidia-cuda-runtime-cu");
	if (starts[0] != '\0')
		say(f, xasprintf(_("no CUDA %u runtime wheel was ever published for "
		    "pip; they start at %s"), cuda_major, starts));
	else
		say(f, xasprintf(_("no CUDA %u runtime wheel was ever published for "
		    "pip"), cuda_major));
	free(starts);
	/* conda-forge's cudatoolkit covers CUDA 11.8 and older. */
	if (min != NULL && pr_major_minor(min, tk, sizeof tk)) {
		struct fix_want c = { .channel = "conda-forge",
		    .package = "cudatoolkit", .pin = tk };

		if (fixcmd_published(m, &c) == MATRIX_YES) {
			say(f, xasprintf(_("conda-forge has CUDA %s for one "
			    "environment:"), tk));
			fixcmd_install(m, f, e != NULL && e->kind == PYENV_CONDA ?
			    e : NULL, &c, 1);
		}
	}
	say(f, xasprintf(_("CUDA %u is on NVIDIA's archive page: %s"),
	    cuda_major, CUDA_ARCHIVE));
}
