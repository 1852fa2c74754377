# Findings from facts: the rules, no I/O.
libcudawiz_core_a_SOURCES += \
	src/diagnose/findings.def \
	src/diagnose/finding.c src/diagnose/finding.h \
	src/diagnose/subject.c src/diagnose/subject.h \
	src/diagnose/diagnose.c src/diagnose/diagnose.h \
	src/diagnose/rules_gpu.c \
	src/diagnose/rules_hw.c \
	src/diagnose/xid.c src/diagnose/xid.h \
	src/diagnose/rules_env.c \
	src/diagnose/rules_toolkit.c \
	src/diagnose/rules_newer.c \
	src/diagnose/rules_matrix.c \
	src/diagnose/rules_loader.c \
	src/diagnose/rules_loader_soname.c \
	src/diagnose/rules_loader_libcuda.c \
	src/diagnose/fwdcompat.c src/diagnose/fwdcompat.h \
	src/diagnose/rules_loader_common.c src/diagnose/rules_loader_int.h \
	src/diagnose/rules_python.c \
	src/diagnose/rules_python_env.c \
	src/diagnose/rules_python_fwgpu.c \
	src/diagnose/rules_python_fix.c src/diagnose/rules_python_int.h \
	src/diagnose/rules_install_plan.c src/diagnose/rules_install_plan.h \
	src/diagnose/fixcmd.c src/diagnose/fixcmd.h \
	src/diagnose/fixdriver.c src/diagnose/fixdriver.h \
	src/diagnose/annotate.c \
	src/diagnose/rules_verify.c \
	src/diagnose/rules_drift.c \
	src/diagnose/rules_windows.c src/diagnose/rules_windows.h \
	src/diagnose/rules_windows_fix.c src/diagnose/rules_windows_int.h \
	src/diagnose/rules_windows_gpu.c \
	src/diagnose/rules_explain.c src/diagnose/rules_explain_int.h \
	src/diagnose/rules_explain_library.c \
	src/diagnose/rules_explain_driver.c \
	src/diagnose/rules_explain_gpu.c \
	src/diagnose/rules_explain_cudnn.c \
	src/diagnose/rules_explain_symbol.c \
	src/diagnose/rules_explain_elsewhere.c \
	src/diagnose/rules_explain_build.c \
	src/diagnose/rules_explain_runtime.c
