/* See words.h. */
#include "config.h"

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
words_via(enum step_source via)
{
	return step_words(via, STEPW_SHORT);
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
