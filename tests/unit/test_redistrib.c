/* NVIDIA redistrib manifests and their directory listings: the trimmed
 * real examples of compat-facts.md §8b/8c, every field wrong in turn, and
 * the merge into the embedded matrix. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lib/tap.h"
#include "matrix/matrix.h"
#include "matrix/redistrib.h"
#include "util/xalloc.h"

/* §8b, redistrib_12.4.1.json as stored in nixpkgs, trimmed. */
static const char cuda_12_4_1[] =
"{\n"
"    \"release_date\": \"2024-04-03\",\n"
"    \"release_label\": \"12.4.1\",\n"
"    \"release_product\": \"cuda\",\n"
"    \"cuda_cudart\": {\n"
"        \"name\": \"CUDA Runtime (cudart)\",\n"
"        \"license\": \"CUDA Toolkit\",\n"
"        \"license_path\": \"cuda_cudart/LICENSE.txt\",\n"
"        \"version\": \"12.4.127\",\n"
"        \"linux-x86_64\": {\n"
"            \"relative_path\": \"cuda_cudart/linux-x86_64/cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz\",\n"
"            \"sha256\": \"0483bff9a36e7a44465db3cd42874f6f70f019297dcf803fbefcbf58d7448c8f\",\n"
"            \"md5\": \"5c452d73cb03a42c1711f8655fa2fb8a\",\n"
"            \"size\": \"1099680\"\n"
"        },\n"
"        \"windows-x86_64\": {\n"
"            \"relative_path\": \"cuda_cudart/windows-x86_64/cuda_cudart-windows-x86_64-12.4.127-archive.zip\",\n"
"            \"sha256\": \"6a1c32e68ee1a95ca17334691ff9ad1ffe7f352c24a083d55e4c96b8063b2bcb\",\n"
"            \"md5\": \"9b8b0f24f6b0777ef3b0823f8a0ff2bb\",\n"
"            \"size\": \"2474721\"\n"
"        }\n"
"    },\n"
"    \"cuda_nvcc\": {\n"
"        \"name\": \"CUDA NVCC\",\n"
"        \"license\": \"CUDA Toolkit\",\n"
"        \"license_path\": \"cuda_nvcc/LICENSE.txt\",\n"
"        \"version\": \"12.4.131\",\n"
"        \"linux-x86_64\": {\n"
"            \"relative_path\": \"cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.4.131-archive.tar.xz\",\n"
"            \"sha256\": \"7ffba1ada0e4b8c17e451ac7a60d386aa2642ecd08d71202a0b100c98bd74681\",\n"
"            \"md5\": \"66486841dab183168d79684c74df1928\",\n"
"            \"size\": \"51184484\"\n"
"        }\n"
"    },\n"
"    \"nvidia_driver\": {\n"
"        \"name\": \"NVIDIA Linux Driver\",\n"
"        \"license\": \"NVIDIA Driver\",\n"
"        \"license_path\": \"nvidia_driver/LICENSE.txt\",\n"
"        \"version\": \"550.54.15\",\n"
"        \"linux-x86_64\": {\n"
"            \"relative_path\": \"nvidia_driver/linux-x86_64/nvidia_driver-linux-x86_64-550.54.15-archive.tar.xz\",\n"
"            \"sha256\": \"e1416ebc1e7b4a14d393ca584e3f9c5e22f9750f4ba502a8ba2c5c5ad943bbb5\",\n"
"            \"md5\": \"4c757f62a0aa0d7025bd290f0f62b1f2\",\n"
"            \"size\": \"352810260\"\n"
"        },\n"
"        \"linux-sbsa\": {\n"
"            \"relative_path\": \"nvidia_driver/linux-sbsa/nvidia_driver-linux-sbsa-550.54.15-archive.tar.xz\",\n"
"            \"sha256\": \"b39a8cb837fe3846284d89ab2202e93b14804349d3fc9aa8a8384fd2759ec2f5\",\n"
"            \"md5\": \"d5704afba3f1144108125cdb19718ce3\",\n"
"            \"size\": \"268726204\"\n"
"        }\n"
"    }\n"
"}\n";

/* §8c, redistrib_9.10.0.json, trimmed. */
static const char cudnn_9_10_0[] =
"{\n"
"    \"release_date\": \"2025-05-07\",\n"
"    \"release_label\": \"9.10.0\",\n"
"    \"release_product\": \"cudnn\",\n"
"    \"cudnn\": {\n"
"        \"name\": \"NVIDIA CUDA Deep Neural Network library\",\n"
"        \"license\": \"cudnn\",\n"
"        \"license_path\": \"cudnn/LICENSE.txt\",\n"
"        \"version\": \"9.10.0.56\",\n"
"        \"linux-x86_64\": {\n"
"            \"cuda11\": {\n"
"                \"relative_path\": \"cudnn/linux-x86_64/cudnn-linux-x86_64-9.10.0.56_cuda11-archive.tar.xz\",\n"
"                \"sha256\": \"a0579702b538378243795328c186bb37199618494b498f1b74a5b61304861733\",\n"
"                \"md5\": \"888d44ba1221dd688fa6f1e15ea1c186\",\n"
"                \"size\": \"524914444\"\n"
"            },\n"
"            \"cuda12\": {\n"
"                \"relative_path\": \"cudnn/linux-x86_64/cudnn-linux-x86_64-9.10.0.56_cuda12-archive.tar.xz\",\n"
"                \"sha256\": \"cc0ad9eaaf6ef6569b20250111f9df0569816c17076c58aad8aea1661e2fc781\",\n"
"                \"md5\": \"a854357768cad19d3c18dee59ee770e8\",\n"
"                \"size\": \"1003184568\"\n"
"            }\n"
"        },\n"
"        \"cuda_variant\": [\n"
"            \"11\",\n"
"            \"12\"\n"
"        ],\n"
"        \"linux-aarch64\": {\n"
"            \"cuda12\": {\n"
"                \"relative_path\": \"cudnn/linux-aarch64/cudnn-linux-aarch64-9.10.0.56_cuda12-archive.tar.xz\",\n"
"                \"sha256\": \"ba9aeffef24e18188e7f10206f8ffaff916406ae5ff47e6c27e768633333d2d0\",\n"
"                \"md5\": \"184e9fca299e9914554aebe7a22839a1\",\n"
"                \"size\": \"1056704652\"\n"
"            }\n"
"        }\n"
"    },\n"
"    \"cudnn_samples\": {\n"
"        \"name\": \"NVIDIA cuDNN samples\",\n"
"        \"license\": \"cudnn\",\n"
"        \"license_path\": \"cudnn_samples/LICENSE.txt\",\n"
"        \"version\": \"9.10.0.56\",\n"
"        \"source\": {\n"
"            \"relative_path\": \"cudnn_samples/source/cudnn_samples-source-9.10.0.56-archive.tar.xz\",\n"
"            \"sha256\": \"d9fd2bcddd6b7c9cfc1ab079d10864064ee97116192c532a8cee680b3be188be\",\n"
"            \"md5\": \"667c043ca4cf91d767c5512dbbaf0eac\",\n"
"            \"size\": \"1665144\"\n"
"        }\n"
"    }\n"
"}\n";

/* §8c, the older one-file-per-CUDA-major shape (8.9.7.29). */
static const char cudnn_8_9_7_29[] =
"{\n"
"    \"release_date\": \"2023-12-05\",\n"
"    \"release_label\": \"8.9.7.29\",\n"
"    \"release_product\": \"cudnn-v8-9-cuda-12\",\n"
"    \"cudnn\": {\n"
"        \"name\": \"NVIDIA CUDA Deep Neural Network library\",\n"
"        \"license\": \"cudnn\",\n"
"        \"license_path\": \"cudnn/LICENSE.txt\",\n"
"        \"version\": \"8.9.7.29\",\n"
"        \"linux-x86_64\": {\n"
"            \"relative_path\": \"cudnn/linux-x86_64/cudnn-linux-x86_64-8.9.7.29_cuda12-archive.tar.xz\",\n"
"            \"sha256\": \"475333625c7e42a7af3ca0b2f7506a106e30c93b1aa0081cd9c13efb6e21e3bb\",\n"
"            \"md5\": \"046e32d5ab0fdc56878e9b33f3a6883d\",\n"
"            \"size\": \"864984964\"\n"
"        }\n"
"    }\n"
"}\n";

/* A manifest that is wrong in one field, and the start of the error. */
struct bad {
	const char	*doc;
	const char	*err;
};

static const struct bad bad[] = {
	{ "not json", "not valid JSON" },
	{ "[1, 2]", "the document is not a JSON object" },
	{ "{\"release_label\": \"12.4.1\", \"release_label\": \"12.4.1\"}",
	    "not valid JSON" },
	{ "{\"release_product\": \"cuda\"}", "release_label: missing" },
	{ "{\"release_label\": 12.4}", "release_label: 12.4 is not a string" },
	{ "{\"release_label\": \"12.4; rm -rf ~\"}",
	    "release_label: \"12.4; rm -rf ~\" is not a version" },
	/* jansson refuses NUL in strings unless asked to. */
	{ "{\"release_label\": \"12.4.1\\u0000; rm\"}", "not valid JSON" },
	{ "{\"release_label\": \"12.4.1\", \"release_date\": \"2024-02-30\"}",
	    "release_date: \"2024-02-30\" is not a date" },
	{ "{\"release_label\": \"12.4.1\", \"release_product\": \"CUDA!\"}",
	    "release_product: \"CUDA!\" is not a product name" },
	{ "{\"release_label\": \"12.4.1\", \"release_product\": \"nccl\"}",
	    "release_product: \"nccl\" is neither cuda nor cudnn" },
	{ "{\"release_label\": \"12.4.1\"}", "release_product: missing" },
	{ "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\"}",
	    "cuda_cudart: missing" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": []}",
	    "cuda_cudart: [] is not an object" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {}}",
	    "cuda_cudart.version: missing" },
	{ "{\"release_label\": \"11.8.0\", \"cuda_cudart\": {\"version\": \"11.8; rm -rf ~\"}}",
	    "cuda_cudart.version: \"11.8; rm -rf ~\" is not a version" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {\"version\": \"11.8.89\"}}",
	    "cuda_cudart.version: \"11.8.89\" does not belong" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {\"version\": \"12.4.127\"}, "
	    "\"nvidia_driver\": \"550\"}", "nvidia_driver: \"550\" is not an object" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {\"version\": \"12.4.127\"}, "
	    "\"nvidia_driver\": {\"version\": \"550.54.15; reboot\"}}",
	    "nvidia_driver.version: \"550.54.15; reboot\" is not a driver version" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {\"version\": \"12.4.127\"}, "
	    "\"nvidia_driver\": {\"version\": \"55.1\"}}",
	    "nvidia_driver.version: \"55.1\" is not a driver version" },
	{ "{\"release_label\": \"12.4.1\", \"cuda_cudart\": {\"version\": \"12.4.127\"}, "
	    "\"nvidia_driver\": {\"version\": 550}}",
	    "nvidia_driver.version: 550 is not a string" },
	{ "{\"release_label\": \"9.10.0\", \"release_product\": \"cudnn\"}",
	    "cudnn: missing" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.1.0.70\", "
	    "\"cuda_variant\": [\"12\"]}}", "cudnn.version: \"9.1.0.70\" does not belong" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.10.0.56\", "
	    "\"cuda_variant\": [\"11\", \"x\"]}}",
	    "cudnn.cuda_variant[1]: \"x\" is not a CUDA major" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.10.0.56\", "
	    "\"cuda_variant\": [\"12; rm -rf ~\"]}}",
	    "cudnn.cuda_variant[0]: \"12; rm -rf ~\" is not a CUDA major" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.10.0.56\", "
	    "\"cuda_variant\": \"12\"}}",
	    "cudnn.cuda_variant: \"12\" is not a list of CUDA majors" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.10.0.56\", "
	    "\"cuda_variant\": []}}", "cudnn.cuda_variant: [] does not hold" },
	{ "{\"release_label\": \"9.10.0\", \"cudnn\": {\"version\": \"9.10.0.56\"}}",
	    "cudnn.cuda_variant: missing" },
};

static int
parse(const char *doc, struct redistrib *r, char **err)
{
	return redistrib_parse(doc, strlen(doc), r, err);
}

static void
test_cuda(void)
{
	struct redistrib r;
	char *err;

	ok(redistrib_parse(cuda_12_4_1, strlen(cuda_12_4_1), &r, &err) == 0,
	    "CUDA 12.4.1 manifest parses");
	is_int(r.kind, REDISTRIB_CUDA, "it is a CUDA manifest");
	is_str(r.label, "12.4.1", "release_label");
	is_str(r.date, "2024-04-03", "release_date");
	is_str(r.cudart, "12.4.127", "cuda_cudart.version");
	is_str(r.driver, "550.54.15", "nvidia_driver.version");
	redistrib_free(&r);

	/* 13.0.0's entries, and no release_product: inferred. */
	ok(parse("{\"release_label\": \"13.0.0\", \"release_date\": "
	    "\"2025-08-04\", \"cuda_cudart\": {\"version\": \"13.0.48\"}, "
	    "\"nvidia_driver\": {\"version\": \"580.65.06\"}}", &r, &err) == 0, "CUDA 13.0.0 without release_product parses");
	is_int(r.kind, REDISTRIB_CUDA, "inferred from cuda_cudart");
	is_str(r.driver, "580.65.06", "its driver");
	redistrib_free(&r);

	ok(parse("{\"release_label\": \"11.8.0\", \"release_product\": "
	    "\"cuda\", \"cuda_cudart\": {\"version\": \"11.8.89\"}}", &r, &err) == 0, "a CUDA manifest without nvidia_driver parses");
	ok(r.driver == NULL, "and has no driver");
	redistrib_free(&r);
}

static void
test_cudnn(void)
{
	struct redistrib r;
	char *err;

	ok(redistrib_parse(cudnn_9_10_0, strlen(cudnn_9_10_0), &r, &err) == 0,
	    "cuDNN 9.10.0 manifest parses");
	is_int(r.kind, REDISTRIB_CUDNN, "it is a cuDNN manifest");
	is_str(r.label, "9.10.0", "release_label");
	is_str(r.cudnn, "9.10.0.56", "cudnn.version");
	is_int(r.cuda_majors.n, 2, "two CUDA majors");
	is_str(r.cuda_majors.n > 1 ? r.cuda_majors.v[1] : NULL, "12",
	    "cuda_variant 11, 12");
	redistrib_free(&r);

	ok(redistrib_parse(cudnn_8_9_7_29, strlen(cudnn_8_9_7_29), &r, &err) == 0,
	    "cuDNN 8.9.7.29 (one file per CUDA major) parses");
	is_int(r.cuda_majors.n, 1, "one CUDA major");
	is_str(r.cuda_majors.n > 0 ? r.cuda_majors.v[0] : NULL, "12",
	    "taken from release_product cudnn-v8-9-cuda-12");
	redistrib_free(&r);

	ok(parse("{\"release_label\": \"9.0.0\", \"cudnn\": "
	    "{\"version\": \"9.0.0.312\", \"linux-x86_64\": {\"cuda12\": {}, "
	    "\"cuda11\": {}}, \"linux-aarch64\": {\"cuda12\": {}}}}", &r, &err) == 0, "cuDNN 9 without cuda_variant parses");
	is_int(r.cuda_majors.n, 2, "majors from the platform keys, once each");
	is_str(r.cuda_majors.n > 0 ? r.cuda_majors.v[0] : NULL, "11",
	    "in ascending order");
	redistrib_free(&r);
}

static void
test_bad(void)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct redistrib r;
		char *err = NULL;
		int rc;

		rc = redistrib_parse(bad[i].doc, strlen(bad[i].doc), &r, &err);
		if (!ok(rc == -1 && err != NULL &&
		    strncmp(err, bad[i].err, strlen(bad[i].err)) == 0,
		    "rejected: %s", bad[i].doc))
			printf("#   error: %s\n#   wanted: %s…\n",
			    err ? err : "(none)", bad[i].err);
		ok(r.label == NULL && r.driver == NULL && r.cuda_majors.n == 0,
		    "  and nothing is kept");
		free(err);
	}
}

static void
test_is_manifest(void)
{
	ok(redistrib_is_manifest(cuda_12_4_1, strlen(cuda_12_4_1)),
	    "a CUDA manifest is a manifest");
	ok(redistrib_is_manifest(cudnn_8_9_7_29, strlen(cudnn_8_9_7_29)),
	    "a cuDNN manifest is a manifest");
	ok(!redistrib_is_manifest("{\"schema\": \"cudawiz/matrix/1\"}", 30),
	    "a cudawiz matrix is not");
	ok(!redistrib_is_manifest("<html>", 6), "HTML is not");
}

static void
test_listing(void)
{
	static const char html[] =
	    "<html><head><title>Index of /compute/cuda/redist/</title></head>\n"
	    "<body><pre><a href=\"../\">../</a>\n"
	    "<a href=\"cuda_cudart/\">cuda_cudart/</a>\n"
	    "<a href=\"redistrib_12.4.1.json\">redistrib_12.4.1.json</a>  03-Apr-2024\n"
	    "<a href=\"redistrib_12.10.0.json\">redistrib_12.10.0.json</a>\n"
	    "<a href=\"redistrib_12.9.1.json\">redistrib_12.9.1.json</a>\n"
	    "<a href=\"redistrib_..json\">bad</a> redistrib_12.x.json redistrib_13\n"
	    "<a href=\"redistrib_1.2.3.4.5.json\">too many parts</a>\n"
	    "<a href=\"redistrib_9999999999.json\">too many digits</a>\n"
	    "redistrib_12.4.1.jso</pre></body></html>\n";
	struct strv names = STRV_INIT;
	size_t n;

	n = redistrib_listing(html, strlen(html), &names);
	is_int(n, 3, "three manifests in the listing, each once");
	is_str(n > 0 ? names.v[0] : NULL, "redistrib_12.10.0.json",
	    "newest first, by version, not by text");
	is_str(n > 2 ? names.v[2] : NULL, "redistrib_12.4.1.json", "oldest last");
	strv_free(&names);
	is_int(redistrib_listing("", 0, &names), 0, "an empty page names none");
	is_int(redistrib_listing("redistrib_", 10, &names), 0,
	    "a bare prefix at the end names none");
	/* The length given is what is read, not up to a NUL. */
	is_int(redistrib_listing("redistrib_1.0.json", 15, &names), 0,
	    "a name cut by the length is not read past it");
	strv_free(&names);
}

static void
test_apply(void)
{
	struct matrix *m = matrix_embedded(), *again;
	const struct matrix_cuda_release *cr;
	struct redistrib r;
	enum matrix_status st;
	char *err, *json;
	size_t n;
	static const char future_cuda[] = "{\"release_label\": \"13.9.0\", "
	    "\"release_product\": \"cuda\", \"cuda_cudart\": {\"version\": "
	    "\"13.9.21\"}, \"nvidia_driver\": {\"version\": \"620.10.01\"}}";
	static const char future_cudnn[] = "{\"release_label\": \"9.90.0\", "
	    "\"release_product\": \"cudnn\", \"cudnn\": {\"version\": "
	    "\"9.90.0.1\", \"cuda_variant\": [\"12\", \"13\"]}}";
	static const char no_driver[] = "{\"release_label\": \"13.9.1\", "
	    "\"cuda_cudart\": {\"version\": \"13.9.30\"}}";

	n = matrix_count(m, MATRIX_SEC_CUDA_RELEASES);
	ok(redistrib_parse(future_cuda, strlen(future_cuda), &r, &err) == 0,
	    "a future CUDA manifest parses");
	is_int(redistrib_apply(&r, m, &err), 1, "and is added");
	redistrib_free(&r);
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), n + 1, "one more release");
	cr = matrix_newest_cuda(m);
	is_str(cr ? cr->version : NULL, "13.9.0", "it is the newest CUDA");
	is_str(matrix_cuda_min_driver(m, "13.9.0", MATRIX_LINUX, &st), "620.10.01",
	    "with the manifest's driver");

	ok(redistrib_parse(cuda_12_4_1, strlen(cuda_12_4_1), &r, &err) == 0,
	    "12.4.1 parses");
	is_int(redistrib_apply(&r, m, &err), 1, "a known release is updated");
	redistrib_free(&r);
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), n + 1, "not added twice");

	ok(redistrib_parse(no_driver, strlen(no_driver), &r, &err) == 0,
	    "a manifest without a driver parses");
	is_int(redistrib_apply(&r, m, &err), 0, "but has nothing to add");
	redistrib_free(&r);
	is_int(matrix_count(m, MATRIX_SEC_CUDA_RELEASES), n + 1, "nothing added");

	ok(redistrib_parse(future_cudnn, strlen(future_cudnn), &r, &err) == 0,
	    "a future cuDNN manifest parses");
	is_int(redistrib_apply(&r, m, &err), 1, "and is added");
	redistrib_free(&r);
	is_str(matrix_newest_cudnn(m, &st), "9.90.0", "it is the newest cuDNN");
	is_int(matrix_cudnn_supports_cuda(m, "9.90.0", "13.0", &st), MATRIX_YES,
	    "for CUDA 13");

	json = matrix_to_json(m);
	again = matrix_parse(json, strlen(json), &err);
	ok(again != NULL, "the merged matrix validates again");
	if (again == NULL) {
		printf("#   %s\n", err);
		free(err);
	}
	matrix_free(again);
	free(json);
	matrix_free(m);
}

int
main(void)
{
	test_cuda();
	test_cudnn();
	test_bad();
	test_is_manifest();
	test_listing();
	test_apply();
	return done_testing();
}
