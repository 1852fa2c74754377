# `cudawiz explain`: recognising a pasted error message (its rules are
# diagnose's rules_explain.c).
libcudawiz_core_a_SOURCES += \
	src/explain/recognize.c src/explain/recognize.h \
	src/explain/recognize_int.h \
	src/explain/scan.c \
	src/explain/codes.c \
	src/explain/recognize_more.c
