/* Destructors, names and accessors for the verification facts; see
 * vfacts.h. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "facts/vfacts.h"

void
verify_record_free(struct verify_record *rec)
{
	free(rec->check);
	free(rec->name);
	free(rec->message);
	for (size_t i = 0; i < rec->kv.n; i++) {
		free(rec->kv.v[i].key);
		free(rec->kv.v[i].str);
	}
	free(rec->kv.v);
	memset(rec, 0, sizeof *rec);
}

void
verify_run_free(struct verify_run *r)
{
	free(r->lib);
	free(r->cudart);
	free(r->where);
	free(r->owner);
	free(r->owner_name);
	free(r->not_loaded_why);
	strv_free(&r->argv);
	free(r->ld_library_path);
	free(r->start_error);
	free(r->last_step);
	free(r->stderr_tail);
	free(r->garbage_sample);
	for (size_t i = 0; i < r->records.n; i++)
		verify_record_free(&r->records.v[i]);
	free(r->records.v);
	memset(r, 0, sizeof *r);
}

void
verify_facts_free(struct verify_facts *vf)
{
	free(vf->why);
	free(vf->helper);
	for (size_t i = 0; i < vf->runs.n; i++)
		verify_run_free(&vf->runs.v[i]);
	free(vf->runs.v);
	for (size_t i = 0; i < vf->not_loaded.n; i++)
		verify_run_free(&vf->not_loaded.v[i]);
	free(vf->not_loaded.v);
	free(vf->env);
	memset(vf, 0, sizeof *vf);
}

const char *
verify_kind_name(enum verify_kind k)
{
	switch (k) {
	case VERIFY_DRIVER:
		return "driver";
	case VERIFY_RUNTIME:
		return "runtime";
	case VERIFY_CUDNN:
		return "cudnn";
	}
	return "?";
}

const char *
verify_outcome_name(enum verify_outcome o)
{
	switch (o) {
	case VERIFY_DONE:
		return "done";
	case VERIFY_SIGNALLED:
		return "signalled";
	case VERIFY_EXITED:
		return "exited";
	case VERIFY_TIMED_OUT:
		return "timed_out";
	case VERIFY_GARBLED:
		return "garbled";
	case VERIFY_NOT_STARTED:
		return "not_started";
	}
	return "?";
}

const char *
verify_state_name(enum verify_state s)
{
	switch (s) {
	case VERIFY_STATE_NOT_RUN:
		return "not_run";
	case VERIFY_STATE_SKIPPED:
		return "skipped";
	case VERIFY_STATE_RAN:
		return "ran";
	}
	return "?";
}

const struct verify_record *
verify_find(const struct verify_run *r, const char *check, int device)
{
	for (size_t i = 0; i < r->records.n; i++) {
		const struct verify_record *rec = &r->records.v[i];

		if (strcmp(rec->check, check) == 0 &&
		    (device < 0 || rec->device == device))
			return rec;
	}
	return NULL;
}

const struct verify_kv *
verify_kv(const struct verify_record *rec, const char *key)
{
	for (size_t i = 0; rec != NULL && i < rec->kv.n; i++)
		if (strcmp(rec->kv.v[i].key, key) == 0)
			return &rec->kv.v[i];
	return NULL;
}

bool
verify_num(const struct verify_record *rec, const char *key, double *out)
{
	const struct verify_kv *kv = verify_kv(rec, key);

	if (kv == NULL || kv->type != VKV_NUM)
		return false;
	*out = kv->num;
	return true;
}

const char *
verify_str(const struct verify_record *rec, const char *key)
{
	const struct verify_kv *kv = verify_kv(rec, key);

	return kv != NULL && kv->type == VKV_STR ? kv->str : NULL;
}

const char *
verify_signal_name(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGABRT: return "SIGABRT";
	case SIGBUS: return "SIGBUS";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	default: return NULL;
	}
}
