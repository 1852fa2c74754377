/* Install commands across findings: when several findings each fix
 * their part by installing into the same environment (one Python's pip,
 * one conda prefix, the system's apt), the detail of each offers them
 * as one command. Whole lines are joined with " && ", never merged
 * into one call, so every flag and index URL stays with its packages
 * and the joined command does exactly what the lines do one by one. */
#ifndef CUDAWIZ_WIZARD_INSTALLS_H
#define CUDAWIZ_WIZARD_INSTALLS_H

#include <stddef.h>

#include "diagnose/finding.h"

/* What an install line installs into, as a key equal for two lines
 * exactly when they use the same installer program on the same
 * environment: "'/e/bin/python' -m pip", "conda -p /e", "sudo apt-get".
 * NULL (nothing allocated) when the line is not one plain install
 * command (a comment, a pipeline, another program). */
char	*winstall_target(const char *line);
/* The first install line for target in each finding, in the findings'
 * order, distinct ones joined with " && " (newly allocated); NULL when
 * that makes fewer than two, i.e. no other finding installs there too.
 * A finding's later install lines for the same target are the
 * alternatives its comments offer ("# or …"), so they are left out. */
char	*winstall_combined(const struct findings *fs, const char *target);

#endif
