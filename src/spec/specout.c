/* See specout.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"
#include "spec/specout.h"
#include "util/atomicfile.h"

bool
spec_is_export(const char *word)
{
	if (strcmp(word, "export") == 0)
		return true;
	fprintf(stderr, _("%s: spec: unknown subcommand '%s' (export)\n"),
	    PACKAGE, word);
	return false;
}

int
spec_write_doc(const json_t *doc, const char *path)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *text, *err = NULL;
	size_t len;
	int rc = 0;

	if (s == NULL) {
		fprintf(stderr, _("%s: the spec could not be rendered\n"),
		    PACKAGE);
		return -1;
	}
	len = strlen(s);
	text = realloc(s, len + 2);
	if (text == NULL) {
		free(s);
		return -1;
	}
	text[len++] = '\n';
	text[len] = '\0';
	if (path != NULL) {
		if (atomic_write_file(path, text, len, &err) != 0) {
			fprintf(stderr, "%s: %s\n", PACKAGE, err);
			free(err);
			rc = -1;
		}
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		perror(PACKAGE ": writing the spec");
		rc = -1;
	}
	free(text);
	return rc;
}
