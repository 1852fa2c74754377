# The activation script writers (issue 7): one file per format (its
# writer and its row, writer.h) listed in formats.def, the dispatcher
# that reads the rows, the writers' shared helpers, and the file writing.
libcudawiz_core_a_SOURCES += \
	src/envscript/envplan.h \
	src/envscript/envscript.h \
	src/envscript/formats.def \
	src/envscript/writer.h \
	src/envscript/common.h \
	src/envscript/sh.h \
	src/envscript/envscript.c \
	src/envscript/common.c \
	src/envscript/use.c \
	src/envscript/sh.c \
	src/envscript/conda.c \
	src/envscript/direnv.c \
	src/envscript/fish.c \
	src/envscript/csh.c \
	src/envscript/pwsh.c \
	src/envscript/cmd.c \
	src/envscript/lmod.c \
	src/envscript/tcl.c \
	src/envscript/write.c
