/* The sibling DLL a fake nvcuda.dll imports (needdep.c): found only when
 * the loader searches the fake's own directory. */
__declspec(dllexport) int cw_dep(void);

int
cw_dep(void)
{
	return 1;
}
