/* The real loader's answer to "what would dlopen(NAME) load": a plain
 * program (no RPATH, no RUNPATH) that dlopen()s one name and prints the
 * path of every object the link map gained, in link-map order (the order
 * glibc loaded them), or dlerror(). tests/lib/gentree.py compares that
 * with `cudawiz why NAME --json`.
 *
 *   dlopen-probe NAME              dlopen(NAME) from this program
 *   dlopen-probe --from FILE NAME  load FILE, then dlopen(NAME) from FILE's
 *                                  own code (its cwt_probe_open()), so
 *                                  FILE's RPATH/RUNPATH apply
 *
 * Output on stdout, one line each: "pre PATH" for what loading FILE
 * added, "new PATH" for what dlopen(NAME) added, or "error MESSAGE";
 * "fromerror MESSAGE" when FILE itself cannot be loaded. A line
 * "dlopen-probe: begin" goes to stderr right before the dlopen that is
 * measured, so a caller running with LD_DEBUG can tell the loader's
 * lines about this program's own start from those about NAME.
 * Exit 0 when NAME loaded, 1 when not, 2 on a usage or setup error.
 *
 * Built without sanitizers (tests/differential.mk): their runtimes would
 * put libraries into the link map that a plain program does not have. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_OBJS 4096

struct mapset {
	const struct link_map	*v[MAX_OBJS];
	size_t			 n;
};

static const struct link_map *
head_of_link_map(void)
{
	void *self;
	struct link_map *lm = NULL;

	self = dlopen(NULL, RTLD_LAZY);
	if (self == NULL) {
		fprintf(stderr, "dlopen-probe: dlopen(NULL): %s\n", dlerror());
		exit(2);
	}
	if (dlinfo(self, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL) {
		fprintf(stderr, "dlopen-probe: dlinfo(RTLD_DI_LINKMAP): %s\n",
		    dlerror());
		exit(2);
	}
	while (lm->l_prev != NULL)
		lm = lm->l_prev;
	return lm;
}

static void
snapshot(struct mapset *set)
{
	const struct link_map *lm;

	set->n = 0;
	for (lm = head_of_link_map(); lm != NULL; lm = lm->l_next) {
		if (set->n == MAX_OBJS) {
			fprintf(stderr, "dlopen-probe: more than %d objects\n",
			    MAX_OBJS);
			exit(2);
		}
		set->v[set->n++] = lm;
	}
}

static int
in_set(const struct mapset *set, const struct link_map *lm)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (set->v[i] == lm)
			return 1;
	return 0;
}

/* Prints, with the given tag, each object of the link map not in before. */
static void
print_new(const struct mapset *before, const char *tag)
{
	const struct link_map *lm;

	for (lm = head_of_link_map(); lm != NULL; lm = lm->l_next)
		if (!in_set(before, lm))
			printf("%s %s\n", tag, lm->l_name);
}

/* Marks the start of the measured dlopen in a LD_DEBUG log (also on fd 2). */
static void
mark_begin(void)
{
	static const char msg[] = "dlopen-probe: begin\n";

	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
		exit(2);
}

static void
usage(void)
{
	fputs("usage: dlopen-probe [--from FILE] NAME\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	static struct mapset before;
	const char *from = NULL, *name;
	void *handle;

	if (argc == 4 && strcmp(argv[1], "--from") == 0) {
		from = argv[2];
		name = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		name = argv[1];
	} else {
		usage();
	}

	if (from != NULL) {
		void *(*opener)(const char *);
		void *req;

		snapshot(&before);
		req = dlopen(from, RTLD_LAZY);
		if (req == NULL) {
			printf("fromerror %s\n", dlerror());
			return 2;
		}
		print_new(&before, "pre");
		/* dlsym returns an object pointer; POSIX allows this conversion. */
		*(void **)&opener = dlsym(req, "cwt_probe_open");
		if (opener == NULL) {
			printf("fromerror %s\n", dlerror());
			return 2;
		}
		snapshot(&before);
		fflush(stdout);
		mark_begin();
		handle = opener(name);
	} else {
		snapshot(&before);
		fflush(stdout);
		mark_begin();
		handle = dlopen(name, RTLD_LAZY);
	}
	if (handle == NULL) {
		printf("error %s\n", dlerror());
		return 1;
	}
	print_new(&before, "new");
	return fflush(stdout) == 0 ? 0 : 2;
}
