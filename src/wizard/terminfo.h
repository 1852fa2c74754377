/* The terminal descriptions the wizard carries (data/terminfo.src,
 * compiled with tic at build time) for systems without a terminfo
 * database: xterm, xterm-256color, screen, tmux, linux, vt100. No curses
 * here: term.c points ncurses at what this writes. */
#ifndef CUDAWIZ_WIZARD_TERMINFO_H
#define CUDAWIZ_WIZARD_TERMINFO_H

/* The built-in entry for term: term itself when it is one of the six,
 * else the closest (xterm-256color for *-256color, xterm for xterm-*,
 * screen for screen.* and tmux.*, vt100 for anything else). */
const char	*terminfo_builtin_pick(const char *term);

/* Writes the built-in entry name (one of the six) into a new private
 * directory (mode 0700, under $XDG_RUNTIME_DIR, $TMPDIR or /tmp), laid
 * out as ncurses reads $TERMINFO (DIR/x/xterm). Returns the directory
 * (malloc'd), NULL with errno set when it could not be written (nothing
 * is left behind then). */
char		*terminfo_builtin_write(const char *name);

/* Removes what terminfo_builtin_write(name) made in dir, and frees dir. */
void		 terminfo_builtin_remove(char *dir, const char *name);

#endif
