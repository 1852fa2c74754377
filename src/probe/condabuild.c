/* The CUDA a conda build string and a depends pin name; see condabuild.h.
 * conda writes the CUDA a package was built for only there: the files of
 * a conda-forge jaxlib or cupy do not say it. */
#include "config.h"

#include <string.h>

#include "probe/condabuild.h"

/* Copies s[0..n) into out when it fits and is a version (digits and
 * single dots, a digit first and last). */
static bool
put_version(char *out, size_t size, const char *s, size_t n)
{
	if (n == 0 || n >= size || s[0] == '.' || s[n - 1] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '.' ? s[i + 1] == '.' : (s[i] < '0' || s[i] > '9'))
			return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* "12.1" as written, or the digits of "120"/"118"/"92" with the dot put
 * back; "11" and "12" alone are majors. */
static bool
cuda_release(const char *s, char *out, size_t size)
{
	size_t n = strspn(s, "0123456789."), d;
	char buf[8];

	while (n > 0 && s[n - 1] == '.')
		n--;
	if (memchr(s, '.', n) != NULL)
		return put_version(out, size, s, n);
	d = n;
	if (d == 2 && s[0] == '1')
		return put_version(out, size, s, 2);
	if (d != 2 && d != 3)
		return false;
	memcpy(buf, s, d - 1);
	buf[d - 1] = '.';
	buf[d] = s[d - 1];
	return put_version(out, size, buf, d + 1);
}

void
conda_build_parse(const char *build, struct conda_build *out)
{
	const char *t = build;
	bool cpu = false, gpu = false, first = true;

	memset(out, 0, sizeof *out);
	if (build == NULL)
		return;
	while (*t != '\0') {
		size_t len = strcspn(t, "_");

		if (len >= 4 && strncmp(t, "cuda", 4) == 0) {
			/* "cuda12.1", "cuda120py311h…", a bare "cuda". */
			if (out->cuda[0] == '\0' &&
			    cuda_release(t + 4, out->cuda, sizeof out->cuda))
				out->kind = CB_CUDA;
			else if (len == 4)
				gpu = true;
		} else if (len > 5 && strncmp(t, "cudnn", 5) == 0) {
			size_t n = strspn(t + 5, "0123456789.");

			if (n > len - 5)
				n = len - 5;
			(void)put_version(out->cudnn, sizeof out->cudnn, t + 5,
			    n);
		} else if (len == 3 && strncmp(t, "cpu", 3) == 0) {
			cpu = true;
		} else if (first && len == 3 && strncmp(t, "gpu", 3) == 0) {
			gpu = true;
		} else if (first && ((len == 3 && strncmp(t, "mkl", 3) == 0) ||
		    (len == 5 && strncmp(t, "eigen", 5) == 0))) {
			/* defaults' TensorFlow: the first word is the
			 * device; conda-forge's torch puts mkl second. */
			cpu = true;
		}
		first = false;
		t += len;
		if (*t == '_')
			t++;
	}
	if (out->kind == CB_CUDA)
		return;
	if (gpu)
		out->kind = CB_GPU;
	else if (cpu)
		out->kind = CB_CPU;
}

bool
conda_dep_floor(const char *spec, const char *name, char *out, size_t n)
{
	size_t nl = strlen(name), cl;
	const char *c;

	if (spec == NULL || strncmp(spec, name, nl) != 0 ||
	    (spec[nl] != ' ' && spec[nl] != '\0'))
		return false;
	c = spec + nl;
	c += strspn(c, " ");
	cl = strcspn(c, " |");		/* the first alternative */
	while (cl > 0) {
		size_t pl = strcspn(c, ",");
		const char *v = c;
		size_t vl;

		if (pl > cl)
			pl = cl;
		if (pl >= 2 && (strncmp(c, ">=", 2) == 0 ||
		    strncmp(c, "==", 2) == 0))
			v = c + 2;
		else if (pl >= 1 && (c[0] == '>' || c[0] == '='))
			v = c + 1;
		else if (pl >= 1 && (c[0] < '0' || c[0] > '9'))
			v = NULL;	/* "<13", "!=…", "~=…" */
		if (v != NULL) {
			vl = pl - (size_t)(v - c);
			/* "11.8.*", "9.*": the prefix is the floor. */
			while (vl > 0 && (v[vl - 1] == '*' || v[vl - 1] == '.'))
				vl--;
			if (put_version(out, n, v, vl))
				return true;
		}
		if (pl == cl)
			break;
		c += pl + 1;
		cl -= pl + 1;
	}
	return false;
}
