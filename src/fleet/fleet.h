/* A fleet: many hosts' doctor reports read together, and what they say
 * together — which findings how many hosts share, which hosts differ
 * from the majority (or from a reference spec) item by item, which
 * reports are stale, unreadable or a second report of one host. This is
 * the model `cudawiz fleet` shows; the presenters only format it. Every
 * step costs time linear in the reports' findings and items (hash maps,
 * never hosts x items scans): 1,000 reports are read in well under a
 * second. */
#ifndef CUDAWIZ_FLEET_FLEET_H
#define CUDAWIZ_FLEET_FLEET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fleet/report.h"
#include "spec/specdiff.h"

/* Indices into fleet.hosts. */
struct fleet_idx {
	size_t	*v;
	size_t	 n, cap;
};

/* A file that is not a report, and why. */
struct fleet_bad {
	char	*file;
	char	*why;
};

/* A second report of a host (one name, or one machine id): the newest
 * one is kept, this one is listed. */
struct fleet_dup {
	char	*file;
	char	*host;
	char	*kept;		/* the file kept in its place */
};

/* The hosts that have one finding code, in host order. */
struct fleet_group {
	const char	*code;		/* a host report's string */
	enum severity	 worst;
	struct fleet_idx hosts;
};

/* One value an item has on some hosts; value NULL: the item is absent. */
struct fleet_value {
	const char	*value;
	struct fleet_idx hosts;
};

/* An item the compared hosts do not all have alike. Against the
 * majority, ref is the value most hosts have (NULL with ref_absent: most
 * hosts lack the item), or nothing with tie (two values share the most
 * hosts: no winner is made up). Against a baseline, ref is its value
 * (NULL: the baseline lacks it). values: every other value, most hosts
 * first, each with its hosts; in a tie, every value. */
struct fleet_drift {
	const char		*key;
	enum spec_family	 family;
	const char		*ref;
	bool			 ref_absent;
	bool			 tie;
	size_t			 ref_hosts;	/* how many have ref */
	struct {
		struct fleet_value	*v;
		size_t			 n, cap;
	} values;
};

struct fleet {
	/* Read, kept, sorted by host name by fleet_finish(). */
	struct {
		struct fleet_report	*v;
		size_t			 n, cap;
	} hosts;
	struct {
		struct fleet_bad	*v;
		size_t			 n, cap;
	} unreadable;
	struct {
		struct fleet_dup	*v;
		size_t			 n, cap;
	} duplicates;
	size_t			 files;		/* every file looked at */
	/* What fleet_finish() found. */
	struct {
		struct fleet_group	*v;
		size_t			 n, cap;
	} groups;				/* most hosts first, then code */
	struct {
		struct fleet_drift	*v;
		size_t			 n, cap;
	} drift;				/* by key */
	size_t			 compared;	/* hosts with a spec */
	struct fleet_idx	 no_spec;
	struct fleet_idx	 stale;
	struct fleet_idx	 no_time;
	struct fleet_idx	 with_errors;
	int64_t			 now;
	long			 max_age_s;
	/* --baseline's file and its host.name (the caller's, for the
	 * views); NULL: compared with the majority. */
	const char		*baseline;
	const char		*baseline_host;
};

void	fleet_init(struct fleet *fl);
/* A command-line word: a file, or a directory whose *.json files (not
 * hidden, not in subdirectories) are read in name order. Whatever cannot
 * be read becomes an unreadable entry; nothing stops the others. */
void	fleet_add_arg(struct fleet *fl, const char *arg);
void	fleet_add_file(struct fleet *fl, const char *file);
void	fleet_add_bad(struct fleet *fl, const char *file, char *why);
/* Drops duplicate hosts, sorts, groups the findings, compares the specs
 * (with baseline's items when not NULL, else with the majority) and
 * finds the stale reports: now - host.time_unix > max_age_s. baseline
 * must outlive fl. */
void	fleet_finish(struct fleet *fl, int64_t now, long max_age_s,
	    const json_t *baseline);
/* Whether the fleet is unwell: a host with an error finding, a stale or
 * unreadable report, or no report at all. */
bool	fleet_failed(const struct fleet *fl);
void	fleet_free(struct fleet *fl);

#endif
