# PE/COFF files (Windows DLLs), read without loading them.
libcudawiz_core_a_SOURCES += \
	src/pe/pe.c src/pe/pe.h
