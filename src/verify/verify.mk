# The live checks: the plan, the helper it spawns and its records.
libcudawiz_core_a_SOURCES += \
	src/verify/verify.c src/verify/verify.h \
	src/verify/plan.c src/verify/plan.h \
	src/verify/spawn.c \
	src/verify/parse.c
