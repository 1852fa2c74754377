# cudawiz-verify: the verification helper (docs/VERIFY.md). Plain libc and
# libdl on purpose: it must run alone on a GPU machine and load vendor
# libraries that may crash, so it links nothing else of cudawiz.
pkglibexec_PROGRAMS = cudawiz-verify
cudawiz_verify_SOURCES = src/helper/main.c
cudawiz_verify_CPPFLAGS = -I$(top_builddir)
cudawiz_verify_LDADD = -lm
