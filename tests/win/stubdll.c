/* The smallest real DLL for the differential test's layouts: each copy
 * under a CUDA name is the same image, told apart by where it lies. */
#include <windows.h>

__declspec(dllexport) int
cudawiz_stub(void)
{
	return 1;
}

BOOL WINAPI
DllMain(HINSTANCE h, DWORD reason, LPVOID reserved)
{
	(void)h;
	(void)reason;
	(void)reserved;
	return TRUE;
}
