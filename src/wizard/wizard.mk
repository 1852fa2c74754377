# The wizard (issue 8): pages over one report, drawn into an abstract
# screen. Its own library, so libcudawiz-core.a never links curses
# (tests/unit/core-walls.sh); only term.c includes curses.
noinst_LIBRARIES += libcudawiz-wizard.a
libcudawiz_wizard_a_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSES_CFLAGS) \
	$(JANSSON_CFLAGS) $(LIBELF_CFLAGS)
libcudawiz_wizard_a_SOURCES = \
	src/wizard/keys.c src/wizard/keys.h \
	src/wizard/screen.c src/wizard/screen.h \
	src/wizard/layout.c src/wizard/layout.h \
	src/wizard/glyph.c src/wizard/glyph.h \
	src/wizard/doc.c src/wizard/doc.h \
	src/wizard/search.c src/wizard/search.h \
	src/wizard/help.c src/wizard/help.h \
	src/wizard/report.c src/wizard/report.h \
	src/wizard/page.h \
	src/wizard/pageutil.c \
	src/wizard/detail.c \
	src/wizard/installs.c src/wizard/installs.h \
	src/wizard/pagefacts.c src/wizard/pagefacts.h \
	src/wizard/pages.c \
	src/wizard/page_welcome.c \
	src/wizard/page_gpus.c \
	src/wizard/page_toolkits.c \
	src/wizard/page_python.c \
	src/wizard/page_env.c \
	src/wizard/page_compat.c \
	src/wizard/page_verify.c \
	src/wizard/vstep.c src/wizard/vstep.h \
	src/wizard/ustep.c src/wizard/ustep.h \
	src/wizard/page_diag.c \
	src/wizard/fix.c src/wizard/fix.h \
	src/wizard/fix_howto.c src/wizard/fix_for.c \
	src/wizard/lineedit.c src/wizard/lineedit.h \
	src/wizard/page_fix.c \
	src/wizard/page_fix_view.c \
	src/wizard/page_done.c \
	src/wizard/wizard.c src/wizard/wizard.h \
	src/wizard/term.c src/wizard/term.h \
	src/wizard/terminfo.c src/wizard/terminfo.h
nodist_libcudawiz_wizard_a_SOURCES = src/wizard/terminfo-data.c

# The built-in terminal descriptions (terminfo.c): data/terminfo.src
# compiled with tic (ncurses-bin; `make TIC=PATH` names another) into the
# build tree, each entry then a C array (data/bin2c.sh). tic's binary
# format is the same on every architecture, so a cross build uses the
# build machine's tic. The names: terminfo.c's table.
TIC = tic
TERMINFO_NAMES = xterm xterm-256color screen tmux linux vt100
src/wizard/terminfo-data.c: $(srcdir)/data/terminfo.src $(srcdir)/data/bin2c.sh
	$(AM_V_GEN)$(MKDIR_P) src/wizard && rm -rf $@-d && mkdir $@-d && \
	$(TIC) -x -o $@-d $(srcdir)/data/terminfo.src && \
	for t in $(TERMINFO_NAMES); do \
	  f=$@-d/$$(printf %.1s "$$t")/$$t; \
	  test -f "$$f" || { echo "error: tic made no $$f" >&2; exit 1; }; \
	  $(SHELL) $(srcdir)/data/bin2c.sh "ti_$$(echo "$$t" | tr - _)" "$$f" \
	    || exit 1; \
	done > $@-t && mv -f $@-t $@ && rm -rf $@-d
CLEANFILES += src/wizard/terminfo-data.c src/wizard/terminfo-data.c-t
clean-local: clean-terminfo-data
clean-terminfo-data:
	rm -rf src/wizard/terminfo-data.c-d
.PHONY: clean-terminfo-data
EXTRA_DIST += data/terminfo.src data/mk-terminfo.sh

# The command lives in the binary beside the other commands; it runs the
# pipeline (src/run/) as they do.
cudawiz_SOURCES += src/wizard/cmd_wizard.c src/wizard/cmd_wizard.h
# The core again after the wizard library, which calls into it. The
# Compatibility page's update (ustep.c) calls the fetch layer
# (matrix/update.c): its library follows, and libcurl stays dlopen()ed.
WIZARD_LIBS = libcudawiz-wizard.a libcudawiz-present.a $(FETCH_LIBS) $(CORE_LIBS) $(NCURSES_LIBS)
cudawiz_LDADD += $(WIZARD_LIBS)
