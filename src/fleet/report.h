/* One host's `doctor --json` report as fleet reads it: who (host name,
 * hashed machine id), when (host.time_unix), what is wrong (each
 * finding's code, severity and subject, the summary's counts) and what
 * it is (the spec's items). The file is someone else's: it may be
 * damaged, foreign, huge, a FIFO or gone, and each of those becomes a
 * reason, never a crash or a wait. */
#ifndef CUDAWIZ_FLEET_REPORT_H
#define CUDAWIZ_FLEET_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diagnose/finding.h"

/* The largest report read: a doctor report of a machine with thousands
 * of libraries is a few MiB; more is not one. */
#define FLEET_REPORT_MAX	((size_t)16 << 20)

#define FLEET_SCHEMA_DOCTOR	"cudawiz/doctor/1"
/* The Windows program's doctor --json: the same "host", "findings" and
 * "spec" members (no "summary": the counts come from the findings). */
#define FLEET_SCHEMA_WINDOWS_DOCTOR	"cudawiz/windows-doctor/1"

struct fleet_finding {
	char		*code;
	enum severity	 severity;
	char		*subject;	/* NULL: about the whole machine */
};

struct fleet_report {
	char		*file;		/* as given or found */
	char		*host;		/* host.name, else the file's name */
	char		*machine_id;	/* NULL: not in the report */
	char		*time;		/* host.time; NULL */
	bool		 has_time;	/* host.time_unix present */
	int64_t		 time_unix;
	struct {
		struct fleet_finding	*v;
		size_t			 n, cap;
	} findings;
	size_t		 count[3];	/* by enum severity: the summary's */
	json_t		*items;		/* the spec's items; NULL: no spec */
};

/* Reads and checks file. Returns 0 with *r filled (fleet_report_free()
 * frees it), or -1 with *why (the caller frees) saying why it is not a
 * report: not there, not a regular file, too large, empty, not JSON,
 * not a cudawiz/doctor/1 document, or one whose parts have the wrong
 * shape. */
int	fleet_report_read(const char *file, struct fleet_report *r,
	    char **why);
/* The same for a document already parsed (doc is borrowed). */
int	fleet_report_from_json(const char *file, const json_t *doc,
	    struct fleet_report *r, char **why);
void	fleet_report_free(struct fleet_report *r);

/* Parses data[0..len) as one JSON document, as strictly as a report
 * deserves (no duplicate keys, no NUL, nothing after it); NULL with
 * *why. Shared with --baseline's reader. */
json_t	*fleet_parse_json(const char *data, size_t len, char **why);
/* Reads file (under FLEET_REPORT_MAX) and parses it; NULL with *why. */
json_t	*fleet_load_json(const char *file, char **why);

#endif
