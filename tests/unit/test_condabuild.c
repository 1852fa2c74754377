/* conda build strings and depends pins read as the CUDA a build is for
 * (issue 19, point 4): each channel's form, and what must not be read as
 * CUDA ("120" is 12.0, never CUDA 120). */
#include "config.h"

#include "lib/tap.h"
#include "probe/condabuild.h"

static const char *const kinds[] = { "unknown", "cpu", "gpu", "cuda" };

static void
build(const char *b, const char *kind, const char *cuda, const char *cudnn)
{
	struct conda_build cb;

	conda_build_parse(b, &cb);
	is_str(kinds[cb.kind], kind, "%s: %s", b, kind);
	is_str(cb.cuda, cuda, "%s: CUDA '%s'", b, cuda);
	is_str(cb.cudnn, cudnn, "%s: cuDNN '%s'", b, cudnn);
}

static void
dep(const char *spec, const char *name, const char *want)
{
	char out[32];
	bool got = conda_dep_floor(spec, name, out, sizeof out);

	if (want == NULL)
		ok(!got, "%s (%s): no floor", spec, name);
	else
		is_str(got ? out : "(none)", want, "%s (%s): %s", spec, name,
		    want);
}

int
main(void)
{
	is_int(sizeof kinds / sizeof *kinds, CB_CUDA + 1, "a name for each kind");
	/* The pytorch channel. */
	build("py3.10_cuda12.1_cudnn8.9.2_0", "cuda", "12.1", "8.9.2");
	build("py3.9_cuda11.8_cudnn8.7.0_0", "cuda", "11.8", "8.7.0");
	build("py3.9_cpu_0", "cpu", "", "");
	/* conda-forge's torch, jaxlib, TensorFlow. */
	build("cuda120_py311h8f5c3a8_300", "cuda", "12.0", "");
	build("cuda126_mkl_py312h1b2c3d4_300", "cuda", "12.6", "");
	build("cpu_generic_py311h1b2c3d4_0", "cpu", "", "");
	build("cpu_mkl_py311h1b2c3d4_100", "cpu", "", "");
	build("cuda120py312h6a2e3e1_200", "cuda", "12.0", "");
	build("cuda118py39h9e1ad7b_0", "cuda", "11.8", "");
	build("cuda112py310he2d1aa4_0", "cuda", "11.2", "");
	build("cuda12py311h1234567_0", "cuda", "12", "");
	build("cuda92py36h1234567_0", "cuda", "9.2", "");
	/* conda-forge's onnxruntime: a device suffix, no release. */
	build("py312h2a9ebd7_200_cuda", "gpu", "", "");
	build("py312h2a9ebd7_200_cpu", "cpu", "", "");
	/* defaults. */
	build("gpu_py39h1234567_0", "gpu", "", "");
	build("mkl_py39h1234567_0", "cpu", "", "");
	build("eigen_py39h1234567_0", "cpu", "", "");
	/* Nothing said: cupy's and most packages' strings. */
	build("py311h7cdbb2b_3", "unknown", "", "");
	build("h12345_0_cpython", "unknown", "", "");
	build("0", "unknown", "", "");
	build("cudatoolkit", "unknown", "", "");
	build("cuda1234py3", "unknown", "", "");
	build("", "unknown", "", "");

	dep("cuda-version >=12.0,<13", "cuda-version", "12.0");
	dep("cuda-version >=11.2,<12.0a0", "cuda-version", "11.2");
	dep("cuda-version 11.8.*", "cuda-version", "11.8");
	dep("cudatoolkit 11.8|11.8.*", "cudatoolkit", "11.8");
	dep("cudatoolkit >=11.2,<12", "cudatoolkit", "11.2");
	dep("cudnn >=8.8.0.121,<9.0a0", "cudnn", "8.8.0.121");
	dep("cudnn 8.9.2.26 cuda12_0", "cudnn", "8.9.2.26");
	dep("cudnn <9", "cudnn", NULL);
	dep("cudnn", "cudnn", NULL);
	dep("cudnn-jit >=9", "cudnn", NULL);
	dep("libcudnn >=9", "cudnn", NULL);
	dep("cuda-version ==12.4", "cuda-version", "12.4");
	dep("cuda-version >=12.x", "cuda-version", NULL);
	return done_testing();
}
