# make deb: the Debian package (debian/, debhelper), built the way a
# distribution would build it: from `make dist`'s tarball, renamed to
# the orig tarball 3.0 (quilt) wants, unpacked in dist/deb-build/ with
# the checkout's debian/, then dpkg-buildpackage. Binary only (-b): the
# source package adds nothing the gate checks. DEB_BUILD_OPTIONS=nocheck
# (the suites run in CI's own gates on these sources) and parallel=2 (the
# CI machine's cores) keep the packages gate's time down. lintian then
# reads the .changes (and so the .deb); any error fails the goal, and
# its whole output stays in dist/ for tests/pkg/deb-install.sh.
DEB_REVISION = 1
DEB_BUILD_DIR = dist/deb-build
EXTRA_DIST += debian/changelog debian/control debian/copyright \
	debian/docs debian/rules debian/source/format \
	debian/README.source debian/debian.mk \
	debian/cudawiz.lintian-overrides

deb:
	@command -v dpkg-buildpackage >/dev/null || \
	    { echo "make deb: dpkg-buildpackage is missing (Debian package: dpkg-dev)" >&2; exit 1; }
	@command -v dh >/dev/null || \
	    { echo "make deb: dh is missing (Debian package: debhelper)" >&2; exit 1; }
	@command -v lintian >/dev/null || \
	    { echo "make deb: lintian is missing (Debian package: lintian)" >&2; exit 1; }
	$(MAKE) $(AM_MAKEFLAGS) dist-gzip
	arch=$$(dpkg --print-architecture) && \
	deb=cudawiz_$(VERSION)-$(DEB_REVISION)_$$arch && \
	rm -rf $(DEB_BUILD_DIR) dist/$$deb.deb dist/$$deb.lintian && \
	$(MKDIR_P) $(DEB_BUILD_DIR) && \
	cp $(distdir).tar.gz $(DEB_BUILD_DIR)/cudawiz_$(VERSION).orig.tar.gz && \
	cd $(DEB_BUILD_DIR) && \
	gzip -dc cudawiz_$(VERSION).orig.tar.gz | tar xf - && \
	rm -rf $(distdir)/debian && cp -R $(abs_top_srcdir)/debian $(distdir)/ && \
	(cd $(distdir) && DEB_BUILD_OPTIONS="nocheck parallel=2" \
	    dpkg-buildpackage -us -uc -b) && \
	cp $$deb.deb ../$$deb.deb && \
	echo "lintian $$deb.changes" && \
	{ lintian --display-info $$deb.changes > ../$$deb.lintian 2>&1; \
	  st=$$?; cat ../$$deb.lintian; \
	  if [ $$st != 0 ] || grep -q '^E: ' ../$$deb.lintian; then \
	      echo "make deb: lintian failed or reports errors" >&2; exit 1; fi; }
.PHONY: deb
