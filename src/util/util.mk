# Small helpers every layer shares: one per job (docs/STYLE.md).
libcudawiz_core_a_SOURCES += \
	src/util/xalloc.c src/util/xalloc.h \
	src/util/strbuf.c src/util/strbuf.h \
	src/util/strv.c src/util/strv.h \
	src/util/strmap.c src/util/strmap.h \
	src/util/version.c src/util/version.h \
	src/util/shquote.c src/util/shquote.h \
	src/util/pathnorm.c src/util/pathnorm.h \
	src/util/selfexe.c src/util/selfexe.h \
	src/util/tmpdir.c src/util/tmpdir.h \
	src/util/runcap.c src/util/runcap.h \
	src/util/envp.c src/util/envp.h \
	src/util/monoclock.c src/util/monoclock.h \
	src/util/utf8width.c src/util/utf8width.h \
	src/util/safeout.c src/util/safeout.h \
	src/util/openreg.c src/util/openreg.h \
	src/util/trustpath.c src/util/trustpath.h \
	src/util/homedir.c src/util/homedir.h \
	src/util/base64.c src/util/base64.h \
	src/util/atomicfile.c src/util/atomicfile.h \
	src/util/atomicout.c src/util/memstream.c src/util/memstream.h \
	src/util/fdio.c src/util/fdio.h \
	src/util/readfile.c src/util/readfile.h \
	src/util/sha256.c src/util/sha256.h
