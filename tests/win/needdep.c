/* Linked into a fake nvcuda.dll by tests/cli/verify-wine.sh, with the
 * import library of a DLL built from depdll.c: the fake then imports
 * cw_dep from a sibling DLL, as NVIDIA's cuDNN DLLs import theirs. The
 * pointer makes the linker keep the import. */
__declspec(dllimport) int cw_dep(void);

int (*volatile cw_keep_dep)(void) = cw_dep;
