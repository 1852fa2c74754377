# The Windows program's guided mode (issue 23): the wizard's pages as
# numbered, line-based text, built by pure functions. Compiled into the
# Linux build's presenters too, so test_winguide reads the pages on Linux;
# the console loop around them is src/win/guide.c.
libcudawiz_present_a_SOURCES += \
	src/winguide/guide.h src/winguide/pages.c \
	src/winguide/reply.c src/winguide/wrap.c
