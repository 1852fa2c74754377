# The facts model: what the probes found (facts.h), the Python
# environments (pyfacts.h), the live checks' results (vfacts.h) and the
# loader step sources with their words (stepsource.h). The
# probes and verify write it; diagnose, present and the wizard read it.
libcudawiz_core_a_SOURCES += \
	src/facts/facts.c src/facts/facts.h \
	src/facts/pyfacts.c src/facts/pyfacts.h \
	src/facts/stepsource.c src/facts/stepsource.h \
	src/facts/vfacts.c src/facts/vfacts.h
