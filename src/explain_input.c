/* explain's input; see explain_input.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/recognize.h"
#include "explain_input.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Reads standard input up to the cap; the rest is left unread, so an
 * endless pipe cannot keep cudawiz reading. Returns 0 or an errno. */
static int
read_stdin(struct explain_input *in)
{
	size_t cap = EXPLAIN_INPUT_MAX + 1, n;

	in->text = xmalloc(cap + 1);
	in->len = 0;
	while (in->len < cap) {
		n = fread(in->text + in->len, 1, cap - in->len, stdin);
		in->len += n;
		if (n == 0) {
			if (ferror(stdin))
				return errno != 0 ? errno : EIO;
			break;
		}
	}
	if (in->len > EXPLAIN_INPUT_MAX) {
		in->len = EXPLAIN_INPUT_MAX;
		in->cut = true;
	}
	in->text[in->len] = '\0';
	return 0;
}

/* The arguments as one text: a message pasted without quotes arrives as
 * many words. */
static void
join_args(const struct cli_opts *opts, struct explain_input *in)
{
	struct strbuf sb = STRBUF_INIT;

	for (int i = 0; i < opts->nargs; i++) {
		if (i > 0)
			strbuf_putc(&sb, ' ');
		strbuf_puts(&sb, opts->args[i]);
		if (sb.len > EXPLAIN_INPUT_MAX)
			break;
	}
	in->text = strbuf_take(&sb);
	in->len = strlen(in->text);
	if (in->len > EXPLAIN_INPUT_MAX) {
		in->len = EXPLAIN_INPUT_MAX;
		in->text[in->len] = '\0';
		in->cut = true;
	}
}

static bool
blank(const struct explain_input *in)
{
	for (size_t i = 0; i < in->len; i++)
		if (strchr(" \t\r\n\v\f", in->text[i]) == NULL)
			return false;
	return true;
}

int
explain_input_read(const struct cli_opts *opts, struct explain_input *in)
{
	int rc;

	if (opts->nargs == 1 && strcmp(opts->args[0], "-") == 0) {
		in->from_stdin = true;
		if ((rc = read_stdin(in)) != 0) {
			fprintf(stderr, _("%s: explain: reading standard input: %s\n"),
			    PACKAGE, strerror(rc));
			return EXIT_USAGE;
		}
	} else {
		join_args(opts, in);
	}
	if (blank(in)) {
		fprintf(stderr, _("%s: explain: the input is empty: give the error "
		    "message as the argument, or pipe it into '%s explain -'\n"),
		    PACKAGE, PACKAGE);
		return EXIT_USAGE;
	}
	return 0;
}

void
explain_input_free(struct explain_input *in)
{
	free(in->text);
	in->text = NULL;
}
