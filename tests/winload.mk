# Issue 23: the Windows DLL search model (src/winload/), over fixture
# trees laid out as a Windows drive. dllsearch-model prints one search
# for the Wine differential test to hold against LoadLibraryExW.
check_PROGRAMS += tests/unit/test_dllsearch tests/tools/dllsearch-model
tests_unit_test_dllsearch_SOURCES = tests/unit/test_dllsearch.c
tests_unit_test_dllsearch_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_dllsearch_LDADD = $(UNIT_LDADD)
tests_tools_dllsearch_model_SOURCES = tests/tools/dllsearch-model.c
tests_tools_dllsearch_model_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_tools_dllsearch_model_LDADD = $(UNIT_LDADD)
TESTS += tests/unit/test_dllsearch
# dllsearch-wine.sh builds tests/win/*.c with mingw-w64 and holds the
# model against Wine's LoadLibraryExW on DLLSEARCH_TREES random layouts
# (120 in a user's check, about 8 s with the prefix; 300 in CI's plain
# gate). It runs no cudawiz: the ASan and valgrind gates leave it to the
# plain one (test_dllsearch watches the model under the sanitizers).
TESTS += tests/cli/dllsearch-wine.sh
EXTRA_DIST += tests/cli/dllsearch-wine.sh tests/lib/dllsearch-diff.py \
	tests/win/dllprobe.c tests/win/stubdll.c tests/lib/fx_wine.sh
