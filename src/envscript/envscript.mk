# The activation script writers (issue 7): one module per format behind
# envscript.h, the common part, and the file writing.
libcudawiz_core_a_SOURCES += \
	src/envscript/envplan.h \
	src/envscript/envscript.h \
	src/envscript/envscript_int.h \
	src/envscript/envscript.c \
	src/envscript/sh.c \
	src/envscript/conda.c \
	src/envscript/direnv.c \
	src/envscript/fish.c \
	src/envscript/csh.c \
	src/envscript/pwsh.c \
	src/envscript/lmod.c \
	src/envscript/tcl.c \
	src/envscript/write.c
