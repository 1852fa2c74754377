# Issue 23: verify on Windows. verify-wine.sh builds cudawiz-verify.exe
# from src/helper/ (with its Windows layer, src/helper/win.c), the
# runner src/verify/spawn_win.c (driven by tests/win/verify-run.c) and
# fake nvcuda.dll files from tests/tools/fake_libcuda.c with mingw-w64,
# and runs them under Wine in a fresh prefix (about 20 s, nearly all
# Wine's). None of this is built by make: configure targets Linux, and
# mingw-w64 and Wine are optional. Of Linux binaries it runs only the
# helper, once, to compare its records with the Windows helper's.
TESTS += tests/cli/verify-wine.sh
EXTRA_DIST += tests/cli/verify-wine.sh tests/win/verify-run.c \
	tests/win/depdll.c tests/win/needdep.c tests/win/fake_cudart.c \
	tests/win/fake_cudnn.c
