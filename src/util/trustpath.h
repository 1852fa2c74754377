/* Whether a file lies in a tree no other user can change: the test sudo
 * and ssh's StrictModes make before they trust a file. Live verification
 * runs it before it lets the helper load a library (docs/VERIFY.md,
 * "What is loaded"). */
#ifndef CUDAWIZ_TRUSTPATH_H
#define CUDAWIZ_TRUSTPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum trustpath_fault {
	TRUSTPATH_OK = 0,
	TRUSTPATH_OWNER,	/* owned by another user: id is the uid */
	TRUSTPATH_GROUP,	/* group-writable: id is the gid */
	TRUSTPATH_OTHER,	/* writable by every user */
	TRUSTPATH_ERROR,	/* could not be looked at: err is the errno */
};

struct trustpath_why {
	enum trustpath_fault	 fault;
	char			*path;	/* the component at fault; NULL when OK */
	unsigned long		 id;
	int			 err;
};

/* True when every directory from / down to path, every symlink met on
 * the way (in the directory that holds it, its target resolved the way
 * the kernel does) and the file itself is owned by one of uids[0..n) and
 * writable by no group and no other user — except a sticky directory
 * (/tmp), where only an entry's owner can replace it: there its group
 * and other write bits are allowed and the next component's owner
 * decides. A relative path starts at the current directory, whose own
 * components are checked too. False with *why filled otherwise (free it
 * with trustpath_why_free). */
bool	trustpath_check(const char *path, const uid_t *uids, size_t n,
	    struct trustpath_why *why);

/* "PATH is writable by uid N", in the user's language. */
char	*trustpath_words(const struct trustpath_why *why);

void	trustpath_why_free(struct trustpath_why *why);

#endif
