/* trustpath: the component-by-component ownership walk, on a tree built
 * here with chmod (and chown to uid 65534 when run as root). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/tap.h"
#include "util/trustpath.h"
#include "util/xalloc.h"

#define NOBODY	65534

static char *top;
static uid_t me[2];

static char *
at(const char *rel)
{
	return xasprintf("%s/%s", top, rel);
}

static void
mkdir_mode(const char *rel, mode_t mode)
{
	char *p = at(rel);

	if (mkdir(p, 0700) != 0 || chmod(p, mode) != 0) {
		perror(p);
		exit(99);
	}
	free(p);
}

static void
file_mode(const char *rel, mode_t mode)
{
	char *p = at(rel);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd < 0 || close(fd) != 0 || chmod(p, mode) != 0) {
		perror(p);
		exit(99);
	}
	free(p);
}

static void
link_to(const char *target, const char *rel)
{
	char *p = at(rel);

	if (symlink(target, p) != 0) {
		perror(p);
		exit(99);
	}
	free(p);
}

static void
give(const char *rel, bool link)
{
	char *p = at(rel);

	if ((link ? lchown(p, NOBODY, (gid_t)-1) : chown(p, NOBODY, (gid_t)-1))
	    != 0) {
		perror(p);
		exit(99);
	}
	free(p);
}

/* Trusted, or not with the fault at the component rel_bad ("" for the
 * top) and the given fault. */
static void
expect(const char *rel, enum trustpath_fault fault, const char *rel_bad,
    const char *what)
{
	char *p = rel[0] == '/' || rel[0] == '\0' ? xstrdup(rel) : at(rel);
	struct trustpath_why why;
	bool ok = trustpath_check(p, me, 2, &why);

	if (fault == TRUSTPATH_OK) {
		ok(ok, "%s: trusted", what);
		if (!ok)
			printf("#   at %s, fault %d\n", why.path, (int)why.fault);
	} else {
		char *bad = rel_bad[0] == '\0' ? xstrdup(top) : at(rel_bad);

		ok(!ok, "%s: not trusted", what);
		is_int(why.fault, fault, "%s: ... the fault", what);
		is_str(why.path != NULL ? why.path : "(null)", bad,
		    "%s: ... at the component", what);
		free(bad);
	}
	trustpath_why_free(&why);
	free(p);
}

static void
cleanup(void)
{
	char *cmd = xasprintf("rm -rf '%s'", top);

	if (system(cmd) != 0)
		printf("# could not remove %s\n", top);
	free(cmd);
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp";
	char *tmpl = xasprintf("%s/test_trustpath.XXXXXX", tmp), *real;
	bool root = geteuid() == 0;
	struct trustpath_why why;
	char *words;

	me[0] = 0;
	me[1] = geteuid();
	umask(022);
	if (mkdtemp(tmpl) == NULL || (real = realpath(tmpl, NULL)) == NULL) {
		perror(tmpl);
		return 99;
	}
	free(tmpl);
	top = real;
	/* The walk starts at /: the temporary directory's own ancestors
	 * must be trusted for the rest to mean anything. */
	if (!trustpath_check(top, me, 2, &why)) {
		printf("1..0 # SKIP %s is not a trusted directory (%s)\n", top,
		    why.path);
		trustpath_why_free(&why);
		cleanup();
		free(top);
		return 0;
	}
	mkdir_mode("ok", 0755);
	file_mode("ok/lib.so", 0644);
	file_mode("ok/open.so", 0666);
	mkdir_mode("gw", 0775);
	file_mode("gw/lib.so", 0644);
	mkdir_mode("ow", 0777);
	file_mode("ow/lib.so", 0644);
	mkdir_mode("st", 01777);
	file_mode("st/mine.so", 0644);
	link_to("../ow/lib.so", "ok/to-ow.so");
	link_to("../ok/lib.so", "ow/to-ok.so");
	link_to("/", "ok/root");
	link_to("loop", "ok/loop");
	link_to("../ok", "st/okdir");

	expect("ok/lib.so", TRUSTPATH_OK, "", "a file in 0755 directories");
	expect("ok", TRUSTPATH_OK, "", "a 0755 directory");
	expect("ok/open.so", TRUSTPATH_OTHER, "ok/open.so", "a 0666 file");
	expect("gw/lib.so", TRUSTPATH_GROUP, "gw", "a file in a 0775 directory");
	expect("ow/lib.so", TRUSTPATH_OTHER, "ow", "a file in a 0777 directory");
	expect("st/mine.so", TRUSTPATH_OK, "",
	    "a file of mine in a sticky 01777 directory");
	expect("ok/to-ow.so", TRUSTPATH_OTHER, "ow",
	    "a link whose target is in a 0777 directory: the real path counts");
	expect("ow/to-ok.so", TRUSTPATH_OTHER, "ow",
	    "a link in a 0777 directory to a good file: the link's directory counts");
	expect("st/okdir/lib.so", TRUSTPATH_OK, "",
	    "through my link in a sticky directory");
	expect("ok/root/", TRUSTPATH_OK, "", "a link to /");
	expect("ok/../ok/./lib.so", TRUSTPATH_OK, "", ". and .. as the kernel has them");
	expect("ok/missing.so", TRUSTPATH_ERROR, "ok/missing.so", "a file that is not there");
	expect("ok/lib.so/x", TRUSTPATH_ERROR, "ok/lib.so", "a file used as a directory");
	expect("ok/loop", TRUSTPATH_ERROR, "ok/loop", "a link to itself");
	trustpath_check(top, me, 2, &why);
	is_int(why.fault, TRUSTPATH_OK, "the top itself is trusted");
	trustpath_why_free(&why);

	if (chdir(top) != 0) {
		perror(top);
		return 99;
	}
	ok(trustpath_check("ok/lib.so", me, 2, &why),
	    "a relative path: from the current directory, its ancestors checked");
	trustpath_why_free(&why);
	ok(!trustpath_check("ow/lib.so", me, 2, &why) &&
	    why.fault == TRUSTPATH_OTHER, "... and a bad one is caught the same");
	trustpath_why_free(&why);

	/* The words the report shows. */
	why = (struct trustpath_why){ TRUSTPATH_OWNER, xstrdup("/x"), 1000, 0 };
	words = trustpath_words(&why);
	is_str(words, "/x is writable by uid 1000", "words: another owner");
	free(words);
	trustpath_why_free(&why);
	why = (struct trustpath_why){ TRUSTPATH_OTHER, xstrdup("/y"), 0, 0 };
	words = trustpath_words(&why);
	is_str(words, "/y is writable by every user", "words: mode o+w");
	free(words);
	trustpath_why_free(&why);
	why = (struct trustpath_why){ TRUSTPATH_ERROR, xstrdup("/z"), 0, ENOENT };
	words = trustpath_words(&why);
	ok(strstr(words, "/z cannot be checked: ") == words, "words: an error");
	free(words);
	trustpath_why_free(&why);

	if (!root) {
		printf("# SKIP the chown checks need root\n");
	} else {
		uid_t with_nobody[2] = { 0, NOBODY };
		char *theirs;

		mkdir_mode("theirs", 0755);
		file_mode("theirs/lib.so", 0644);
		give("theirs", false);
		file_mode("ok/their.so", 0644);
		give("ok/their.so", false);
		file_mode("st/their.so", 0644);
		give("st/their.so", false);
		link_to("../ok/lib.so", "st/their-link.so");
		give("st/their-link.so", true);
		mkdir_mode("st/theirdir", 0755);
		give("st/theirdir", false);
		file_mode("st/theirdir/lib.so", 0644);

		expect("theirs/lib.so", TRUSTPATH_OWNER, "theirs",
		    "a file in a directory uid 65534 owns");
		expect("ok/their.so", TRUSTPATH_OWNER, "ok/their.so",
		    "a file uid 65534 owns");
		expect("st/their.so", TRUSTPATH_OWNER, "st/their.so",
		    "another's file in a sticky directory");
		expect("st/their-link.so", TRUSTPATH_OWNER, "st/their-link.so",
		    "another's link in a sticky directory (its owner can replace it)");
		expect("st/theirdir/lib.so", TRUSTPATH_OWNER, "st/theirdir",
		    "under another's directory in a sticky directory");
		theirs = at("theirs/lib.so");
		trustpath_check(theirs, with_nobody, 2, &why);
		is_int(why.fault, TRUSTPATH_OK,
		    "uid 65534's directory is trusted when 65534 is the invoker");
		trustpath_why_free(&why);
		words = NULL;
		if (!trustpath_check(theirs, me, 2, &why))
			words = trustpath_words(&why);
		ok(words != NULL && strstr(words, "writable by uid 65534") != NULL,
		    "words: '... is writable by uid 65534'");
		free(words);
		free(theirs);
		trustpath_why_free(&why);
	}
	if (chdir("/") != 0)
		return 99;
	cleanup();
	free(top);
	return done_testing();
}
