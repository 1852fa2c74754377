/* What the wizard leaves on the normal screen (wfix_farewell): the
 * script written, how to activate and undo it, the install lines of the
 * findings no script fixes, each once; nothing when there is nothing. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "util/xalloc.h"
#include "wizard/fix.h"

int
main(void)
{
	struct wiz_report r = { 0 };
	struct wfix *fx = xcalloc(1, sizeof *fx);
	struct finding *f;
	char *s;

	fx->r = &r;
	ok(wfix_farewell(fx) == NULL, "nothing written, nothing to run: NULL");

	f = finding_add(&r.findings, FINDING_SONAME_NOT_FOUND, "not found");
	strv_push(&f->fix, "export LD_LIBRARY_PATH=/opt/x");
	ok(wfix_farewell(fx) == NULL, "a finding a script fixes is not listed");

	f = finding_add(&r.findings, FINDING_DRIVER_TOO_OLD, "old");
	strv_push(&f->fix, "sudo apt install nvidia-driver-580");
	f = finding_add(&r.findings, FINDING_DRIVER_NOT_LOADED, "not loaded");
	strv_push(&f->fix, "sudo apt install nvidia-driver-580");
	strv_push(&f->fix, "sudo reboot");
	s = wfix_farewell(fx);
	ok(s != NULL && strstr(s, "still to run") != NULL,
	    "nothing written: the install lines still to run");
	ok(s != NULL && strstr(s, "    sudo apt install nvidia-driver-580\n") !=
	    NULL && strstr(strstr(s, "nvidia-driver-580") + 1,
	    "nvidia-driver-580") == NULL, "a command wanted twice is listed once");
	ok(s != NULL && strstr(s, "    sudo reboot\n") >
	    strstr(s, "nvidia-driver-580"), "... the next finding's own after it");
	ok(s != NULL && strstr(s, "  ERROR ") != NULL &&
	    strstr(s, "  ERROR ") < strstr(s, "    sudo apt"),
	    "each finding's lines under its headline");
	ok(s != NULL && strstr(s, "LD_LIBRARY_PATH") == NULL,
	    "not the scriptable finding's line");
	ok(s != NULL && strstr(s, "wrote") == NULL, "no script named");
	free(s);

	fx->w_path = xstrdup("/home/u/cudawiz-env.sh");
	fx->w_fmt = SCRIPT_SH;
	fx->w_undo = xstrdup("cudawiz_deactivate_x");
	s = wfix_farewell(fx);
	ok(s != NULL && strstr(s, "wrote /home/u/cudawiz-env.sh\n") != NULL,
	    "the absolute path written");
	ok(s != NULL && strstr(s, "activate:") != NULL &&
	    strstr(s, ". /home/u/cudawiz-env.sh\n") != NULL, "the activate line");
	ok(s != NULL && strstr(s, "undo:") != NULL &&
	    strstr(s, "cudawiz_deactivate_x") != NULL, "the undo line");
	ok(s != NULL && strstr(s, "still to run") > strstr(s, "undo:"),
	    "then what is still to run");
	free(s);

	ok(wfix_scriptable(FINDING_CUDA_HOME_MISMATCH) &&
	    !wfix_scriptable(FINDING_DRIVER_TOO_OLD) &&
	    !wfix_scriptable(FINDING_FRAMEWORK_CPU_ONLY),
	    "a script fixes paths, not drivers or packages");

	wfix_free(fx);
	findings_free(&r.findings);
	return done_testing();
}
