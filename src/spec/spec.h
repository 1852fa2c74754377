/* A machine's spec built from its facts (specdiff.h says what a spec
 * is): the flat items and the host identity, as JSON objects. Pure: it
 * reads the facts (annotated with the matrix, for driver.max_cuda and
 * the GPUs' compute capabilities) and nothing else. doctor --json
 * carries spec_json(f, now, false) as its "spec" and spec_host_json()
 * as its "host"; `spec export` prints spec_json(f, now, true). */
#ifndef CUDAWIZ_SPEC_H
#define CUDAWIZ_SPEC_H

#include <stdbool.h>
#include <time.h>

#include <jansson.h>

#include "facts/facts.h"

/* The items object: "driver.branch" -> "580" …; an item whose value is
 * not known is left out. Newly made. */
json_t	*spec_items_build(const struct facts *f);
/* {"name", "machine_id", "kernel", "os", "time", "time_unix"}: null for
 * what is not known; time is now in RFC 3339 UTC. Newly made. */
json_t	*spec_host_json(const struct facts *f, time_t now);
/* {"schema": SPEC_SCHEMA, ["host": …,] "items": …}. Newly made. */
json_t	*spec_json(const struct facts *f, time_t now, bool with_host);

#endif
