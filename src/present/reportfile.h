/* A report into -o's file in one move (util/atomicfile.h), for the
 * commands on both programs that write one: doctor on Linux and on
 * Windows. */
#ifndef CUDAWIZ_REPORTFILE_H
#define CUDAWIZ_REPORTFILE_H

#include <stdio.h>

/* Calls print(fp, arg) on a stream whose bytes become path when print
 * returns 0 and the stream saw no error: 0, or -1 having said on stderr
 * which file and why (the file there, if any, is left as it was). */
int	report_write_file(const char *path, int (*print)(FILE *fp, void *arg),
	    void *arg);

#endif
