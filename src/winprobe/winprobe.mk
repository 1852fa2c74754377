# The Windows probe (issue 23): a Windows machine's driver DLLs, CUDA
# toolkits, cuDNN copies and Python installs, read through a sysroot
# standing for its drive, into a struct win_facts.
libcudawiz_core_a_SOURCES += \
	src/winprobe/winprobe.c src/winprobe/winprobe.h \
	src/winprobe/winpython.c src/winprobe/winfacts.h \
	src/winprobe/winneeds.c src/winprobe/winbridge.c \
	src/winprobe/winbridge.h \
	src/winprobe/winprobe_int.h
