/* What `cudawiz env --check FILE` shows: the variables the script
 * changes, each need before and after, the live runtime check, the
 * findings that went or came, and the verdict; as text or as the
 * cudawiz/env-check/1 document. The proof is envplan/check.c's. */
#ifndef CUDAWIZ_PRESENT_ENVCHECK_H
#define CUDAWIZ_PRESENT_ENVCHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "envplan/check.h"

/* file: the script checked; before: the environment it was sourced
 * from (the command's own). The verdict is ec->ok. */
void	env_check_print_text(FILE *fp, const char *file,
	    const struct env_check *ec, char *const *before);
/* 0, or -1 when the document could not be written. */
int	env_check_print_json(FILE *fp, const char *file,
	    const struct env_check *ec, char *const *before);

/* Text, or JSON when json, then fp flushed: 0, or -1 when the report
 * could not be written (errno set). */
int	env_check_print(FILE *fp, const char *file, const struct env_check *ec,
	    char *const *before, bool json);

#endif
