/* See words.h. */
#include "config.h"

#include <string.h>

#include "i18n.h"
#include "present/words.h"

const char *
words_severity(enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		return _("ERROR");
	case SEV_WARNING:
		return _("WARNING");
	case SEV_INFO:
		break;
	}
	return _("INFO");
}

const char *
words_via(const char *via)
{
	if (via == NULL)
		return "?";
	if (strcmp(via, "ld_library_path") == 0)
		return "LD_LIBRARY_PATH";
	if (strcmp(via, "default") == 0)
		return _("a default directory");
	return via;
}

const char *
words_env_kind(enum pyenv_kind k)
{
	switch (k) {
	case PYENV_CONDA:	return _("conda");
	case PYENV_VENV:	return _("venv");
	case PYENV_PYENV:	return _("pyenv");
	case PYENV_SYSTEM:	return _("system");
	case PYENV_USER:	return _("user site");
	}
	return "?";
}
