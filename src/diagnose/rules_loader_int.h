/* The loader rules' shared parts; each family lives in its own file:
 * rules_loader_soname.c (one soname), rules_loader_libcuda.c (the
 * driver library), rules_loader.c (the survey, stubs directories, mixed
 * CUDA versions).
 * Internal to src/diagnose. */
#ifndef CUDAWIZ_RULES_LOADER_INT_H
#define CUDAWIZ_RULES_LOADER_INT_H

#include <stdbool.h>

#include "diagnose/diagnose.h"
#include "loader/resolve.h"
#include "util/version.h"

#define EVIDENCE_MAX	12
#define WSL_LIB_DIR	"/usr/lib/wsl/lib"

/* rules_loader_common.c */
bool lr_is_value(const struct fact_str *f, const char *value);
bool lr_streq(const char *a, const char *b);
const struct lib_fact *lr_lib_named(const struct facts *facts, const char *soname);
bool lr_under(const char *path, const char *dir);
bool lr_is_stubs_dir(const char *dir);
char *lr_stem_of(const char *soname);
bool lr_name_version(const char *name, const char *stem, struct version *v);
bool lr_soname_version(const char *soname, struct version *v);
bool lr_is_libcuda(const char *soname);
bool lr_is_driver_lib(const char *soname);
char *lr_quoted(const char *s);
void lr_fix_comment(struct finding *f, const char *text);
void lr_fix_once(struct finding *f, const char *comment, char *line);
void lr_fix_rm(struct finding *f, const char *path);
void lr_fix_chmod_readable(struct finding *f, const char *path);
void lr_fix_prepend(struct finding *f, const char *dir);
char *lr_llp_prepend_line(const char *dirs);
void lr_fix_env_script(struct finding *f, const char *python_env,
    const char *toolkit);
bool lr_conf_safe(const char *dir);
void lr_fix_ldconf(struct finding *f, const char *dir, const char *file);
const char *lr_ldconf_file_of(const struct facts *facts, const char *dir);
bool lr_ldconfig_scans(const struct facts *facts, const char *dir);
char *lr_ldconf_drop_line(const char *dir, const char *file);
void lr_fix_ldconf_drop(struct finding *f, const char *dir, const char *file);
/* LD_LIBRARY_PATH without the directories in drop (and stubs directories
 * when drop_stubs): always a line. lr_llp_filter: without those drop()
 * rejects, NULL when it rejects none. */
char *lr_llp_without(const struct facts *facts, const struct strv *drop,
    bool drop_stubs);
char *lr_llp_filter(const struct facts *facts,
    bool (*drop)(const char *dir, const void *arg), const void *arg);
const char *lr_via_words(enum step_source via);
char *lr_step_words(const struct resolve_step *s);
void lr_winner_evidence(struct finding *f, const struct lib_fact *lib);
void lr_search_evidence(struct finding *f, const struct lib_fact *lib);
const struct lib_copy *lr_best_off_path_copy(const struct lib_fact *lib);
bool lr_env_managed(const struct facts *facts, const char *path);
bool lr_libdir_on_path(const struct facts *facts, const char *dir);
void lr_fix_reach(struct finding *f, const struct facts *facts, const char *dir);
/* The same for a library asked for by name, whose file copy (NULL: not
 * known) is in dir: ldconfig only when it would change the answer
 * (fd_ldconfig_effect): not for a name ldconfig never caches (libcuda.so)
 * or a file of another SONAME, nor when the cache is current. */
void lr_fix_reach_name(struct finding *f, const struct facts *facts,
	    const char *dir, const char *name, const struct lib_copy *copy);

/* rules_loader_soname.c */
bool lr_has_fatal(const struct lib_fact *lib);
bool lr_has_skipped(const struct lib_fact *lib);
void lr_rule_broken(const struct lib_fact *lib, struct findings *out);
void lr_rule_not_found(const struct matrix *m, const struct facts *facts,
    const struct lib_fact *lib, struct findings *out);
void lr_rule_off_path(const struct diagnose_input *in, const struct lib_fact *lib,
    const struct lib_copy *best, bool survey, struct findings *out);
void lr_rule_optional(const struct facts *facts, const struct lib_fact *lib,
    const struct lib_copy *best, struct findings *out);
bool lr_verdefs_conflict(const struct lib_fact *lib);
bool lr_spoofed(const struct lib_fact *lib);
void lr_rule_spoof(const struct matrix *m, const struct lib_fact *lib,
    struct findings *out);
void lr_rule_version(const struct matrix *m, const struct lib_fact *lib,
    struct findings *out);
void lr_rule_shadowed(const struct diagnose_input *in, const struct lib_fact *lib,
    struct findings *out);

/* rules_loader_libcuda.c */
bool lr_driver_expected(const struct facts *facts);
void lr_rule_libcuda_not_found(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out);
void lr_rule_wsl(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out);
struct finding *lr_find_mut(struct findings *out, enum finding_code code, size_t from);
void lr_rule_stub_winner(const struct facts *facts, const struct lib_fact *lib,
    struct findings *out, size_t from);

#endif
