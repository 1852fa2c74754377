/* Recognising pasted error messages; see recognize.h.
 *
 * The input is copied once with control bytes blanked (a paste may hold
 * NULs or terminal escapes) and once in lower case for the messages whose
 * case varies between versions. Each recogniser is an anchor, a literal
 * every wording of its message contains, and a parser that reads the names
 * and versions around each place the anchor occurs. Parsers never trust
 * the text: every name is bounded, every step checks the end of the input.
 *
 * A message can contain another: TensorFlow's "Could not load dynamic
 * library 'X'; dlerror: X: cannot open shared object file" quotes glibc's.
 * The outer parser claims the quoted part, and the inner recogniser skips
 * claimed bytes, so one failure is one match. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "explain/recognize.h"
#include "explain/recognize_int.h"
#include "i18n.h"
#include "util/strbuf.h"
#include "util/version.h"
#include "util/xalloc.h"

/* ------------------------------------------------------- the recognisers */

/* TensorFlow: Could not load dynamic library 'X'; dlerror: …; LD_LIBRARY_PATH: … */
static void
r_tf_dlopen(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_name), reason_at, rend;
	struct explain_match m;
	size_t llp;

	(void)r;
	if (end == p || end >= s->n || s->t[end] != '\'')
		return;
	rz_match_init(&m, EXPLAIN_DLOPEN_FAILED);
	rz_set_library(&m, s, p, end);
	if (strlen(m.soname) > 4 &&
	    strcasecmp(m.soname + strlen(m.soname) - 4, ".dll") == 0)
		m.kind = EXPLAIN_DLL_NOT_FOUND;
	p = end + 1;
	if (rz_at_lit(s, p, "; dlerror: ")) {
		reason_at = p + strlen("; dlerror: ");
		m.reason = rz_rest_of_clause(s, reason_at, &rend);
		/* glibc's own message quoted here is this one failure. */
		rz_claim(s, reason_at, rend);
		p = rend;
	}
	llp = rz_find_nocase(s, p, rz_line_end(s, p), "; ld_library_path: ");
	if (llp != (size_t)-1)
		m.ld_library_path = rz_rest_of_clause(s, llp +
		    strlen("; ld_library_path: "), NULL);
	rz_add_match(s, &m, at);
}

/* glibc: [P: error while loading shared libraries: ]X: cannot open shared object file: E */
static void
r_cannot_open(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t start = rz_back_while(s, at, is_name), pre;
	struct explain_match m;

	(void)r;
	if (s->claimed[at] || start == at)
		return;
	rz_match_init(&m, EXPLAIN_CANNOT_OPEN);
	rz_set_library(&m, s, start, at);
	if (rz_at_lit(s, at + alen, ": "))
		m.reason = rz_rest_of_clause(s, at + alen + 2, NULL);
	if (rz_before_lit(s, start, ": error while loading shared libraries: ", &pre)) {
		size_t ps = rz_back_while(s, pre, is_name);

		if (ps < pre)
			m.required_by = rz_take(s, ps, pre);
	}
	rz_add_match(s, &m, start);
}

/* Which library defines a symbol version: a CUDA library's versions are
 * its soname; GNU's have their own names. */
static char *
provider_of_version(const char *version)
{
	static const struct {
		const char	*prefix;
		const char	*soname;
	} gnu[] = {
		{ "GLIBC_", "libc.so.6" },
		{ "GLIBCXX_", "libstdc++.so.6" },
		{ "CXXABI_", "libstdc++.so.6" },
		{ "GCC_", "libgcc_s.so.1" },
	};

	if (version == NULL)
		return NULL;
	if (explain_is_soname(version))
		return xstrdup(version);
	for (size_t i = 0; i < sizeof gnu / sizeof gnu[0]; i++)
		if (strncmp(version, gnu[i].prefix, strlen(gnu[i].prefix)) == 0)
			return xstrdup(gnu[i].soname);
	return NULL;
}

static size_t
line_start(const struct scan *s, size_t pos)
{
	while (pos > 0 && s->t[pos - 1] != '\n')
		pos--;
	return pos;
}

/* The loader's own failure to load (not a dlsym's): its words are on the line. */
static bool
glibc_load_error(const struct scan *s, size_t at)
{
	size_t a = line_start(s, at);

	return rz_find_nocase(s, a, at, "symbol lookup error") != (size_t)-1 ||
	    rz_find_nocase(s, a, at, "error while loading shared libraries") !=
	    (size_t)-1;
}

/* glibc: F: undefined symbol: S[, version V] */
static void
r_undefined_symbol(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_symbol), pre, fs = at;
	struct explain_match m;

	(void)r;
	if (end == p || s->claimed[at])
		return;
	rz_match_init(&m, EXPLAIN_UNDEFINED_SYMBOL);
	m.symbol = rz_take(s, p, end);
	if (rz_at_lit(s, end, ", version ")) {
		size_t vs = end + strlen(", version "), ve = rz_fwd_while(s, vs, is_name);

		if (ve > vs)
			m.version = rz_take(s, vs, ve);
	}
	if (rz_before_lit(s, at, ": ", &pre)) {
		fs = rz_back_while(s, pre, is_name);
		if (fs < pre)
			m.required_by = rz_take(s, fs, pre);
	}
	/* dlerror() after a dlsym() says the same words about the library
	 * looked in, which lacks the symbol: the other way round. */
	if (m.required_by != NULL && !glibc_load_error(s, at) &&
	    rz_find_nocase(s, line_start(s, at), at, "dlsym") != (size_t)-1) {
		m.kind = EXPLAIN_DLSYM_MISSING;
		rz_set_library(&m, s, fs, pre);
		FREE(&m.required_by);
	} else {
		m.soname = provider_of_version(m.version);
	}
	rz_add_match(s, &m, at);
}

/* dlsym through a library's own loader (TensorFlow, XLA, cuDNN):
 * Could not load symbol S[ from L][. Error: P: undefined symbol: S]. L
 * lacks S: a build older than the caller's. The quoted dlerror is this
 * failure, not a second one. */
static void
r_dlsym(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_symbol), le, e, q;
	struct explain_match m;

	(void)r;
	if (end == p)
		return;
	rz_match_init(&m, EXPLAIN_DLSYM_MISSING);
	m.symbol = rz_take(s, p, end);
	le = rz_line_end(s, end);
	if (rz_at_lit(s, end, " from ")) {
		p = end + strlen(" from ");
		e = rz_fwd_while(s, p, is_name);
		while (e > p && s->t[e - 1] == '.')
			e--;
		if (e > p)
			rz_set_library(&m, s, p, e);
	}
	q = rz_find_nocase(s, end, le, ": undefined symbol: ");
	if (q != (size_t)-1) {
		size_t fs = rz_back_while(s, q, is_name);

		if (fs < q && m.file == NULL) {
			char *so = m.soname;

			m.soname = NULL;
			rz_set_library(&m, s, fs, q);
			if (m.file == NULL) {
				free(m.soname);
				m.soname = so;
			} else {
				free(so);
			}
		}
		rz_claim(s, q, le);
	}
	rz_add_match(s, &m, at);
}

/* glibc: F: symbol S version V not defined in file L with link time reference */
static void
r_symbol_not_defined(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t vs = rz_back_while(s, at, is_name), ss, se, fs, fe, pre;
	struct explain_match m;

	(void)r;
	if (vs == at || !rz_before_lit(s, vs, " version ", &se))
		return;
	ss = rz_back_while(s, se, is_symbol);
	if (ss == se || !rz_before_lit(s, ss, "symbol ", &pre))
		return;
	fs = at + alen;
	fe = rz_fwd_while(s, fs, is_name);
	if (fe == fs)
		return;
	rz_match_init(&m, EXPLAIN_UNDEFINED_SYMBOL);
	m.symbol = rz_take(s, ss, se);
	m.version = rz_take(s, vs, at);
	rz_set_library(&m, s, fs, fe);
	if (rz_before_lit(s, pre, ": ", &pre)) {
		size_t rs = rz_back_while(s, pre, is_name);

		if (rs < pre)
			m.required_by = rz_take(s, rs, pre);
	}
	rz_add_match(s, &m, ss);
}

/* glibc: L: version `V' not found (required by F) */
static void
r_version_not_found(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, q = quote_at(s, p), vs, ve, q2, pre;
	struct explain_match m;

	(void)r;
	if (q == 0)
		return;
	vs = p + q;
	ve = rz_fwd_while(s, vs, is_symbol);
	q2 = quote_at(s, ve);
	if (ve == vs || q2 == 0 || !rz_at_lit(s, ve + q2, " not found"))
		return;
	rz_match_init(&m, EXPLAIN_VERSION_NOT_FOUND);
	m.version = rz_take(s, vs, ve);
	p = ve + q2 + strlen(" not found");
	if (rz_at_lit(s, p, " (required by ")) {
		size_t fs = p + strlen(" (required by "), fe = rz_fwd_while(s, fs, is_name);

		if (fe > fs)
			m.required_by = rz_take(s, fs, fe);
	}
	if (rz_before_lit(s, at, ": ", &pre)) {
		size_t ls = rz_back_while(s, pre, is_name);

		if (ls < pre)
			rz_set_library(&m, s, ls, pre);
	}
	if (m.soname == NULL)
		m.soname = provider_of_version(m.version);
	rz_add_match(s, &m, at);
}

/* glibc: F: wrong ELF class: ELFCLASS32 */
static void
r_wrong_class(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_version_char), pre;
	struct explain_match m;

	(void)r;
	if (end == p)
		return;
	rz_match_init(&m, EXPLAIN_WRONG_ELF_CLASS);
	m.found = xasprintf("ELFCLASS%.*s", (int)(end - p), s->t + p);
	if (rz_before_lit(s, at, ": ", &pre)) {
		size_t fs = rz_back_while(s, pre, is_name);

		if (fs < pre)
			rz_set_library(&m, s, fs, pre);
	}
	rz_add_match(s, &m, at);
}

static bool
is_dll_name(unsigned char c)
{
	return is_ident(c) || c == '-' || c == '.' || c == '\\' || c == '/' ||
	    c == ':';
}

static bool
ends_dll(const char *name)
{
	size_t l = strlen(name);

	return l > 4 && strcasecmp(name + l - 4, ".dll") == 0;
}

static void
add_dll(struct scan *s, size_t a, size_t b, size_t pos)
{
	struct explain_match m;
	char *tok = rz_take(s, a, b);

	if (!ends_dll(tok)) {
		free(tok);
		return;
	}
	rz_match_init(&m, EXPLAIN_DLL_NOT_FOUND);
	m.soname = rz_basename_of(tok);
	if (strcmp(m.soname, tok) != 0)
		m.file = tok;
	else
		free(tok);
	rz_add_match(s, &m, pos);
}

/* Windows: X.dll not found */
static void
r_dll_not_found(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t start = rz_back_while(s, at, is_dll_name);

	(void)alen; (void)r;
	if (s->claimed[at] || start == at)
		return;
	add_dll(s, start, at + 4, start);
}

/* cuDNN on Windows: Could not locate X.dll; PyTorch: Error loading "X.dll" */
static void
r_dll_named_after(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = at + alen, end = rz_fwd_while(s, p, is_dll_name);

	(void)r;
	/* "… X.dll." at the end of a sentence. */
	while (end > p && s->t[end - 1] == '.')
		end--;
	if (end > p)
		add_dll(s, p, end, at);
}

/* PyTorch: The NVIDIA driver on your system is too old (found version 11040). */
static void
r_torch_driver_old(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = rz_find_nocase(s, at + alen, rz_line_end(s, at), "(found version ");
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_DRIVER_TOO_OLD);
	if (p != (size_t)-1) {
		size_t ds = p + strlen("(found version "), de = rz_fwd_while(s, ds, is_digit);

		if (de > ds && de - ds <= 6) {
			char *num = rz_take(s, ds, de);

			m.found = rz_cuda_int_version(num);
			free(num);
		}
	}
	rz_add_match(s, &m, at);
}

/* nvidia-smi: Failed to initialize NVML: Driver/library version mismatch
 * [NVML library version: 535.104] */
static void
r_nvml_mismatch(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p = rz_find_nocase(s, at + alen, at + alen + LOOKAHEAD,
	    "nvml library version: ");
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	if (p != (size_t)-1)
		m.wanted = rz_version_at(s, p + strlen("nvml library version: "), NULL);
	rz_add_match(s, &m, at);
}

/* TensorFlow: kernel version X does not match DSO version Y */
static void
r_tf_kernel_dso(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t ks = rz_back_while(s, at, is_version_char), pre;
	struct explain_match m;

	(void)r;
	if (ks == at || !rz_before_lit(s, ks, "kernel version ", &pre))
		return;
	rz_match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	m.found = rz_version_at(s, ks, NULL);
	m.wanted = rz_version_at(s, at + alen, NULL);
	rz_add_match(s, &m, pre);
}

/* The kernel log: NVRM: API mismatch: the NVIDIA kernel module has version
 * X, but this NVIDIA driver component has version Y. */
static void
r_nvrm_api_mismatch(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t end, p;
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_DRIVER_MISMATCH);
	m.found = rz_version_at(s, at + alen, &end);
	p = rz_find_nocase(s, end, rz_line_end(s, end), "component has version ");
	if (p != (size_t)-1)
		m.wanted = rz_version_at(s, p + strlen("component has version "), NULL);
	rz_add_match(s, &m, at);
}

/* A message that carries nothing but its kind (recognize_more.c's too). */
void
rz_simple(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	struct explain_match m;

	(void)alen;
	rz_match_init(&m, r->kind);
	rz_add_match(s, &m, at);
}

/* The capabilities a build has, as the message lists them: "sm_50 sm_60
 * compute_37". */
static void
read_ccs(const struct scan *s, size_t p, struct strv *ccs)
{
	size_t end = rz_line_end(s, p);

	while (p < end && ccs->n < 32) {
		size_t ts, te;

		while (p < end && (s->t[p] == ' ' || s->t[p] == ','))
			p++;
		ts = p;
		te = rz_fwd_while(s, ts, is_ident);
		if (te == ts || (!rz_at_lit_nocase(s, ts, "sm_") &&
		    !rz_at_lit_nocase(s, ts, "compute_")))
			break;
		strv_push_owned(ccs, rz_take(s, ts, te));
		p = te;
	}
}

/* PyTorch: NVIDIA GeForce RTX 3090 with CUDA capability sm_86 is not
 * compatible with the current PyTorch installation. The current PyTorch
 * install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70. */
static void
r_torch_arch(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t ds = at + alen, de = rz_fwd_while(s, ds, is_digit), le = rz_line_end(s, at);
	size_t ls = s->line_start[rz_line_of(s, at)], p, name;
	struct explain_match m;

	(void)r;
	if (rz_find_nocase(s, de, le, "not compatible") == (size_t)-1)
		return;
	rz_match_init(&m, EXPLAIN_ARCH_UNSUPPORTED);
	m.cc = rz_cc_of_sm(s->t + ds, de - ds);
	/* The GPU's name runs from after the last ": " to " with". */
	name = ls;
	for (size_t i = ls; i + 1 < at; i++)
		if (s->t[i] == ':' && s->t[i + 1] == ' ')
			name = i + 2;
	m.device = rz_take_trimmed(s, name, at, 100);
	p = rz_find_nocase(s, de, at + LOOKAHEAD, "supports cuda capabilities ");
	if (p != (size_t)-1)
		read_ccs(s, p + strlen("supports cuda capabilities "), &m.ccs);
	rz_add_match(s, &m, at);
}

/* PyTorch: Found GPU0 X which is of cuda capability 3.5. PyTorch no longer
 * supports this GPU because it is too old. The minimum cuda capability
 * supported by this library is 3.7. */
static void
r_torch_gpu_too_old(struct scan *s, size_t at, size_t alen,
    const struct recogniser *r)
{
	size_t p;
	struct explain_match m;

	(void)r;
	rz_match_init(&m, EXPLAIN_ARCH_UNSUPPORTED);
	m.cc = rz_version_at(s, at + alen, NULL);
	if (m.cc == NULL) {
		rz_match_free(&m);
		return;
	}
	p = rz_find_nocase(s, at, at + LOOKAHEAD,
	    "minimum cuda capability supported by this library is ");
	if (p != (size_t)-1) {
		char *min = rz_version_at(s, p + strlen(
		    "minimum cuda capability supported by this library is "), NULL);

		if (min != NULL)
			strv_push_owned(&m.ccs, xasprintf("%s+", min));
		free(min);
	}
	p = rz_find_nocase(s, s->line_start[rz_line_of(s, at)], at, "found gpu");
	if (p != (size_t)-1) {
		size_t ns = p + strlen("found gpu");

		ns = rz_fwd_while(s, ns, is_digit);
		m.device = rz_take_trimmed(s, ns, at, 100);
	}
	rz_add_match(s, &m, at);
}

/* A cuDNN version as messages print it: "8.1.0", or "7201". */
static char *
cudnn_version_at(const struct scan *s, size_t p)
{
	char *v;
	char *c;

	while (p < s->n && (s->t[p] == ' ' || s->t[p] == ':'))
		p++;
	v = rz_version_at(s, p, NULL);
	if (v == NULL)
		return NULL;
	c = rz_cudnn_version(v);
	free(v);
	return c;
}

/* TensorFlow: Loaded runtime CuDNN library: 8.0.5 but source was compiled
 * with: 8.1.0. (Older: "… 7201 (compatibility version 7200) but source
 * was compiled with 7004 …".) */
static void
r_tf_cudnn(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t p = rz_find_nocase(s, at + alen, rz_line_end(s, at),
	    "but source was compiled with");
	struct explain_match m;

	(void)r;
	if (p == (size_t)-1)
		return;
	rz_match_init(&m, EXPLAIN_CUDNN_VERSION);
	m.found = cudnn_version_at(s, at + alen);
	m.wanted = cudnn_version_at(s, p + strlen("but source was compiled with"));
	rz_add_match(s, &m, at);
}

/* "(8, 9, 2)" → "8.9.2" */
static char *
tuple_version(const struct scan *s, size_t p)
{
	struct strbuf sb = STRBUF_INIT;
	size_t end = rz_line_end(s, p);
	struct version v;
	char *out;

	if (p >= end || s->t[p] != '(')
		return NULL;
	for (p++; p < end && s->t[p] != ')' && sb.len < 40; p++) {
		if (is_digit((unsigned char)s->t[p]))
			strbuf_putc(&sb, s->t[p]);
		else if (s->t[p] == ',')
			strbuf_putc(&sb, '.');
		else if (s->t[p] != ' ')
			break;
	}
	out = strbuf_take(&sb);
	if (p >= end || s->t[p] != ')' || !version_parse(out, &v))
		FREE(&out);
	return out;
}

/* PyTorch: cuDNN version incompatibility: PyTorch was compiled against
 * (8, 9, 2) but found runtime version (8, 5, 0). */
static void
r_torch_cudnn(struct scan *s, size_t at, size_t alen, const struct recogniser *r)
{
	size_t le = rz_line_end(s, at);
	size_t a = rz_find_nocase(s, at + alen, le, "against ");
	size_t b = rz_find_nocase(s, at + alen, le, "found runtime version ");
	struct explain_match m;

	(void)r;
	if (a == (size_t)-1 || b == (size_t)-1)
		return;
	rz_match_init(&m, EXPLAIN_CUDNN_VERSION);
	a += strlen("against ");
	b += strlen("found runtime version ");
	while (a < le && s->t[a] == ' ')
		a++;
	while (b < le && s->t[b] == ' ')
		b++;
	m.wanted = tuple_version(s, a);
	m.found = tuple_version(s, b);
	rz_add_match(s, &m, at);
}

/* ------------------------------------------------------------- the table */

static const struct recogniser recognisers[] = {
	/* TensorFlow's first: it claims the glibc message it quotes. */
	{ "Could not load dynamic library '", false, r_tf_dlopen, 0 },
	{ ": cannot open shared object file", false, r_cannot_open, 0 },
	{ "could not load symbol ", true, r_dlsym, 0 },
	{ "could not get symbol ", true, r_dlsym, 0 },
	{ "undefined symbol: ", false, r_undefined_symbol, 0 },
	{ " not defined in file ", false, r_symbol_not_defined, 0 },
	{ "version ", false, r_version_not_found, 0 },
	{ "wrong ELF class: ELFCLASS", false, r_wrong_class, 0 },
	{ ".dll not found", true, r_dll_not_found, 0 },
	{ "could not locate ", true, r_dll_named_after, 0 },
	{ "error loading \"", true, r_dll_named_after, 0 },
	{ "driver on your system is too old", true, r_torch_driver_old, 0 },
	{ "driver/library version mismatch", true, r_nvml_mismatch, 0 },
	{ " does not match dso version ", true, r_tf_kernel_dso, 0 },
	{ "api mismatch: the nvidia kernel module has version ", true,
	    r_nvrm_api_mismatch, 0 },
	{ "found no nvidia driver on your system", true, rz_simple,
	    EXPLAIN_NO_DRIVER },
	{ "could not find cuda drivers on your machine", true, rz_simple,
	    EXPLAIN_NO_DRIVER },
	{ "with cuda capability sm_", true, r_torch_arch, 0 },
	{ "which is of cuda capability ", true, r_torch_gpu_too_old, 0 },
	{ "loaded runtime cudnn library: ", true, r_tf_cudnn, 0 },
	{ "cudnn version incompatibility: ", true, r_torch_cudnn, 0 },
	{ "CUDNN_STATUS_", false, r_cudnn_status, 0 },
};

void
rz_run_recogniser(struct scan *s, const struct recogniser *r)
{
	const char *hay = r->nocase ? s->low : s->t;
	size_t alen = strlen(r->anchor);
	const char *p = hay;

	while ((p = memmem(p, s->n - (size_t)(p - hay), r->anchor, alen)) != NULL) {
		size_t at = (size_t)(p - hay);

		r->parse(s, at, alen, r);
		p += alen;
	}
}

/* -------------------------------------------------------------- mentions */

static void
mention(struct strv *sv, char *s)
{
	if (sv->n >= EXPLAIN_MENTION_MAX || strv_contains(sv, s))
		free(s);
	else
		strv_push_owned(sv, s);
}

static bool
is_soname_stem(unsigned char c)
{
	return is_ident(c) || c == '+' || c == '-';
}

/* lib*.so[.N…] anywhere. */
static void
mention_sonames(struct scan *s)
{
	const char *p = s->t;

	while ((p = memmem(p, s->n - (size_t)(p - s->t), "lib", 3)) != NULL) {
		size_t at = (size_t)(p - s->t), e, v;

		p += 3;
		if (at > 0 && is_ident((unsigned char)s->t[at - 1]))
			continue;
		e = rz_fwd_while(s, at + 3, is_soname_stem);
		if (e == at + 3 || !rz_at_lit(s, e, ".so"))
			continue;
		e += 3;
		for (;;) {
			if (e + 1 < s->n && s->t[e] == '.' &&
			    is_digit((unsigned char)s->t[e + 1])) {
				v = rz_fwd_while(s, e + 1, is_digit);
				e = v;
			} else {
				break;
			}
		}
		if (e < s->n && is_ident((unsigned char)s->t[e]))
			continue;
		mention(&s->out->sonames, rz_take(s, at, e));
	}
}

/* X.dll anywhere. */
static void
mention_dlls(struct scan *s)
{
	const char *p = s->low;

	while ((p = memmem(p, s->n - (size_t)(p - s->low), ".dll", 4)) != NULL) {
		size_t at = (size_t)(p - s->low), start;

		p += 4;
		if (at + 4 < s->n && is_ident((unsigned char)s->t[at + 4]))
			continue;
		start = rz_back_while(s, at, is_ident);
		if (start < at)
			mention(&s->out->dlls, rz_take(s, start, at + 4));
	}
}

/* "CUDA 11.8", "cuda-12.2", "CUDA Version: 11.4", "cuDNN 8.9.2",
 * "Driver Version: 470.86". */
static void
mention_versions(struct scan *s)
{
	static const struct {
		const char	*word;
		const char	*label;
	} words[] = {
		{ "cuda", "CUDA" }, { "cudnn", "cuDNN" }, { "driver", "driver" },
	};

	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		const char *p = s->low;
		size_t l = strlen(words[w].word);

		while ((p = memmem(p, s->n - (size_t)(p - s->low), words[w].word, l)) != NULL) {
			size_t at = (size_t)(p - s->low), q = at + l, seps = 0, e;
			char *v;

			p += l;
			if (at > 0 && is_alnum((unsigned char)s->t[at - 1]))
				continue;
			if (rz_at_lit_nocase(s, q, " version"))
				q += strlen(" version");
			while (q < s->n && seps < 3 && strchr(" :=-", s->t[q]) != NULL) {
				q++;
				seps++;
			}
			if (seps == 0 && q < s->n && is_alnum((unsigned char)s->t[q]))
				continue;
			v = rz_version_at(s, q, &e);
			if (v == NULL || strchr(v, '.') == NULL ||
			    (e < s->n && is_alnum((unsigned char)s->t[e]))) {
				free(v);
				continue;
			}
			mention(&s->out->versions, xasprintf("%s %s", words[w].label, v));
			free(v);
		}
	}
}

static void
mention_prefixed(struct scan *s, const char *prefix)
{
	const char *p = s->t;
	size_t l = strlen(prefix);

	while ((p = memmem(p, s->n - (size_t)(p - s->t), prefix, l)) != NULL) {
		size_t at = (size_t)(p - s->t), e = rz_fwd_while(s, at + l, is_ident);

		p += l;
		if ((at > 0 && is_ident((unsigned char)s->t[at - 1])) || e == at + l)
			continue;
		mention(&s->out->errors, rz_take(s, at, e));
	}
}

/* Error names, and the numbers the CUDA table turned into names. */
static void
mention_errors(struct scan *s)
{
	mention_prefixed(s, "CUDA_ERROR_");
	mention_prefixed(s, "cudaError");
	mention_prefixed(s, "CUDNN_STATUS_");
	mention_prefixed(s, "CUBLAS_STATUS_");
	for (size_t i = 0; i < s->out->matches.n; i++) {
		const struct explain_match *m = &s->out->matches.v[i];

		if (m->code != NULL && m->number >= 0)
			mention(&s->out->errors, xasprintf("%s (%ld)", m->code,
			    m->number));
	}
}

/* ------------------------------------------------------------------ API */

static int
cmp_offset(const void *a, const void *b)
{
	const struct explain_match *x = a, *y = b;

	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

void
explain_recognise(const char *text, size_t len, struct explain *out)
{
	struct scan s = { .out = out, .n = len };
	size_t cap = 16;

	s.t = xmalloc(len + 1);
	s.low = xmalloc(len + 1);
	s.claimed = xcalloc(len + 1, 1);
	s.last_line = xcalloc(EXPLAIN_MATCH_MAX, sizeof *s.last_line);
	s.line_start = xmalloc(cap * sizeof *s.line_start);
	s.line_start[s.nlines++] = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\r') {
			c = ' ';
		} else if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
			c = ' ';
			out->nontext++;
		}
		s.t[i] = (char)c;
		s.low[i] = (char)lower(c);
		if (c == '\n' && i + 1 < len) {
			if (s.nlines == cap) {
				cap *= 2;
				s.line_start = xreallocarray(s.line_start, cap,
				    sizeof *s.line_start);
			}
			s.line_start[s.nlines++] = i + 1;
		}
	}
	s.t[len] = s.low[len] = '\0';
	out->lines = len > 0 ? s.nlines : 0;

	for (size_t i = 0; i < sizeof recognisers / sizeof recognisers[0]; i++)
		rz_run_recogniser(&s, &recognisers[i]);
	rz_run_more(&s);
	scan_cuda_errors(&s);
	scan_cuda_numbers(&s);
	if (out->matches.n > 1)
		qsort(out->matches.v, out->matches.n, sizeof *out->matches.v,
		    cmp_offset);

	mention_sonames(&s);
	mention_dlls(&s);
	mention_versions(&s);
	mention_errors(&s);
	strv_sort(&out->sonames);
	strv_sort(&out->dlls);
	strv_sort(&out->versions);
	strv_sort(&out->errors);

	free(s.t);
	free(s.low);
	free(s.claimed);
	free(s.last_line);
	free(s.line_start);
}

void
explain_free(struct explain *ex)
{
	for (size_t i = 0; i < ex->matches.n; i++)
		rz_match_free(&ex->matches.v[i]);
	FREE(&ex->matches.v);
	ex->matches.n = ex->matches.cap = 0;
	strv_free(&ex->sonames);
	strv_free(&ex->dlls);
	strv_free(&ex->versions);
	strv_free(&ex->errors);
}

static const struct {
	const char	*name;
	const char	*title;
} kinds[EXPLAIN_KIND_COUNT] = {
	[EXPLAIN_DLOPEN_FAILED] = { "dlopen_failed",
	    N_("A program could not load a library it asks for by name") },
	[EXPLAIN_CANNOT_OPEN] = { "cannot_open_shared_object",
	    N_("The dynamic loader could not open a library") },
	[EXPLAIN_UNDEFINED_SYMBOL] = { "undefined_symbol",
	    N_("A library lacks a symbol that another one needs") },
	[EXPLAIN_VERSION_NOT_FOUND] = { "version_not_found",
	    N_("A library lacks a symbol version that another one needs") },
	[EXPLAIN_WRONG_ELF_CLASS] = { "wrong_elf_class",
	    N_("A library of the wrong ELF class (32-bit for 64-bit) was found") },
	[EXPLAIN_DLL_NOT_FOUND] = { "dll_not_found",
	    N_("Windows could not load a CUDA or cuDNN DLL") },
	[EXPLAIN_DRIVER_TOO_OLD] = { "driver_too_old",
	    N_("The NVIDIA driver is older than the CUDA runtime needs") },
	[EXPLAIN_DRIVER_MISMATCH] = { "driver_library_mismatch",
	    N_("The kernel module and the driver's libraries are different versions") },
	[EXPLAIN_NO_DRIVER] = { "no_driver",
	    N_("No usable NVIDIA driver library was found") },
	[EXPLAIN_NO_DEVICE] = { "no_device",
	    N_("CUDA sees no GPU") },
	[EXPLAIN_STUB_LIBRARY] = { "stub_library",
	    N_("The toolkit's stub libcuda was loaded instead of the driver's") },
	[EXPLAIN_NO_KERNEL_IMAGE] = { "no_kernel_image",
	    N_("The program has no code for this GPU") },
	[EXPLAIN_ARCH_UNSUPPORTED] = { "arch_not_supported",
	    N_("A framework build does not support this GPU's compute capability") },
	[EXPLAIN_PTX_TOOLCHAIN] = { "ptx_unsupported_toolchain",
	    N_("PTX from a newer toolkit than the driver can compile") },
	[EXPLAIN_FORWARD_COMPAT] = { "forward_compat_unsupported",
	    N_("A forward-compatibility libcuda on a GPU that does not support it") },
	[EXPLAIN_CUDNN_VERSION] = { "cudnn_version_mismatch",
	    N_("The cuDNN loaded is not the one the framework was built with") },
	[EXPLAIN_CUDNN_STATUS] = { "cudnn_status",
	    N_("A cuDNN call failed") },
	[EXPLAIN_CUDA_ERROR] = { "cuda_error",
	    N_("A CUDA call failed") },
	[EXPLAIN_DLSYM_MISSING] = { "dlsym_symbol_missing",
	    N_("A library lacks a symbol a program looked up in it") },
	[EXPLAIN_BUILD_CUDA_MISMATCH] = { "build_cuda_mismatch",
	    N_("The toolkit building an extension is another CUDA than the framework's") },
	[EXPLAIN_TOOLKIT_ARCH] = { "toolkit_arch_unsupported",
	    N_("The CUDA compiler does not know the GPU architecture asked for") },
	[EXPLAIN_PTXAS_VERSION] = { "ptxas_version_unsupported",
	    N_("ptxas is older than the PTX it was given") },
	[EXPLAIN_CAUSE_ELSEWHERE] = { "cause_elsewhere",
	    N_("The cause is printed elsewhere in the log") },
	[EXPLAIN_OUT_OF_MEMORY] = { "out_of_memory",
	    N_("The GPU ran out of memory") },
	[EXPLAIN_CPU_ONLY_BUILD] = { "cpu_only_build",
	    N_("The framework build has no CUDA support") },
};

const char *
explain_kind_name(enum explain_kind kind)
{
	return kind < EXPLAIN_KIND_COUNT ? kinds[kind].name : "unknown";
}

const char *
explain_kind_title(enum explain_kind kind)
{
	return kind < EXPLAIN_KIND_COUNT ? kinds[kind].title : "";
}

bool
explain_is_soname(const char *name)
{
	const char *so;

	if (name == NULL || strncmp(name, "lib", 3) != 0 || name[3] == '\0' ||
	    strchr(name, '/') != NULL || strchr(name, '\\') != NULL)
		return false;
	for (so = strstr(name, ".so"); so != NULL; so = strstr(so + 1, ".so"))
		if (so[3] == '\0' || so[3] == '.')
			return so > name + 3;
	return false;
}

static void
add_soname(struct strv *out, const char *soname)
{
	if (soname != NULL && !strv_contains(out, soname))
		strv_push(out, soname);
}

void
explain_match_sonames(const struct explain_match *m, struct strv *out)
{
	struct version v;
	char *so;

	switch (m->kind) {
	case EXPLAIN_DLOPEN_FAILED:
	case EXPLAIN_CANNOT_OPEN:
	case EXPLAIN_UNDEFINED_SYMBOL:
	case EXPLAIN_VERSION_NOT_FOUND:
	case EXPLAIN_WRONG_ELF_CLASS:
	case EXPLAIN_DLSYM_MISSING:
		if (explain_is_soname(m->soname))
			add_soname(out, m->soname);
		break;
	case EXPLAIN_DRIVER_MISMATCH:
		add_soname(out, "libcuda.so.1");
		add_soname(out, "libnvidia-ml.so.1");
		break;
	case EXPLAIN_STUB_LIBRARY:
		/* Programs that find the stub ask for the unversioned name. */
		add_soname(out, "libcuda.so.1");
		add_soname(out, "libcuda.so");
		break;
	case EXPLAIN_DRIVER_TOO_OLD:
	case EXPLAIN_NO_DRIVER:
	case EXPLAIN_NO_DEVICE:
	case EXPLAIN_PTX_TOOLCHAIN:
	case EXPLAIN_FORWARD_COMPAT:
		add_soname(out, "libcuda.so.1");
		break;
	case EXPLAIN_CUDNN_VERSION:
		if (m->found != NULL && version_parse(m->found, &v)) {
			so = xasprintf("libcudnn.so.%u", v.part[0]);
			add_soname(out, so);
			free(so);
		}
		if (m->wanted != NULL && version_parse(m->wanted, &v)) {
			so = xasprintf("libcudnn.so.%u", v.part[0]);
			add_soname(out, so);
			free(so);
		}
		break;
	case EXPLAIN_CUDA_ERROR:
		if (m->number == 221)
			add_soname(out, "libnvidia-ptxjitcompiler.so.1");
		break;
	default:
		break;
	}
}

