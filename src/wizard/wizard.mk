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
	src/wizard/report.c src/wizard/report.h \
	src/wizard/page.h \
	src/wizard/pageutil.c \
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
	src/wizard/fix_howto.c \
	src/wizard/lineedit.c src/wizard/lineedit.h \
	src/wizard/page_fix.c \
	src/wizard/page_fix_view.c \
	src/wizard/page_done.c \
	src/wizard/wizard.c src/wizard/wizard.h \
	src/wizard/term.c src/wizard/term.h

# The command lives in the binary beside the other commands; it runs the
# pipeline (src/run/) as they do.
cudawiz_SOURCES += src/wizard/cmd_wizard.c src/wizard/cmd_wizard.h
# The core again after the wizard library, which calls into it. The
# Compatibility page's update (ustep.c) calls the fetch layer
# (matrix/update.c): its library follows, and libcurl stays dlopen()ed.
WIZARD_LIBS = libcudawiz-wizard.a libcudawiz-present.a $(FETCH_LIBS) $(CORE_LIBS) $(NCURSES_LIBS)
cudawiz_LDADD += $(WIZARD_LIBS)
