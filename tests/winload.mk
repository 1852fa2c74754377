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
