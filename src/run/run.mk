# The pipeline every probing command and the wizard run: open, probe,
# annotate, verify, diagnose.
libcudawiz_core_a_SOURCES += \
	src/run/run.c src/run/run.h
