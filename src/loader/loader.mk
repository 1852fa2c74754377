# ELF files, ld.so.cache, the loader profile and the resolver.
libcudawiz_core_a_SOURCES += \
	src/loader/elfobj.c src/loader/elfobj.h \
	src/loader/elfmap.c \
	src/loader/elfcheck.c \
	src/loader/ldcache.c src/loader/ldcache.h \
	src/loader/profile.c src/loader/profile.h \
	src/loader/resolve.c src/loader/resolve.h src/loader/stepname.c \
	src/loader/resolve_int.h \
	src/loader/search.c \
	src/loader/dircache.c \
	src/loader/fatbin.c src/loader/fatbin.h src/loader/fatbin_arch.c
