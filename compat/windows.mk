# make windows: dist/cudawiz-VERSION-windows-x86_64/cudawiz.exe, the
# Windows program (src/win/win.mk says what it holds), cross-compiled
# with mingw-w64: no Cygwin or MSYS runtime, linked statically, so it
# needs only Windows' own DLLs (checked below with objdump).
#
# Like make portable, it configures a tree of its own (windows/, under
# this build) from this source with --host=$(WINDOWS_HOST), and runs this
# build's mkembedded. jansson comes from Debian's source package, built
# once into $(WINDOWS_DEPS), outside the tree (compat/windows-deps.sh).
# A second `make windows' only remakes what changed.
#
# Beside it, cudawiz-verify.exe: the verification helper (src/helper/
# with its Windows layer win.c) that cudawiz.exe verify runs, compiled
# here with the Windows tree's config.h and commit.h and nothing of
# cudawiz's libraries, as on Linux.
EXTRA_DIST += compat/windows.mk

WINDOWS_HOST = x86_64-w64-mingw32
WINDOWS_NAME = cudawiz-$(VERSION)-windows-x86_64
WINDOWS_BUILD = windows
WINDOWS_DEPS = $${CUDAWIZ_BUILD_CACHE:-$$HOME/.cache/cudawiz-build}
WINDOWS_CFLAGS = -O2 -g
# The DLLs cudawiz.exe may import: Windows' own (the C runtime msvcrt.dll
# ships with every Windows since XP). Anything else (libgcc_s_seh-1.dll,
# libwinpthread-1.dll, a libjansson DLL) fails the build.
WINDOWS_SYSTEM_DLLS = kernel32.dll advapi32.dll msvcrt.dll user32.dll \
	shell32.dll ole32.dll ws2_32.dll bcrypt.dll ntdll.dll \
	winhttp.dll
WINDOWS_HELPER_SRC = $(srcdir)/src/helper/main.c \
	$(srcdir)/src/helper/common.c $(srcdir)/src/helper/jsonl.c \
	$(srcdir)/src/helper/errnames.c $(srcdir)/src/helper/ptx.c \
	$(srcdir)/src/helper/driver.c $(srcdir)/src/helper/runtime.c \
	$(srcdir)/src/helper/cudnn.c $(srcdir)/src/helper/win.c
# Fails the recipe when $@.tmp imports a DLL Windows does not have.
WINDOWS_IMPORT_CHECK = \
	bad=$$($(WINDOWS_HOST)-objdump -p $@.tmp | \
	  sed -n 's/^[[:space:]]*DLL Name: //p' | tr 'A-Z' 'a-z' | \
	  while read -r dll; do \
	    case " $(WINDOWS_SYSTEM_DLLS) " in *" $$dll "*) ;; \
	    *) echo "$$dll" ;; esac; \
	  done) && \
	if test -n "$$bad"; then \
	  echo "make windows: $(@F) imports DLLs Windows does not have:" $$bad >&2; \
	  rm -f $@.tmp; exit 1; \
	fi

windows:
	@$(SHELL) $(srcdir)/compat/windows-deps.sh "$(WINDOWS_DEPS)" \
	  $(WINDOWS_HOST)
	@$(MKDIR_P) $(WINDOWS_BUILD)
	@if test ! -f $(WINDOWS_BUILD)/Makefile; then \
	  echo "configuring $(WINDOWS_BUILD) (--host=$(WINDOWS_HOST))"; \
	  deps="$(WINDOWS_DEPS)/$(WINDOWS_HOST)"; \
	  (cd $(WINDOWS_BUILD) && $(abs_top_srcdir)/configure -q \
	    --host=$(WINDOWS_HOST) --disable-nls \
	    PKG_CONFIG_LIBDIR="$$deps/lib/pkgconfig" \
	    CFLAGS='$(WINDOWS_CFLAGS)') || exit 1; \
	fi
	@$(MAKE) $(AM_MAKEFLAGS) src/matrix/mkembedded$(EXEEXT)
	@cd $(WINDOWS_BUILD) && $(MAKE) $(AM_MAKEFLAGS) \
	  MKEMBEDDED=$(abs_top_builddir)/src/matrix/mkembedded$(EXEEXT) \
	  src/commit.h src/win/cudawiz-win.exe
	@$(MAKE) $(AM_MAKEFLAGS) dist/$(WINDOWS_NAME)/cudawiz.exe \
	  dist/$(WINDOWS_NAME)/cudawiz-verify.exe

dist/$(WINDOWS_NAME)/cudawiz.exe: $(WINDOWS_BUILD)/src/win/cudawiz-win.exe
	$(AM_V_GEN)$(MKDIR_P) dist/$(WINDOWS_NAME) && \
	$(WINDOWS_HOST)-strip -o $@.tmp $(WINDOWS_BUILD)/src/win/cudawiz-win.exe && \
	$(WINDOWS_IMPORT_CHECK) && \
	chmod 0755 $@.tmp && mv -f $@.tmp $@

# The helper's includes: "config.h" and "src/commit.h" from the Windows
# tree (make windows has made both), the rest from src/; mingw's C99
# stdio for its %zu and %lld.
$(WINDOWS_BUILD)/src/helper/cudawiz-verify.exe: $(WINDOWS_HELPER_SRC) \
    $(srcdir)/src/helper/helper.h $(srcdir)/src/helper/win.h \
    $(WINDOWS_BUILD)/config.h $(WINDOWS_BUILD)/src/commit.h
	$(AM_V_CC)$(MKDIR_P) $(WINDOWS_BUILD)/src/helper && \
	$(WINDOWS_HOST)-gcc -std=c11 $(WINDOWS_CFLAGS) -Wall \
	  -D__USE_MINGW_ANSI_STDIO=1 -I$(WINDOWS_BUILD) -I$(srcdir)/src \
	  -I$(srcdir) -static -o $@ $(WINDOWS_HELPER_SRC) -lm -lshell32

dist/$(WINDOWS_NAME)/cudawiz-verify.exe: \
    $(WINDOWS_BUILD)/src/helper/cudawiz-verify.exe
	$(AM_V_GEN)$(MKDIR_P) dist/$(WINDOWS_NAME) && \
	$(WINDOWS_HOST)-strip -o $@.tmp $(WINDOWS_BUILD)/src/helper/cudawiz-verify.exe && \
	$(WINDOWS_IMPORT_CHECK) && \
	chmod 0755 $@.tmp && mv -f $@.tmp $@

# The Windows tree goes with this build's distclean (the jansson cache
# outside the tree stays).
windows-clean:
	-rm -rf $(WINDOWS_BUILD) dist/$(WINDOWS_NAME)
distclean-local: windows-clean
.PHONY: windows windows-clean
