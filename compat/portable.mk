# The portable build (make portable; docs/DECISIONS.md "Portable binary").
# Two halves: what a tree configured with --enable-portable links
# differently (the first block), and the `portable' goal of an ordinary
# build, which configures such a tree under dist/ and packs its output.
EXTRA_DIST += compat/portable.mk
DISTCLEANFILES += compat/libjansson-local.a

if ENABLE_PORTABLE
# Only the two shipped programs are pinned (the build tools and tests run
# here, on the glibc they were built with).
GLIBC_WRAP = -Wl,--wrap=__libc_start_main \
	-Wl,--wrap=stat -Wl,--wrap=lstat -Wl,--wrap=fstat -Wl,--wrap=fstatat \
	-Wl,--wrap=dlopen -Wl,--wrap=dlsym -Wl,--wrap=dlclose \
	-Wl,--wrap=dlerror -Wl,--wrap=dlinfo
# dlopen and friends are in libdl.so.2 before glibc 2.34 (a stub after).
GLIBC_OLD_LIBS = -Wl,--push-state,--no-as-needed,-l:libdl.so.2,--pop-state
cudawiz_SOURCES += compat/glibc-wrap.c
cudawiz_LDFLAGS = $(AM_LDFLAGS) $(PORTABLE_LDFLAGS) $(GLIBC_WRAP) \
	$(GLIBC_OLD_LIBS)
cudawiz_verify_SOURCES += compat/glibc-wrap.c
cudawiz_verify_LDFLAGS = $(AM_LDFLAGS) $(PORTABLE_LDFLAGS) $(GLIBC_WRAP) \
	$(GLIBC_OLD_LIBS)
# The pins are linker flags, which make does not track: relink when the
# Makefile (so this file) changes.
EXTRA_cudawiz_DEPENDENCIES = Makefile
EXTRA_cudawiz_verify_DEPENDENCIES = Makefile
else
EXTRA_DIST += compat/glibc-wrap.c
endif

# make portable [PORTABLE_ARCH=aarch64]: the tarball of README.md's
# "Install" section, dist/cudawiz-VERSION-ARCH-linux.tar.gz and its
# .sha256. The binaries come from a tree of their own under dist/,
# configured from this source with --enable-portable (so this build keeps
# its own flags and libraries); a second `make portable' only remakes
# what changed. Another architecture is configured with
# --host=ARCH-linux-gnu and this build's mkembedded.
PORTABLE_ARCH = @PORTABLE_ARCH@
PORTABLE_NAME = cudawiz-$(VERSION)-$(PORTABLE_ARCH)-linux
PORTABLE_BUILD = dist/build-$(PORTABLE_ARCH)
# The catalogs of po/LINGUAS, as locale/LANG/LC_MESSAGES/cudawiz.mo in the
# tarball (src/main.c looks beside the binary in a portable build).
PORTABLE_CATALOGS = $(top_srcdir)/po/de.gmo $(top_srcdir)/po/zh_CN.gmo
PORTABLE_CFLAGS = -O2
PORTABLE_CONFIGURE_FLAGS =
# Another architecture's pkg-config files: Debian's multiarch directory,
# filled by the :ARCH -dev packages (bootstrap installs them for aarch64).
# The build machine's would hand the cross compiler its own include
# directories, whose bits/ are of the wrong architecture.
PORTABLE_PKG_CONFIG_LIBDIR = /usr/lib/$(PORTABLE_ARCH)-linux-gnu/pkgconfig:/usr/share/pkgconfig
# Fixed times and owners in the tarball: two builds of one commit give
# the same bytes (SOURCE_DATE_EPOCH overrides the date).
PORTABLE_EPOCH = $${SOURCE_DATE_EPOCH:-1767225600}

# Named targets skip BUILT_SOURCES (only all and check make them first),
# so the sub-build is asked for them (src/commit.h, the embedded matrix).
portable:
	@$(MKDIR_P) $(PORTABLE_BUILD)
	@if test ! -f $(PORTABLE_BUILD)/Makefile; then \
	  if test "$(PORTABLE_ARCH)" = "@PORTABLE_ARCH@"; then \
	    cross="CC=$(CC)"; \
	  else \
	    cross="--host=$(PORTABLE_ARCH)-linux-gnu"; \
	    pc="PKG_CONFIG_LIBDIR=$(PORTABLE_PKG_CONFIG_LIBDIR)"; \
	  fi; \
	  echo "configuring $(PORTABLE_BUILD) ($$cross)"; \
	  (cd $(PORTABLE_BUILD) && $(abs_top_srcdir)/configure -q \
	    --enable-portable "$$cross" $${pc:+"$$pc"} CFLAGS='$(PORTABLE_CFLAGS)' \
	    $(PORTABLE_CONFIGURE_FLAGS)) || exit 1; \
	fi
	@if test "$(PORTABLE_ARCH)" = "@PORTABLE_ARCH@"; then mk=; else \
	  $(MAKE) $(AM_MAKEFLAGS) src/matrix/mkembedded$(EXEEXT) && \
	  mk="MKEMBEDDED=$(abs_top_builddir)/src/matrix/mkembedded$(EXEEXT)"; \
	fi; \
	cd $(PORTABLE_BUILD) && $(MAKE) $(AM_MAKEFLAGS) $$mk $(BUILT_SOURCES) \
	  cudawiz$(EXEEXT) cudawiz-verify$(EXEEXT) man/cudawiz.1 \
	  completions/cudawiz
	@$(MAKE) $(AM_MAKEFLAGS) dist/$(PORTABLE_NAME).tar.gz.sha256

dist/$(PORTABLE_NAME).tar.gz.sha256: dist/$(PORTABLE_NAME).tar.gz
	$(AM_V_GEN)cd dist && sha256sum $(PORTABLE_NAME).tar.gz > $(PORTABLE_NAME).tar.gz.sha256

dist/$(PORTABLE_NAME).tar.gz: $(PORTABLE_BUILD)/cudawiz$(EXEEXT) \
    $(PORTABLE_BUILD)/cudawiz-verify$(EXEEXT) $(PORTABLE_BUILD)/man/cudawiz.1 \
    $(top_srcdir)/README.md $(top_srcdir)/completions/cudawiz.bash \
    $(top_srcdir)/completions/_cudawiz $(top_srcdir)/completions/cudawiz.fish \
    $(PORTABLE_CATALOGS)
	$(AM_V_GEN)d=dist/$(PORTABLE_NAME); b=$(PORTABLE_BUILD); \
	strip=$$(sed -n 's/^STRIP = //p' $$b/Makefile); \
	rm -rf $$d $@ && $(MKDIR_P) $$d/completions && \
	$${strip:-strip} -o $$d/cudawiz $$b/cudawiz$(EXEEXT) && \
	$${strip:-strip} -o $$d/cudawiz-verify $$b/cudawiz-verify$(EXEEXT) && \
	cp $$b/man/cudawiz.1 $(top_srcdir)/README.md $$d/ && \
	cp $(top_srcdir)/completions/cudawiz.bash $$d/completions/cudawiz && \
	cp $(top_srcdir)/completions/_cudawiz \
	   $(top_srcdir)/completions/cudawiz.fish $$d/completions/ && \
	for mo in $(PORTABLE_CATALOGS); do \
	  l=$$(basename $$mo .gmo); $(MKDIR_P) $$d/locale/$$l/LC_MESSAGES && \
	  cp $$mo $$d/locale/$$l/LC_MESSAGES/$(PACKAGE).mo || exit 1; \
	done && \
	chmod 0755 $$d/cudawiz $$d/cudawiz-verify && \
	chmod 0644 $$d/cudawiz.1 $$d/README.md $$d/completions/* && \
	{ test ! -d $$d/locale || chmod -R u=rwX,go=rX $$d/locale; } && \
	(cd dist && tar --sort=name --mtime=@$(PORTABLE_EPOCH) \
	   --owner=0 --group=0 --numeric-owner --format=gnu \
	   -cf - $(PORTABLE_NAME)) | gzip -n -9 > $@.tmp && mv -f $@.tmp $@

.PHONY: portable

$(PORTABLE_CATALOGS):
	cd po && $(MAKE) $(AM_MAKEFLAGS) all

# The aarch64 tarball as one goal of the packages gate (tests/packages.mk;
# tests/pkg/portable-aarch64.sh tries it under qemu-user).
portable-aarch64:
	$(MAKE) $(AM_MAKEFLAGS) portable PORTABLE_ARCH=aarch64
.PHONY: portable-aarch64
