# The Windows program (make windows, compat/windows.mk; configure.ac's
# WINDOWS): src/win/cudawiz-win.exe, shipped as cudawiz.exe. It is the
# dispatcher (src/cli.c, entered through src/win/wmain.c) with the
# commands that need no ELF or curses: explain (the text alone:
# nothing of this machine is probed), matrix show/path (the built-in
# matrix, or the cache's), why NAME.dll over the live
# system (src/win/cmd_why.c) and verify (src/win/cmd_verify.c: the
# probe's DLLs each run by cudawiz-verify.exe, which compat/windows.mk
# builds from src/helper/ beside it, through src/verify/spawn_win.c),
# env (src/win/cmd_env.c; --check FILE: src/win/cmd_env_check.c), spec export (src/win/cmd_spec.c) and fleet
# (the shared src/cmd_fleet.c), both over the Windows facts bridged into the
# shared model (src/winprobe/winbridge.c), and the guided mode in place
# of the wizard (src/win/guide.c, the pages src/winguide/'s); matrix
# update is Linux's (src/matrix/update.c) over WinHTTP
# (src/matrix/fetch_win.c) in place of libcurl. Its layers are the pure ones,
# compiled once more for Windows into libcudawiz-win.a, with Windows back
# ends behind the same headers in place of the POSIX ones
# (src/sysroot/sysroot_win.c, src/util/readfile_win.c,
# src/util/atomicfile_win.c, src/util/memstream_win.c,
# src/matrix/cachedir_win.c). Both are EXTRA_: a Linux `make' builds
# neither.
EXTRA_PROGRAMS += src/win/cudawiz-win
EXTRA_LIBRARIES = libcudawiz-win.a
WIN_CPPFLAGS = $(AM_CPPFLAGS) $(JANSSON_CFLAGS) -include $(top_srcdir)/compat/win32.h
# GCC takes format(printf) as msvcrt's printf on Windows and so calls
# %zu unknown; the program prints with mingw-w64's C99 printf
# (compat/win32.h), for which these are right.
WIN_CFLAGS = $(AM_CFLAGS) -Wno-format -ffunction-sections -fdata-sections

libcudawiz_win_a_CPPFLAGS = $(WIN_CPPFLAGS)
libcudawiz_win_a_CFLAGS = $(WIN_CFLAGS)
libcudawiz_win_a_SOURCES = \
	src/util/xalloc.c src/util/strbuf.c src/util/strv.c \
	src/util/strmap.c src/util/version.c src/util/shquote.c \
	src/util/pathnorm.c src/util/utf8width.c src/util/base64.c \
	src/util/sha256.c src/util/homedir.c src/util/envp.c \
	src/util/fdio.c src/util/readfile_win.c src/util/wstr.c \
	src/sysroot/sysroot_win.c src/sysroot/sysroot_common.c \
	src/winload/dllsearch.c src/winload/winname.c \
	src/pe/pe.c compat/pread_win.c \
	src/winprobe/winprobe.c src/winprobe/winpython.c \
	src/winprobe/winneeds.c \
	src/diagnose/rules_windows.c src/diagnose/rules_windows_fix.c \
	src/diagnose/rules_windows_gpu.c \
	src/diagnose/rules_windows_verify.c src/verify/spawn_win.c \
	src/matrix/matrix.c src/matrix/schema.c src/matrix/parse.c \
	src/matrix/write.c src/matrix/query.c src/matrix/redistrib.c \
	src/matrix/select.c src/matrix/cache.c src/matrix/cachedir_win.c \
	src/matrix/update.c src/matrix/fetchurl.c src/matrix/fetch_win.c \
	src/explain/recognize.c src/explain/scan.c src/explain/codes.c \
	src/explain/recognize_more.c \
	src/facts/facts.c src/facts/pyfacts.c src/facts/stepsource.c \
	src/facts/vfacts.c src/spec/spec.c src/loader/stepname.c \
	src/loader/fatbin_arch.c \
	src/diagnose/annotate.c src/diagnose/diagnose.c \
	src/diagnose/finding.c src/diagnose/fixcmd.c \
	src/diagnose/fixdriver.c src/diagnose/fwdcompat.c \
	src/diagnose/rules_drift.c src/diagnose/rules_env.c \
	src/diagnose/rules_explain.c src/diagnose/rules_explain_build.c \
	src/diagnose/rules_explain_cudnn.c \
	src/diagnose/rules_explain_driver.c \
	src/diagnose/rules_explain_elsewhere.c \
	src/diagnose/rules_explain_gpu.c \
	src/diagnose/rules_explain_library.c \
	src/diagnose/rules_explain_runtime.c \
	src/diagnose/rules_explain_symbol.c src/diagnose/rules_gpu.c \
	src/diagnose/rules_hw.c src/diagnose/rules_install_plan.c \
	src/diagnose/rules_loader.c src/diagnose/rules_loader_common.c \
	src/diagnose/rules_loader_libcuda.c \
	src/diagnose/rules_loader_soname.c src/diagnose/rules_matrix.c \
	src/diagnose/rules_newer.c src/diagnose/rules_python.c \
	src/diagnose/rules_python_env.c src/diagnose/rules_python_fix.c \
	src/diagnose/rules_python_fwgpu.c src/diagnose/rules_toolkit.c \
	src/diagnose/rules_verify.c src/diagnose/subject.c \
	src/diagnose/xid.c \
	src/present/explain.c src/present/json.c src/present/text.c \
	src/present/textline.c src/present/words.c src/present/style.c \
	src/present/matrix_show.c src/present/text_verify.c \
	src/present/text_python.c src/present/verify_words.c \
	src/present/json_verify.c src/present/json_python.c \
	src/winprobe/winbridge.c src/present/prom.c \
	src/present/reportfile.c src/verify/parse.c \
	src/spec/reference.c src/spec/specdiff.c src/spec/specout.c \
	src/util/atomicfile_win.c src/util/atomicout.c \
	src/util/memstream_win.c \
	src/present/html.c src/present/html_doctor.c \
	src/present/html_explain.c src/present/html_findings.c \
	src/present/html_fleet.c src/present/html_style.c \
	src/present/html_why.c src/present/html_winwhy.c \
	src/fleet/drift.c src/fleet/files.c src/fleet/model.c \
	src/fleet/report.c src/fleet/skim.c \
	src/present/fleet_json.c src/present/fleet_text.c \
	src/present/envcmd.c src/envplan/winplan.c \
	src/envplan/compare.c src/envplan/wincompare.c \
	src/envplan/checkwords.c src/present/envcheck.c \
	src/envscript/envscript.c src/envscript/common.c \
	src/envscript/use.c src/envscript/sh.c src/envscript/conda.c \
	src/envscript/direnv.c src/envscript/fish.c src/envscript/csh.c \
	src/envscript/pwsh.c src/envscript/cmd.c src/envscript/lmod.c \
	src/envscript/tcl.c src/envscript/write_win.c \
	src/winguide/pages.c src/winguide/reply.c src/winguide/wrap.c
nodist_libcudawiz_win_a_SOURCES = src/matrix/embedded.c
libcudawiz_win_a_LIBADD = $(LIBOBJS)

src_win_cudawiz_win_SOURCES = src/win/wmain.c src/cli.c \
	src/cmd_matrix.c src/explain_input.c src/explain_input.h \
	src/win/cmd_explain.c src/win/cmd_why.c src/win/cmd_doctor.c \
	src/win/cmd_verify.c src/win/cmd_verify.h src/win/cmd_env.c src/win/cmd_env.h \
	src/win/cmd_env_check.c src/win/envsource.c src/win/envsource.h \
	src/win/guide.c src/win/guide.h src/win/guide_fix.c \
	src/win/cmd_spec.c src/cmd_fleet.c \
	src/win/bridged.c src/win/bridged.h \
	src/win/registry.c src/win/registry.h \
	src/win/here.c src/win/here.h src/win/winrun.c src/win/winrun.h
src_win_cudawiz_win_CPPFLAGS = $(WIN_CPPFLAGS)
src_win_cudawiz_win_CFLAGS = $(WIN_CFLAGS)
# --gc-sections: the shared layers' objects hold functions of the
# commands left out (doctor's JSON and text views, which call into
# verify/ and spec/); what the Windows commands never reach is dropped,
# which keeps the exe small. The PE linker still resolves every symbol
# first, so the sources of those views are compiled here too.
src_win_cudawiz_win_LDFLAGS = $(AM_LDFLAGS) $(WINDOWS_LDFLAGS) -Wl,--gc-sections \
	-municode
# winhttp: matrix update's fetches (src/matrix/fetch_win.c); ws2_32: its
# URL rules' inet_pton.
src_win_cudawiz_win_LDADD = libcudawiz-win.a $(JANSSON_LIBS) -lwinhttp \
	-lws2_32
EXTRA_DIST += compat/win32.h compat/windows-deps.sh src/win/win.mk \
	src/util/wstr.h \
	src/diagnose/rules_windows_verify.h
