# cudawiz-verify: the verification helper (docs/VERIFY.md). Plain libc and
# libdl on purpose: it must run alone on a GPU machine and load vendor
# libraries that may crash, so it links nothing else of cudawiz.
pkglibexec_PROGRAMS = cudawiz-verify
cudawiz_verify_SOURCES = src/helper/main.c src/helper/helper.h \
	src/helper/common.c src/helper/jsonl.c src/helper/jsonl.h \
	src/helper/errnames.c src/helper/cudecl.h src/helper/ptx.c \
	src/helper/ptx.h src/helper/driver.c src/helper/runtime.c \
	src/helper/cudnn.c
cudawiz_verify_CPPFLAGS = -I$(top_srcdir)/src -I$(top_builddir)
cudawiz_verify_LDADD = -lm
# The Windows layer: cudawiz-verify.exe is these sources and win.c built
# with mingw-w64 (tests/cli/verify-wine.sh builds it so); never here.
EXTRA_DIST += src/helper/win.c src/helper/win.h
