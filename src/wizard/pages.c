/* The order of the pages: the walk from the machine up to the
 * fix. Adding a page is one file and one line here. */
#include "config.h"

#include "wizard/page.h"

static const struct wpage *const pages[] = {
	&page_welcome,
	&page_gpus,
	&page_toolkits,
	&page_python,
	&page_env,
	&page_compat,
	&page_verify,
	&page_diagnosis,
	&page_fix,
	&page_done,
};

const struct wpage *
wiz_page(size_t i)
{
	return pages[i < sizeof pages / sizeof pages[0] ? i : 0];
}

size_t
wiz_page_count(void)
{
	return sizeof pages / sizeof pages[0];
}
