# make wheel: dist/cudawiz-VERSION-py3-none-manylinux_2_28_ARCH.whl, the
# portable binaries (make portable, dist/cudawiz-VERSION-ARCH-linux/) and
# the Python package in python/cudawiz/ (an API over their HTML and JSON
# reports, and the console script). python/mkwheel.py writes the zip
# itself with Debian's Python: offline, with no build frontend, and it
# checks the binaries keep the tag's promise (glibc <= 2.28 and nothing
# else dynamic) before they go in. PORTABLE_ARCH=aarch64 makes the Arm
# wheel from the aarch64 portable build.
#
# WHEEL_BINDIR=DIR takes the binaries from DIR instead (WHEEL_FLAGS=
# --unchecked lets a dynamic build through, to try the Python side; such
# a wheel is not what its tag says and is not for publishing).
PYTHON_FOR_WHEEL = /usr/bin/python3
WHEEL_PKG = python/cudawiz/__init__.py python/cudawiz/__main__.py \
	python/cudawiz/_binary.py python/cudawiz/_report.py
EXTRA_DIST += python/mkwheel.py $(WHEEL_PKG)

# make portable comes first, whatever the order of the packages gate's
# goals: it only remakes what changed, so the wheel never packs binaries
# older than the sources.
wheel: $(WHEEL_PKG) python/mkwheel.py
	@arch='$(PORTABLE_ARCH)'; arch=$${arch:-x86_64}; \
	bindir='$(WHEEL_BINDIR)'; \
	if [ -z "$$bindir" ]; then \
	    bindir=dist/$(PACKAGE)-$(VERSION)-$$arch-linux; \
	    $(MAKE) $(AM_MAKEFLAGS) portable PORTABLE_ARCH=$$arch || exit 1; \
	fi; \
	if [ ! -x "$$bindir/cudawiz" ]; then \
	    echo "wheel: no $$bindir/cudawiz" >&2; exit 1; \
	fi; \
	$(MKDIR_P) dist && \
	$(PYTHON_FOR_WHEEL) $(srcdir)/python/mkwheel.py --version '$(VERSION)' \
	    --arch "$$arch" --bindir "$$bindir" \
	    --pkgdir $(srcdir)/python/cudawiz --out dist $(WHEEL_FLAGS)
.PHONY: wheel

# The Arm wheel as one goal of the packages gate (tests/packages.mk):
# the gate's goals are single words.
wheel-aarch64:
	$(MAKE) $(AM_MAKEFLAGS) wheel PORTABLE_ARCH=aarch64
.PHONY: wheel-aarch64
