# The Windows DLL search model (issue 23): pure, over a sysroot that
# stands for a Windows drive; winname: NTFS's case-blind names over it.
libcudawiz_core_a_SOURCES += \
	src/winload/dllsearch.c src/winload/dllsearch.h \
	src/winload/winname.c src/winload/winname.h
