/* What an activation script changed, need by need: the same machine
 * probed twice, in the environment before and inside the script's, and
 * each library a framework needs (and each CUDA library doctor tracks)
 * compared. Pure: two sets of facts in, rows out. */
#ifndef CUDAWIZ_ENVPLAN_COMPARE_H
#define CUDAWIZ_ENVPLAN_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "facts/facts.h"
#include "util/strv.h"

enum need_state {
	NEED_RESOLVES = 0,
	NEED_SHADOWED,		/* resolves, but not to the copy the framework expects */
	NEED_STUB,		/* resolves to a toolkit's stub */
	NEED_MISSING,		/* does not resolve */
	NEED_ABSENT,		/* not asked on that side (the environment vanished) */
};

enum need_verdict {
	VERDICT_UNCHANGED = 0,	/* good before and after, the same file */
	VERDICT_MOVED,		/* good before and after, another file */
	VERDICT_FIXED,		/* bad before, good after */
	VERDICT_STILL_BROKEN,	/* bad before and after */
	VERDICT_BROKEN,		/* good before, bad after: the script broke it */
};

struct check_side {
	enum need_state	 state;
	char		*path;		/* what it resolves to; NULL */
	/* The real file behind path: /usr/local/cuda/lib64/libcudart.so.13
	 * and /usr/local/cuda-13.0/lib/libcudart.so.13 are one file when
	 * lib64 and cuda are links. NULL: not known. */
	char		*real;
	char		*via;		/* how ("ld_library_path" …); NULL */
	char		*error;		/* the loader's words when missing; NULL */
};

struct check_row {
	char			*soname;
	/* "torch 2.3.0" and the environment's prefix for a framework's
	 * need; both NULL for a library doctor tracks on its own. */
	char			*framework;
	char			*env;
	bool			 optional;
	struct check_side	 before, after;
	enum need_verdict	 verdict;
};

struct check_rows {
	struct check_row	*v;
	size_t			 n, cap;
};

/* r's verdict from its two sides (the same file reached through another
 * link is no move). */
void	check_row_judge(struct check_row *r);
void	check_compare(const struct facts *before, const struct facts *after,
	    struct check_rows *out);
/* Every framework need resolves after, and nothing that resolved before
 * stopped resolving. */
bool	check_rows_ok(const struct check_rows *rows);
void	check_rows_free(struct check_rows *rows);

/* The problem codes (warnings and errors) of a not in b, each once,
 * appended to out: the findings a script made go away or appear. */
struct findings;
void	check_codes_only(const struct findings *a, const struct findings *b,
	    struct strv *out);

const char	*need_state_name(enum need_state s);	/* "resolves", … */
const char	*need_verdict_name(enum need_verdict v);	/* "fixed", … */

#endif
