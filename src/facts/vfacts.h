/* Live verification results, as plain data (facts.h's rules apply: owned
 * by struct facts, freed by facts_free()).
 *
 * src/verify/ fills these by running the helper (docs/VERIFY.md) once per
 * library under test; diagnose's rules_verify.c judges them; the
 * presenters show them. A record keeps every field the helper wrote, so a
 * newer helper's fields reach the JSON report without a change here; the
 * few the rules read have accessors. */
#ifndef CUDAWIZ_VFACTS_H
#define CUDAWIZ_VFACTS_H

#include <stdbool.h>
#include <stddef.h>

#include "util/strv.h"

enum verify_kind {
	VERIFY_DRIVER = 0,	/* libcuda: the driver and every device */
	VERIFY_RUNTIME,		/* one libcudart */
	VERIFY_CUDNN,		/* one libcudnn, with a cudart of its CUDA */
};

enum vkv_type {
	VKV_NULL = 0,
	VKV_BOOL,
	VKV_NUM,
	VKV_STR,
	VKV_JSON,		/* an array or object, kept as compact JSON text */
};

struct verify_kv {
	char		*key;
	enum vkv_type	 type;
	double		 num;		/* VKV_NUM; VKV_BOOL: 0 or 1 */
	char		*str;		/* VKV_STR, VKV_JSON */
};

/* One record of the helper's output. */
struct verify_record {
	char		*check;		/* "init", "saxpy", … */
	int		 device;	/* -1: not a device's */
	int		 ok;		/* -1: the record says nothing; 0; 1 */
	bool		 has_code;
	long long	 code;		/* the library's own error code */
	char		*name;		/* its name: "cudaErrorInsufficientDriver"; NULL */
	char		*message;	/* the library's own words; NULL */
	struct {
		struct verify_kv	*v;
		size_t			 n, cap;
	} kv;				/* every field, the ones above too */
};

/* How a helper run ended. */
enum verify_outcome {
	VERIFY_DONE = 0,	/* it wrote its end record and exited 0 */
	VERIFY_SIGNALLED,	/* killed by a signal (a crash in a vendor library) */
	VERIFY_EXITED,		/* exited without an end record (a library called exit()) */
	VERIFY_TIMED_OUT,	/* killed after the timeout */
	VERIFY_GARBLED,		/* wrote what is not the protocol */
	VERIFY_NOT_STARTED,	/* the helper could not be started */
};

struct verify_run {
	enum verify_kind	 kind;
	char			*lib;		/* the library under test */
	char			*cudart;	/* VERIFY_CUDNN: the cudart given; NULL */
	/* Where the library belongs, in words and as a path: "toolkit",
	 * "conda", "wheel", "system"; the toolkit root, environment prefix
	 * or directory. */
	char			*where;
	char			*owner;
	char			*owner_name;	/* env or wheel name; NULL */
	/* In verify_facts.not_loaded: why the library was left unloaded
	 * (docs/VERIFY.md, "What is loaded"); NULL in runs. */
	char			*not_loaded_why;
	struct strv		 argv;		/* the helper's command line */
	char			*ld_library_path; /* what the helper was given */
	enum verify_outcome	 outcome;
	int			 exit_status;	/* VERIFY_EXITED, VERIFY_DONE */
	int			 signal;	/* VERIFY_SIGNALLED */
	char			*start_error;	/* VERIFY_NOT_STARTED: why */
	char			*last_step;	/* the last step record's name; NULL */
	int			 last_step_device;
	char			*stderr_tail;	/* the end of what it wrote to stderr */
	size_t			 garbage_lines;	/* stdout lines that were not records */
	char			*garbage_sample; /* the first of them, cut short */
	double			 ms;		/* wall time, as the parent measured */
	struct {
		struct verify_record	*v;
		size_t			 n, cap;
	} records;
};

enum verify_state {
	VERIFY_STATE_NOT_RUN = 0,	/* nobody asked (the report says why) */
	VERIFY_STATE_SKIPPED,		/* asked, but not possible: why says */
	VERIFY_STATE_RAN,
};

struct verify_facts {
	enum verify_state	 state;
	char			*why;		/* NOT_RUN, SKIPPED */
	char			*helper;	/* the helper's path */
	double			 timeout_s;
	bool			 quick;
	double			 ms;		/* all runs together */
	/* Stopped by the caller (verify_opts.cancel): runs holds those
	 * that ran, of planned. */
	bool			 cancelled;
	size_t			 planned;
	struct {
		struct verify_run	*v;
		size_t			 n, cap;
	} runs;
	/* Libraries found but not loaded, only checked statically: another
	 * environment than the active one, or a tree another user can
	 * write. Only kind, lib, where, owner, owner_name and
	 * not_loaded_why are set. */
	struct {
		struct verify_run	*v;
		size_t			 n, cap;
	} not_loaded;
	/* verify --env: the environment loaded on request (its real path);
	 * NULL. */
	char			*env;
};

void	verify_facts_free(struct verify_facts *vf);
void	verify_run_free(struct verify_run *r);
void	verify_record_free(struct verify_record *rec);

const char	*verify_kind_name(enum verify_kind k);	/* "driver", … */
const char	*verify_outcome_name(enum verify_outcome o);	/* "done", … */
const char	*verify_state_name(enum verify_state s);	/* "not_run", … */
/* "SIGSEGV" for the signals a crashing library dies of; NULL for others. */
const char	*verify_signal_name(int sig);

/* The first record of a check, of any device when device < 0; NULL. */
const struct verify_record *verify_find(const struct verify_run *r,
	    const char *check, int device);
/* A field of a record; NULL when absent. */
const struct verify_kv *verify_kv(const struct verify_record *rec,
	    const char *key);
/* A numeric or string field; false / NULL when absent or of another type. */
bool		 verify_num(const struct verify_record *rec, const char *key,
	    double *out);
const char	*verify_str(const struct verify_record *rec, const char *key);

#endif
