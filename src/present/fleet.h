/* The views of a fleet (fleet/fleet.h): text for a person, the
 * cudawiz/fleet/1 JSON document (data/SCHEMA.md), and the HTML page
 * drawn from that document in the doctor page's frame and style. */
#ifndef CUDAWIZ_PRESENT_FLEET_H
#define CUDAWIZ_PRESENT_FLEET_H

#include <stdbool.h>
#include <stdio.h>

#include "fleet/fleet.h"

#define SCHEMA_FLEET	"cudawiz/fleet/1"

/* Each returns 0, or -1 when the report could not be made or written. */
int	fleet_print_text(FILE *fp, const struct fleet *fl, bool color);
int	fleet_print_json(FILE *fp, const struct fleet *fl);
int	fleet_print_html(FILE *fp, const struct fleet *fl);

#endif
