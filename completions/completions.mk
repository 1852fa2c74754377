# Shell completions, installed where each shell looks for them under the
# prefix (so `make distcheck` installs and uninstalls them like any other
# file). A packager can point them elsewhere at install time, e.g.
#   make install zshcompletiondir=/usr/share/zsh/vendor-completions
# (Debian's directory for packaged zsh completions).
bashcompletiondir = $(datadir)/bash-completion/completions
zshcompletiondir = $(datadir)/zsh/site-functions
fishcompletiondir = $(datadir)/fish/vendor_completions.d

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
