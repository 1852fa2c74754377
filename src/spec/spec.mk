# A machine's spec: its flat items, compared by doctor --baseline and
# fleet (specdiff.h).
libcudawiz_core_a_SOURCES += \
	src/spec/specdiff.c src/spec/specdiff.h \
	src/spec/reference.c src/spec/reference.h \
	src/spec/spec.c src/spec/spec.h \
	src/spec/specout.c src/spec/specout.h
