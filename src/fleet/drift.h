/* Inside the fleet model (the files of src/fleet only): the spec comparison and the
 * index vectors it shares with model.c. */
#ifndef CUDAWIZ_FLEET_DRIFT_H
#define CUDAWIZ_FLEET_DRIFT_H

#include <jansson.h>

#include "fleet/fleet.h"

void	fleet_idx_push(struct fleet_idx *x, size_t i);
/* Fills fl->drift, fl->compared and fl->no_spec from the sorted hosts:
 * each item against baseline's items, or when baseline is NULL against
 * the value most hosts have. */
void	fleet_drift(struct fleet *fl, const json_t *baseline);

#endif
