# What an activation script sets, and env --check's comparison.
libcudawiz_core_a_SOURCES += \
	src/envplan/plan.c src/envplan/plan.h \
	src/envplan/compare.c src/envplan/compare.h \
	src/envplan/source.c src/envplan/source.h \
	src/envplan/check.c src/envplan/check.h \
	src/envplan/checkwords.c \
	src/envplan/wincompare.c src/envplan/wincompare.h \
	src/envplan/winplan.c src/envplan/winplan.h
