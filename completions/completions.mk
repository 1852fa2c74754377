# Shell completions, installed where each shell looks for them under the
# prefix (so `make distcheck` installs and uninstalls them like any other
# file). A packager points them elsewhere with configure's
# --with-{bash,zsh,fish}-completion-dir (Debian packages zsh's in
# /usr/share/zsh/vendor-completions), or at install time.

# bash-completion loads completions/NAME for command NAME, so
# cudawiz.bash is installed as "cudawiz" (a copy made in the build tree).
nodist_bashcompletion_DATA = completions/cudawiz
dist_zshcompletion_DATA = completions/_cudawiz
dist_fishcompletion_DATA = completions/cudawiz.fish
EXTRA_DIST += completions/cudawiz.bash
CLEANFILES += completions/cudawiz

completions/cudawiz: $(top_srcdir)/completions/cudawiz.bash
	$(AM_V_GEN)$(MKDIR_P) completions && \
	cp $(top_srcdir)/completions/cudawiz.bash $@.tmp && mv -f $@.tmp $@
