/* The conda record scanner's interface, for pypkg.c: the top-level
 * strings it keeps and its state. Internal to src/probe. */
#ifndef CUDAWIZ_PROBE_CONDAJSON_INT_H
#define CUDAWIZ_PROBE_CONDAJSON_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

/* What the scanner keeps of a record's top level. */
enum { JK_NAME, JK_VERSION, JK_BUILD, JK_BUILD_STRING, JK_CHANNEL,
	JK_SCHANNEL, JK_URL, JK_COUNT };

enum js_state { JS_MORE, JS_DONE, JS_BAD };

struct jscan {
	char		*val[JK_COUNT];
	enum js_state	 state;
	const char	*bad;		/* what is wrong, untranslated */
	size_t		 bad_at;
	/* The "depends" entries naming CUDA packages ("cudnn >=8.8,<9",
	 * "cuda-version >=12.0,<13"), at most JS_MAX_DEPS of them. */
	struct strv	 deps;
	bool		 past_deps;	/* read them, or a later key: none */
};

#define JS_MAX_DEPS	32

/* condajson.c */
bool	js_enough(void *arg, const char *buf, size_t len, bool whole);
void	js_reset(struct jscan *j);
enum js_state	js_scan(struct jscan *j, const char *b, size_t len, bool whole);

#endif
