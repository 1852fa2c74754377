# All file access: the --root tree, opened component by component.
libcudawiz_core_a_SOURCES += \
	src/sysroot/sysroot.c src/sysroot/sysroot.h \
	src/sysroot/sysroot_common.c
