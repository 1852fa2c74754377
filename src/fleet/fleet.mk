# Many hosts' doctor reports read together (cudawiz fleet): the reader,
# the grouping and the drift between hosts. Pure but for reading files.
libcudawiz_core_a_SOURCES += \
	src/fleet/fleet.h \
	src/fleet/report.c src/fleet/report.h \
	src/fleet/files.c \
	src/fleet/model.c \
	src/fleet/drift.c src/fleet/drift.h \
	src/fleet/skim.c src/fleet/skim.h
