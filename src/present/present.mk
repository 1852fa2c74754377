# The text, JSON, HTML and Prometheus views of a report (libcudawiz-present.a).
libcudawiz_present_a_SOURCES += \
	src/present/json.c src/present/json.h \
	src/present/prom.c src/present/prom.h \
	src/present/reportfile.c src/present/reportfile.h \
	src/present/envcheck.c src/present/envcheck.h \
	src/present/envcmd.c src/present/envcmd.h \
	src/present/explain.c src/present/explain.h \
	src/present/json_python.c \
	src/present/json_verify.c \
	src/present/matrix_show.c src/present/matrix_show.h \
	src/present/text_python.c \
	src/present/text_verify.c \
	src/present/verify_words.c src/present/verify_words.h \
	src/present/textline.c src/present/textline.h \
	src/present/words.c src/present/words.h \
	src/present/why.c src/present/why.h \
	src/present/text.c src/present/text.h \
	src/present/style.c src/present/style.h \
	src/present/html.c src/present/html.h src/present/html_parts.h \
	src/present/html_style.c \
	src/present/html_findings.c \
	src/present/html_doctor.c \
	src/present/html_why.c \
	src/present/html_explain.c \
	src/present/fleet.h \
	src/present/fleet_json.c \
	src/present/fleet_text.c \
	src/present/html_fleet.c
