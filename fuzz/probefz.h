/* What the probe targets (fuzz/probes.mk) share: one input split into
 * several files of a scratch tree, the sysroot over that tree, and the
 * check every run ends with.
 *
 * Each probe target stands a small machine up in fz_root(): the files it
 * fuzzes come from the input, the rest are fixed and made once. The input
 * is cut at PF_SEP into one part per fuzzed file, in the order the target
 * lists them; a file with no part is removed, so every input starts from
 * the same tree whatever the one before it left there.
 *
 * After the probes, what doctor does with the facts (pf_check_report):
 * the matrix's annotations, every rule, and both reports; the JSON one
 * must be a document jansson reads back (valid JSON, valid UTF-8, no
 * NUL), whatever bytes the probes took from the files. facts_free() and
 * findings_free() must leave nothing behind (the replay under ASan
 * checks leaks). */
#ifndef CUDAWIZ_FUZZ_PROBEFZ_H
#define CUDAWIZ_FUZZ_PROBEFZ_H

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "diagnose/diagnose.h"
#include "diagnose/finding.h"
#include "matrix/matrix.h"
#include "present/json.h"
#include "present/text.h"
#include "probe/probe.h"
#include "sysroot/sysroot.h"

/* Between the files of one input. A line of its own, so that none of the
 * formats fuzzed here needs it inside a file: not METADATA's header, not
 * JSON, not a /proc or /sys line. */
#define PF_SEP		"\n---\n"
#define PF_SEP_LEN	(sizeof PF_SEP - 1)

struct pf_part {
	const uint8_t	*p;
	size_t		 n;
};

static inline void __attribute__((noreturn))
pf_die(const char *what, const char *path)
{
	fprintf(stderr, "fuzz: %s %s: %s\n", what, path, strerror(errno));
	abort();
}

/* Splits data at PF_SEP into at most max parts (the last one takes the
 * rest, separators and all); returns how many there are. */
static inline size_t
pf_split(const uint8_t *data, size_t size, struct pf_part *parts, size_t max)
{
	const uint8_t *p = data, *end = data + size;
	size_t n = 0;

	while (n + 1 < max) {
		const uint8_t *s = memmem(p, (size_t)(end - p), PF_SEP,
		    PF_SEP_LEN);

		if (s == NULL)
			break;
		parts[n].p = p;
		parts[n].n = (size_t)(s - p);
		n++;
		p = s + PF_SEP_LEN;
	}
	parts[n].p = p;
	parts[n].n = (size_t)(end - p);
	return n + 1;
}

static inline char *
pf_path(const char *rel)
{
	char *path;

	if (asprintf(&path, "%s/%s", fz_root(), rel) < 0) {
		fprintf(stderr, "fuzz: out of memory\n");
		abort();
	}
	return path;
}

/* Removes ROOT/rel when it is there. */
static inline void
pf_remove(const char *rel)
{
	char *path = pf_path(rel);

	if (unlink(path) != 0 && errno != ENOENT)
		pf_die("unlink", path);
	free(path);
}

/* Gives ROOT/rel the mode (fz_write makes files 0644). */
static inline void
pf_chmod(const char *rel, mode_t mode)
{
	char *path = pf_path(rel);

	if (chmod(path, mode) != 0)
		pf_die("chmod", path);
	free(path);
}

/* ROOT/rel as a symlink to target, made once (it is never fuzzed). */
static inline void
pf_symlink(const char *target, const char *rel)
{
	char *path = pf_path(rel);

	if (symlink(target, path) != 0 && errno != EEXIST)
		pf_die("symlink", path);
	free(path);
}

/* What pf_place last wrote to each file, so an unchanged part (most of
 * them: libFuzzer mutates one place at a time) is not written again. */
struct pf_last {
	uint8_t	*data;
	size_t	 n;
	int	 present;
};

/*
 * The fuzzed files: files[i] gets part i, and is removed when the input
 * has fewer parts. The nmore parts after them go to more[] for the
 * caller ({NULL, 0} when absent). Returns how many parts the input has,
 * at most nfiles + nmore. Files are rewritten only when their part
 * changed: nothing else writes to the scratch tree, and a write per file
 * per input would be most of the cost.
 */
static inline size_t
pf_place_more(const char *const *files, size_t nfiles, const uint8_t *data,
    size_t size, struct pf_part *more, size_t nmore)
{
	static struct pf_last last[16];
	struct pf_part parts[16];
	size_t n;

	if (nfiles + nmore > sizeof parts / sizeof parts[0])
		abort();
	n = pf_split(data, size, parts, nfiles + nmore);
	for (size_t i = 0; i < nmore; i++) {
		more[i].p = nfiles + i < n ? parts[nfiles + i].p : NULL;
		more[i].n = nfiles + i < n ? parts[nfiles + i].n : 0;
	}
	for (size_t i = 0; i < nfiles; i++) {
		struct pf_last *l = &last[i];

		if (i >= n) {
			if (l->present)
				pf_remove(files[i]);
			l->present = 0;
			continue;
		}
		if (l->present && l->n == parts[i].n &&
		    (parts[i].n == 0 || memcmp(l->data, parts[i].p,
		    parts[i].n) == 0))
			continue;
		fz_write(files[i], parts[i].p, parts[i].n);
		free(l->data);
		l->data = malloc(parts[i].n > 0 ? parts[i].n : 1);
		if (l->data == NULL) {
			fprintf(stderr, "fuzz: out of memory\n");
			abort();
		}
		if (parts[i].n > 0)
			memcpy(l->data, parts[i].p, parts[i].n);
		l->n = parts[i].n;
		l->present = 1;
	}
	return n;
}

static inline size_t
pf_place(const char *const *files, size_t nfiles, const uint8_t *data,
    size_t size)
{
	return pf_place_more(files, nfiles, data, size, NULL, 0);
}

/* The longest fuzzed directory entry name: under NAME_MAX with room. */
#define PF_NAME_MAX	200

/*
 * A directory entry whose name is fuzzed: dir/"n"+part, '/' and NUL
 * bytes turned into '_' and cut at PF_NAME_MAX. The "n" keeps it from
 * being ".", ".." or a name the target's tree already holds (the targets
 * name nothing else with an n), and gives nvidia-*, nccl, numba. With
 * ninner files it is a directory holding them, else a file; each holds
 * text. The entry of the previous input (*last) is removed first, unless
 * it is the same; a part of {NULL, 0} makes none.
 */
static inline void
pf_entry(const char *dir, const struct pf_part *part,
    const char *const *inner, size_t ninner, const char *text, char **last)
{
	char name[PF_NAME_MAX + 2], *rel;
	size_t n = part->n < PF_NAME_MAX ? part->n : PF_NAME_MAX;

	name[0] = 'n';
	for (size_t i = 0; i < n; i++)
		name[i + 1] = part->p[i] == '/' || part->p[i] == '\0' ? '_' :
		    (char)part->p[i];
	name[n + 1] = '\0';
	if (*last != NULL && part->p != NULL && strcmp(*last, name) == 0)
		return;
	if (*last != NULL) {
		for (size_t i = 0; i < ninner; i++) {
			if (asprintf(&rel, "%s/%s/%s", dir, *last, inner[i]) < 0)
				abort();
			pf_remove(rel);
			free(rel);
		}
		if (asprintf(&rel, "%s/%s", dir, *last) < 0)
			abort();
		if (ninner > 0) {
			char *path = pf_path(rel);

			if (rmdir(path) != 0 && errno != ENOENT)
				pf_die("rmdir", path);
			free(path);
		} else {
			pf_remove(rel);
		}
		free(rel);
		free(*last);
		*last = NULL;
	}
	if (part->p == NULL)
		return;
	for (size_t i = 0; i < (ninner > 0 ? ninner : 1); i++) {
		if ((ninner > 0 ? asprintf(&rel, "%s/%s/%s", dir, name,
		    inner[i]) : asprintf(&rel, "%s/%s", dir, name)) < 0)
			abort();
		fz_write(rel, (const uint8_t *)text, strlen(text));
		free(rel);
	}
	*last = strdup(name);
	if (*last == NULL)
		abort();
}

/*
 * Puts the scratch root on /dev/shm unless TMPDIR says where: these
 * targets rewrite files for every input, and on ext4 a file truncated
 * and written again is flushed at close (auto_da_alloc), which made an
 * input cost milliseconds of waiting; tmpfs costs microseconds. Call it
 * before anything touches fz_root(); true the first time only, so a
 * target builds its fixed files once.
 */
static inline bool
pf_scratch(void)
{
	static bool done;
	struct stat st;

	/* Once per process: the caller's set-up runs only when true. */
	if (done)
		return false;
	done = true;
	if (getenv("TMPDIR") == NULL && stat("/dev/shm", &st) == 0 &&
	    S_ISDIR(st.st_mode) && access("/dev/shm", W_OK | X_OK) == 0 &&
	    setenv("TMPDIR", "/dev/shm", 0) != 0)
		pf_die("setenv", "TMPDIR");
	return true;
}

/* A probe context over the scratch tree, with new facts. */
static inline struct probe_ctx
pf_ctx(char *const *envp)
{
	struct probe_ctx ctx;
	const struct sysroot *sr = fz_sysroot();

	memset(&ctx, 0, sizeof ctx);
	ctx.sr = sr;
	ctx.envp = envp;
	ctx.facts = facts_new(sysroot_dir(sr), false);
	return ctx;
}

/* The embedded matrix, parsed once: the rules and the report need one,
 * and parsing it is far dearer than a run of the probes. */
static inline const struct matrix *
pf_matrix(void)
{
	static struct matrix *m;

	if (m == NULL && (m = matrix_embedded()) == NULL) {
		fprintf(stderr, "fuzz: the embedded matrix does not parse\n");
		abort();
	}
	return m;
}

/*
 * What doctor does after probing, on the fuzzed facts: annotates them
 * with the matrix, runs every rule, and renders both reports. The JSON
 * one must read back as valid JSON (whatever bytes the probes took from
 * the files), the text one must be written.
 */
static inline void
pf_check_report(struct facts *f)
{
	struct findings fs = { NULL, 0, 0 };
	struct diagnose_input in;
	char *buf = NULL;
	size_t len = 0;
	json_error_t jerr;
	json_t *doc;
	FILE *fp;

	memset(&in, 0, sizeof in);
	in.facts = f;
	in.matrix = pf_matrix();
	/* A fixed "now", so a run does not depend on the day. */
	in.now = (time_t)1735689600;
	diagnose_annotate(f, in.matrix);
	diagnose(&in, &fs);

	if ((fp = open_memstream(&buf, &len)) == NULL)
		pf_die("open_memstream", "");
	if (json_print_doctor(fp, f, &fs, in.matrix, in.now, 0) != 0) {
		fprintf(stderr, "fuzz: the JSON report could not be written\n");
		abort();
	}
	if (fclose(fp) != 0)
		pf_die("fclose", "memstream");
	doc = json_loadb(buf, len, 0, &jerr);
	if (doc == NULL) {
		fprintf(stderr, "fuzz: the report is not valid JSON (line %d: "
		    "%s)\n", jerr.line, jerr.text);
		abort();
	}
	json_decref(doc);
	/* To see what a seed reaches: FUZZ_DUMP=1 replay-NAME SEED. */
	if (getenv("FUZZ_DUMP") != NULL && fwrite(buf, 1, len, stdout) != len)
		pf_die("fwrite", "stdout");
	free(buf);

	buf = NULL;
	len = 0;
	if ((fp = open_memstream(&buf, &len)) == NULL)
		pf_die("open_memstream", "");
	if (text_print_doctor(fp, f, &fs, in.matrix, false) != 0) {
		fprintf(stderr, "fuzz: the text report could not be written\n");
		abort();
	}
	if (fclose(fp) != 0)
		pf_die("fclose", "memstream");
	free(buf);
	findings_free(&fs);
}

#endif
