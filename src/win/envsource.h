/* env --check's "after" side in the Windows program: a script cudawiz
 * wrote (its "cudawiz-format:" line says cmd or powershell) run in the
 * shell it is for, and the environment the shell is left with read
 * back. The shell is cmd.exe from the system directory, or Windows
 * PowerShell (powershell.exe there, else pwsh.exe on PATH). Prints
 * nothing. */
#ifndef CUDAWIZ_WIN_ENVSOURCE_H
#define CUDAWIZ_WIN_ENVSOURCE_H

#include "envplan/source.h"
#include "envscript/envscript.h"

/* The format file's "cudawiz-format:" line names; -1 with *err (the
 * caller frees) when the file cannot be read, is not a file, has no such
 * line, or names a format Windows cannot run (only cmd and powershell). */
int	win_script_format(const char *file, enum script_format *fmt,
	    char **err);
/* Runs file in fmt's shell, from this process's environment, killed
 * after timeout_ms; out->envp is the environment it leaves (PATH and
 * CUDA_PATH spelt so, whatever case the block had), out->shell the
 * shell's path. -1 with *err when no shell is there, it cannot start, it
 * times out or the script fails (its exit code; what it said went to
 * stderr). Free out with win_sourced_free. */
int	win_script_source(const char *file, enum script_format fmt,
	    unsigned long timeout_ms, struct sourced *out, char **err);
void	win_sourced_free(struct sourced *s);
/* The same case folding for any environment: the block's "Path=" as
 * "PATH=", so the views compare it by one name. */
void	win_env_canonical(char **envp);

#endif
