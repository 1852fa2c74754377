/* What every fuzz target shares: the libFuzzer entry point, and a scratch
 * directory for the parsers that read through a sysroot (they take a path,
 * not a buffer, so the input is written to a file under that root). */
#ifndef CUDAWIZ_FUZZ_H
#define CUDAWIZ_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strv;
struct sysroot;

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch root: made once per process (mkdtemp under $TMPDIR) and
 * removed, with everything in it, at exit. */
const char *fz_root(void);

/* Writes data to ROOT/rel (parents made), replacing what was there.
 * Aborts on failure: a target that cannot set up its input is broken. */
void	fz_write(const char *rel, const uint8_t *data, size_t size);

/* fz_write of a C string: the fixed files a target's tree starts with. */
void	fz_put(const char *rel, const char *text);

/* data as a NUL-terminated copy (the caller frees it). */
char	*fz_cstring(const uint8_t *data, size_t size);

/* The sysroot over the scratch root: made once, as the root never moves
 * (only the files in it change). It keeps no listings, so each input is
 * seen afresh. */
const struct sysroot *fz_sysroot(void);

/* Equality for the oracles: both NULL, or both the same text. */
bool	fz_same_str(const char *a, const char *b);
bool	fz_same_strv(const struct strv *a, const struct strv *b);

#endif
