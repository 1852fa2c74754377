# The text and JSON views of a report (libcudawiz-present.a).
libcudawiz_present_a_SOURCES += \
	src/present/json.c src/present/json.h \
	src/present/envcheck.c src/present/envcheck.h \
	src/present/envcmd.c src/present/envcmd.h \
	src/present/explain.c src/present/explain.h \
	src/present/json_python.c \
	src/present/json_verify.c \
	src/present/matrix_show.c src/present/matrix_show.h \
	src/present/text_python.c \
	src/present/text_verify.c \
	src/present/textline.c src/present/textline.h \
	src/present/words.c src/present/words.h \
	src/present/why.c src/present/why.h \
	src/present/text.c src/present/text.h \
	src/present/style.c src/present/style.h
