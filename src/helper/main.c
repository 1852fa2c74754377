/* Placeholder: the verification helper is being written (issue 6). */
#include "config.h"

int
main(void)
{
	return 2;
}
