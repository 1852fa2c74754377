# The live checks: the plan, the helper it spawns and its records.
libcudawiz_core_a_SOURCES += \
	src/verify/verify.c src/verify/verify.h \
	src/verify/plan.c src/verify/plan.h \
	src/verify/spawn.c \
	src/verify/parse.c
# Running the helper on Windows (issue 23): built with mingw-w64 only
# (tests/cli/verify-wine.sh), never by this Linux build.
EXTRA_DIST += src/verify/spawn_win.c src/verify/spawn_win.h
