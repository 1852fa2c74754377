/* winprobe-dump ROOT [NAME=VALUE ...]: runs the Windows probe over the
 * tree ROOT (drive C:) with the given environment and prints its facts,
 * one line each, as "kind key=value key=value…" (a value to the end of
 * its field; fields separated by " | "), for tests/cli/winprobe-mingw.sh. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "sysroot/sysroot.h"
#include "winprobe/winprobe.h"

static const char *
s(const char *v)
{
	return v != NULL ? v : "-";
}

static void
dll(const char *label, const struct win_dll *d)
{
	printf("%s path=%s | file_version=%s | product_version=%s | product=%s | machine=0x%x | error=%s\n",
	    label, s(d->path), s(d->file_version), s(d->product_version),
	    s(d->product_name), d->machine, s(d->error));
}

static void
list(const char *label, const struct strv *v)
{
	printf(" | %s=", label);
	for (size_t i = 0; i < v->n; i++)
		printf("%s%s", i > 0 ? "," : "", v->v[i]);
	if (v->n == 0)
		printf("-");
}

int
main(int argc, char **argv)
{
	struct sysroot *sr;
	struct win_facts f;
	char *err = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: winprobe-dump ROOT [NAME=VALUE ...]\n");
		return 2;
	}
	sr = sysroot_new(argv[1], &err);
	if (sr == NULL) {
		fprintf(stderr, "winprobe-dump: %s\n", err);
		free(err);
		return 1;
	}
	winprobe_run(sr, argv + 2, NULL, &f);
	printf("driver state=%s | version=%s\n",
	    win_nvcuda_state_name(f.driver.state), s(f.driver.version));
	dll("nvcuda", &f.driver.nvcuda);
	dll("nvml", &f.driver.nvml);
	for (size_t i = 0; i < f.toolkits.n; i++) {
		const struct win_toolkit *t = &f.toolkits.v[i];
		char label[64];

		printf("toolkit[%zu] dir=%s | dir_version=%s | json_version=%s | json_error=%s | from_env=%d\n",
		    i, t->dir, s(t->dir_version), s(t->json_version),
		    s(t->json_error), t->from_env);
		snprintf(label, sizeof label, "toolkit[%zu].cudart", i);
		dll(label, &t->cudart);
	}
	printf("cuda_path toolkit=%ld\n", f.cuda_path_toolkit);
	for (size_t i = 0; i < f.cudavars.n; i++) {
		const struct win_cudavar *v = &f.cudavars.v[i];

		printf("cudavar %s value=%s | version=%s | dir=%s | toolkit=%ld | why=%s\n",
		    v->name, v->value, s(v->name_version), s(v->dir),
		    v->toolkit, s(v->why));
	}
	for (size_t i = 0; i < f.cudnn.n; i++) {
		const struct win_cudnn *c = &f.cudnn.v[i];
		char label[64];

		printf("cudnn[%zu] where=%s | index=%ld | dir=%s | header=%s",
		    i, win_cudnn_where_name(c->where), c->index, c->dir,
		    s(c->header_version));
		list("parts", &c->parts);
		printf("\n");
		snprintf(label, sizeof label, "cudnn[%zu].dll", i);
		dll(label, &c->dll);
	}
	for (size_t i = 0; i < f.pythons.n; i++) {
		const struct win_python *p = &f.pythons.v[i];

		printf("python[%zu] kind=%s | dir=%s | exe=%s | version=%s | from=%s | home=%s | site=%s | path_index=%ld\n",
		    i, win_python_kind_name(p->kind), p->dir, p->exe,
		    s(p->version), s(p->version_from), s(p->home),
		    s(p->site_packages), p->path_index);
		for (size_t j = 0; j < p->frameworks.n; j++) {
			const struct win_framework *fw = &p->frameworks.v[j];

			printf("python[%zu].%s version=%s | cuda=%s | cudnn=%s | error=%s",
			    i, fw->name, s(fw->version), s(fw->cuda_version),
			    s(fw->cudnn_version), s(fw->error));
			list("wants", &fw->wants);
			list("bundled", &fw->bundled);
			printf("\n");
		}
	}
	for (size_t i = 0; i < f.notes.n; i++)
		printf("note %s\n", f.notes.v[i]);
	win_facts_free(&f);
	sysroot_free(sr);
	return 0;
}
