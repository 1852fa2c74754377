/* Placeholder; see resolve.h. */
#include "config.h"

#include <string.h>

#include "loader/resolve.h"

bool
resolve_name(const struct loader_env *env, const char *name,
    const char *requester, struct resolution *out)
{
	(void)env; (void)name; (void)requester;
	memset(out, 0, sizeof *out);
	return false;
}

void
resolution_free(struct resolution *r)
{
	(void)r;
}

int
resolve_closure(const struct loader_env *env, const char *path,
    struct closure *out, char **err)
{
	(void)env; (void)path; (void)err;
	memset(out, 0, sizeof *out);
	return -1;
}

void
closure_free(struct closure *c)
{
	(void)c;
}

const char *
step_source_name(enum step_source s)
{
	(void)s;
	return "";
}

const char *
step_result_name(enum step_result r)
{
	(void)r;
	return "";
}

void
loader_session_init(struct loader_session *s, const struct sysroot *sr,
    char *const *envp)
{
	(void)envp;
	memset(s, 0, sizeof *s);
	loader_profile_init(&s->prof, sr);
	s->env.sr = sr;
	s->env.prof = &s->prof;
}

void
loader_session_free(struct loader_session *s)
{
	loader_profile_free(&s->prof);
}
