/* spec/specdiff.c: families from item names, the items of a spec
 * document, and the item-by-item difference doctor --baseline and fleet
 * report. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lib/tap.h"
#include "spec/specdiff.h"

struct seen {
	char	text[512];
	size_t	n;
};

static void
note(const struct spec_delta *d, void *arg)
{
	struct seen *s = arg;
	size_t len = strlen(s->text);

	snprintf(s->text + len, sizeof s->text - len, "%s%d:%s=%s>%s",
	    s->n++ ? ";" : "", (int)d->family, d->key,
	    d->ref != NULL ? d->ref : "-", d->mine != NULL ? d->mine : "-");
}

int
main(void)
{
	json_error_t e;
	json_t *a = json_loads("{\"schema\":\"cudawiz/spec/1\",\"items\":{"
	    "\"driver.branch\":\"580\",\"toolkit.versions\":\"12.4.1 13.0.1\","
	    "\"env.CUDA_HOME\":\"/usr/local/cuda\",\"cudnn.versions\":\"9.13.0\"}}",
	    0, &e);
	json_t *b = json_loads("{\"items\":{\"driver.branch\":\"570\","
	    "\"toolkit.versions\":\"12.4.1 13.0.1\",\"cudnn.versions\":\"9.13.0\","
	    "\"framework./home/u/venv.torch\":\"2.3.1\"}}", 0, &e);
	json_t *bad = json_loads("{\"items\":{\"driver.branch\":580}}", 0, &e);
	json_t *none = json_loads("{\"host\":{}}", 0, &e);
	struct seen s = { "", 0 };

	is_int(spec_key_family("driver.branch"), SPEC_DRIVER, "driver.* is the driver");
	is_int(spec_key_family("gpu.names"), SPEC_GPU, "gpu.*");
	is_int(spec_key_family("toolkit"), SPEC_TOOLKIT, "a family with no dot");
	is_int(spec_key_family("framework./a.b/c.torch"), SPEC_FRAMEWORK,
	    "dots after the first belong to the rest");
	is_int(spec_key_family("drivers.x"), SPEC_OTHER, "a longer word is no family");
	is_int(spec_key_family(""), SPEC_OTHER, "an empty name");

	ok(spec_items(a) != NULL, "a spec's items");
	ok(spec_items(bad) == NULL, "an item that is not a string: not a spec");
	ok(spec_items(none) == NULL, "no items object: not a spec");
	ok(spec_items(NULL) == NULL, "nothing: not a spec");

	is_int(spec_diff(spec_items(a), spec_items(a), note, &s), 0,
	    "a spec does not differ from itself");
	is_int(spec_diff(spec_items(a), spec_items(b), note, &s), 3,
	    "three items differ");
	is_str(s.text, "0:driver.branch=580>570;5:env.CUDA_HOME=/usr/local/cuda>-;"
	    "4:framework./home/u/venv.torch=->2.3.1",
	    "in key order, absent sides as NULL, each with its family");
	is_int(spec_diff(spec_items(b), spec_items(a), NULL, NULL), 3,
	    "counted the other way round, without a callback");

	json_decref(a);
	json_decref(b);
	json_decref(bad);
	json_decref(none);
	return done_testing();
}
