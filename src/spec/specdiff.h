/* A machine's spec (`cudawiz spec export`, and the "spec" object of
 * `doctor --json`): what matters about it as flat items, "FAMILY.REST"
 * -> a string ("driver.branch" -> "580", "toolkit.versions" -> "12.4.1
 * 13.0.1"). Being flat, two specs compare item by item with no knowledge
 * of what an item means: doctor --baseline and fleet both do it here.
 * The items themselves are written by spec.c from the facts. */
#ifndef CUDAWIZ_SPECDIFF_H
#define CUDAWIZ_SPECDIFF_H

#include <stddef.h>

#include <jansson.h>

#define SPEC_SCHEMA	"cudawiz/spec/1"

/* The part before an item's first '.': which finding a difference in it
 * is (DRIFT_DRIVER, DRIFT_GPU, ...). */
enum spec_family {
	SPEC_DRIVER, SPEC_GPU, SPEC_TOOLKIT, SPEC_CUDNN, SPEC_FRAMEWORK,
	SPEC_ENV, SPEC_OTHER,
};

/* One item that differs. ref or mine is NULL where that side lacks it. */
struct spec_delta {
	const char		*key;
	enum spec_family	 family;
	const char		*ref;
	const char		*mine;
};

enum spec_family	spec_key_family(const char *key);

/* The items object of a spec document (either form above), or NULL when
 * doc is not one: no "items" object, or an item that is not a string. */
const json_t	*spec_items(const json_t *doc);

/* Calls fn for each item whose value differs between ref and mine (both
 * spec_items() results), in key order. Returns the number of
 * differences. The strings handed to fn live as long as ref and mine. */
size_t	spec_diff(const json_t *ref, const json_t *mine,
	    void (*fn)(const struct spec_delta *d, void *arg), void *arg);

#endif
