/* Reading an environment given as an array (a probe's envp, a script's
 * environment after sourcing), never the process's own. */
#ifndef CUDAWIZ_ENVP_H
#define CUDAWIZ_ENVP_H

/* NAME's value in envp (NULL-terminated; NULL for none); NULL when unset. */
const char	*envp_get(char *const *envp, const char *name);

#endif
