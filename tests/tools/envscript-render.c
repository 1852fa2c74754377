/* envscript-render: builds an environment plan from its arguments and
 * runs one of the script writers, so the shell tests can exercise them
 * without probing a machine.
 *
 *   envscript-render [PLAN...] [--format F] [--version V]
 *       prints the script (--deactivate: conda's deactivate.d script;
 *       --deactivate-name: the name of the way back)
 *   ... -o FILE [--force]          writes it (prints "backup: PATH")
 *   ... --conda PREFIX [--force]   writes the conda pair
 *   --install-rc RC SCRIPT [--format F]
 *
 * PLAN: --name N --note TEXT --prepend-path D --remove-path D
 *   --path-drop-stubs --path-drop-missing --prepend-ld D --remove-ld D
 *   --drop-stubs --drop-missing (LD_LIBRARY_PATH) --set VAR=VALUE
 *   --unset VAR (CUDA_HOME, CUDA_PATH) --win-prepend D --win-remove D
 *   --user (the user's Windows environment too: env --scope user)
 * Exit 0, 1 when the writer refused (its message on stderr), 2 usage. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "envscript/envscript.h"
#include "util/xalloc.h"

static void
plan_free(struct env_plan *p)
{
	free(p->name);
	strv_free(&p->notes);
	strv_free(&p->path.prepend);
	strv_free(&p->path.remove);
	strv_free(&p->ld_library_path.prepend);
	strv_free(&p->ld_library_path.remove);
	free(p->cuda_home.value);
	free(p->cuda_path.value);
	strv_free(&p->win_path_prepend);
	strv_free(&p->win_path_remove);
}

static struct plan_var *
var_of(struct env_plan *p, const char *name, size_t n)
{
	if (n == 9 && strncmp(name, "CUDA_HOME", n) == 0)
		return &p->cuda_home;
	if (n == 9 && strncmp(name, "CUDA_PATH", n) == 0)
		return &p->cuda_path;
	fprintf(stderr, "envscript-render: no plan variable '%.*s'\n", (int)n, name);
	exit(2);
}

static int
usage(void)
{
	fputs("usage: envscript-render [PLAN...] [--format F] [-o FILE [--force]|"
	    "--conda PREFIX|--install-rc RC SCRIPT|--deactivate|--deactivate-name]\n",
	    stderr);
	return 2;
}

int
main(int argc, char **argv)
{
	struct env_plan p;
	struct script_text t = { NULL, NULL };
	enum script_format fmt = SCRIPT_SH;
	const char *out = NULL, *conda = NULL, *rc = NULL, *rcscript = NULL;
	const char *version = "test";
	bool force = false, deact = false, deact_name = false;
	char *err = NULL, *backup = NULL;
	int ret = 0;

	memset(&p, 0, sizeof p);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		bool takes = true;

		if (strcmp(a, "--force") == 0)
			force = true, takes = false;
		else if (strcmp(a, "--deactivate") == 0)
			deact = true, takes = false;
		else if (strcmp(a, "--deactivate-name") == 0)
			deact_name = true, takes = false;
		else if (strcmp(a, "--drop-stubs") == 0)
			p.ld_library_path.drop_stubs = true, takes = false;
		else if (strcmp(a, "--drop-missing") == 0)
			p.ld_library_path.drop_missing = true, takes = false;
		else if (strcmp(a, "--path-drop-stubs") == 0)
			p.path.drop_stubs = true, takes = false;
		else if (strcmp(a, "--path-drop-missing") == 0)
			p.path.drop_missing = true, takes = false;
		else if (strcmp(a, "--user") == 0)
			p.win_user = true, takes = false;
		if (!takes)
			continue;
		if (v == NULL)
			return usage();
		i++;
		if (strcmp(a, "--name") == 0) {
			free(p.name);
			p.name = xstrdup(v);
		} else if (strcmp(a, "--note") == 0) {
			strv_push(&p.notes, v);
		} else if (strcmp(a, "--prepend-path") == 0) {
			strv_push(&p.path.prepend, v);
		} else if (strcmp(a, "--remove-path") == 0) {
			strv_push(&p.path.remove, v);
		} else if (strcmp(a, "--prepend-ld") == 0) {
			strv_push(&p.ld_library_path.prepend, v);
		} else if (strcmp(a, "--remove-ld") == 0) {
			strv_push(&p.ld_library_path.remove, v);
		} else if (strcmp(a, "--win-prepend") == 0) {
			strv_push(&p.win_path_prepend, v);
		} else if (strcmp(a, "--win-remove") == 0) {
			strv_push(&p.win_path_remove, v);
		} else if (strcmp(a, "--set") == 0) {
			const char *eq = strchr(v, '=');
			struct plan_var *pv;

			if (eq == NULL)
				return usage();
			pv = var_of(&p, v, (size_t)(eq - v));
			free(pv->value);
			pv->op = PLAN_VAR_SET;
			pv->value = xstrdup(eq + 1);
		} else if (strcmp(a, "--unset") == 0) {
			struct plan_var *pv = var_of(&p, v, strlen(v));

			FREE(&pv->value);
			pv->op = PLAN_VAR_UNSET;
		} else if (strcmp(a, "--format") == 0) {
			if (!script_format_parse(v, &fmt)) {
				fprintf(stderr, "envscript-render: unknown format '%s'\n", v);
				return 2;
			}
		} else if (strcmp(a, "--version") == 0) {
			version = v;
		} else if (strcmp(a, "-o") == 0) {
			out = v;
		} else if (strcmp(a, "--conda") == 0) {
			conda = v;
			fmt = SCRIPT_CONDA;
		} else if (strcmp(a, "--install-rc") == 0) {
			if (i + 1 >= argc)
				return usage();
			rc = v;
			rcscript = argv[++i];
		} else {
			return usage();
		}
	}
	if (p.name == NULL)
		p.name = xstrdup("test");
	if (rc != NULL) {
		bool changed;

		if (script_install_rc(rc, rcscript, fmt, &changed, &backup,
		    &err) != 0)
			goto fail;
		printf("changed: %s\n", changed ? "yes" : "no");
		if (backup != NULL)
			printf("backup: %s\n", backup);
		goto out;
	}
	if (deact_name) {
		char *n = script_deactivate_name(&p);

		puts(n);
		free(n);
		goto out;
	}
	if (script_render(&p, fmt, version, &t, &err) != 0)
		goto fail;
	if (conda != NULL) {
		char *a, *d;

		if (script_write_conda(conda, &p, &t, force, &a, &d, &err) != 0)
			goto fail;
		printf("activate: %s\ndeactivate: %s\n", a, d);
		free(a);
		free(d);
	} else if (out != NULL) {
		if (script_write_file(out, t.text, force, &backup, &err) != 0)
			goto fail;
		if (backup != NULL)
			printf("backup: %s\n", backup);
	} else {
		fputs(deact ? (t.deactivate != NULL ? t.deactivate : "") : t.text,
		    stdout);
	}
	goto out;
fail:
	fprintf(stderr, "envscript-render: %s\n", err);
	ret = 1;
out:
	free(err);
	free(backup);
	script_text_free(&t);
	plan_free(&p);
	if (fflush(stdout) != 0)
		ret = 2;
	return ret;
}
