/* cudnn mode: one libcudnn, with the libcudart given by --cudart for
 * device memory. Its version and the CUDA runtime it was built for
 * (neither needs a GPU), a handle (needs the driver and a GPU), and a
 * small convolution whose result is checked against the CPU.
 *
 * cuDNN 9's libcudnn.so.9 is a front that loads libcudnn_graph, _ops,
 * _cnn … from its own directory or LD_LIBRARY_PATH when first needed;
 * the parent sets LD_LIBRARY_PATH to the cuDNN directory so they load
 * as they would for a program, and a missing one shows up as the status
 * of the call that needed it. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper/helper.h"

struct dnnapi {
	cw_cudnnGetVersion_fn			cudnnGetVersion;
	cw_cudnnGetCudartVersion_fn		cudnnGetCudartVersion;
	cw_cudnnGetErrorString_fn		cudnnGetErrorString;
	cw_cudnnGetLastErrorString_fn		cudnnGetLastErrorString;
	cw_cudnnCreate_fn			cudnnCreate;
	cw_cudnnDestroy_fn			cudnnDestroy;
	cw_cudnnCreateTensorDescriptor_fn	cudnnCreateTensorDescriptor;
	cw_cudnnSetTensor4dDescriptor_fn	cudnnSetTensor4dDescriptor;
	cw_cudnnDestroyTensorDescriptor_fn	cudnnDestroyTensorDescriptor;
	cw_cudnnCreateFilterDescriptor_fn	cudnnCreateFilterDescriptor;
	cw_cudnnSetFilter4dDescriptor_fn	cudnnSetFilter4dDescriptor;
	cw_cudnnDestroyFilterDescriptor_fn	cudnnDestroyFilterDescriptor;
	cw_cudnnCreateConvolutionDescriptor_fn	cudnnCreateConvolutionDescriptor;
	cw_cudnnSetConvolution2dDescriptor_fn	cudnnSetConvolution2dDescriptor;
	cw_cudnnSetConvolutionMathType_fn	cudnnSetConvolutionMathType;
	cw_cudnnGetConvolution2dForwardOutputDim_fn
						cudnnGetConvolution2dForwardOutputDim;
	cw_cudnnDestroyConvolutionDescriptor_fn	cudnnDestroyConvolutionDescriptor;
	cw_cudnnGetConvolutionForwardWorkspaceSize_fn
						cudnnGetConvolutionForwardWorkspaceSize;
	cw_cudnnConvolutionForward_fn		cudnnConvolutionForward;
};

/* Every cuDNN since 7 has the legacy convolution API; the version
 * functions and cudnnGetLastErrorString (cuDNN 9) are extras. */
#define S(field, req) SYM(struct dnnapi, field, req, #field)
static const struct symspec dnn_syms[] = {
	S(cudnnGetVersion, true),
	S(cudnnGetCudartVersion, false),
	S(cudnnGetErrorString, true),
	S(cudnnGetLastErrorString, false),
	S(cudnnCreate, true),
	S(cudnnDestroy, true),
	S(cudnnCreateTensorDescriptor, true),
	S(cudnnSetTensor4dDescriptor, true),
	S(cudnnDestroyTensorDescriptor, true),
	S(cudnnCreateFilterDescriptor, true),
	S(cudnnSetFilter4dDescriptor, true),
	S(cudnnDestroyFilterDescriptor, true),
	S(cudnnCreateConvolutionDescriptor, true),
	S(cudnnSetConvolution2dDescriptor, true),
	S(cudnnSetConvolutionMathType, false),
	S(cudnnGetConvolution2dForwardOutputDim, true),
	S(cudnnDestroyConvolutionDescriptor, true),
	S(cudnnGetConvolutionForwardWorkspaceSize, true),
	S(cudnnConvolutionForward, true),
};
#undef S

static struct dnnapi dnn;

/* cudnnGetErrorString gives the status's name ("CUDNN_STATUS_…"); the
 * table answers when it gives something else. */
static const char *
dnn_name(cw_cudnnStatus st)
{
	const char *s = dnn.cudnnGetErrorString(st);

	if (s != NULL && strncmp(s, "CUDNN_STATUS_", 13) == 0)
		return s;
	return cw_cudnnstatus_name(st);
}

static void
dnn_error(struct rec *r, cw_cudnnStatus st, const char *call)
{
	char msg[1024];

	msg[0] = '\0';
	/* cuDNN 9 keeps the reason of the last failure in words. */
	if (dnn.cudnnGetLastErrorString != NULL) {
		step("cudnnGetLastErrorString", -1);
		dnn.cudnnGetLastErrorString(msg, sizeof msg);
		msg[sizeof msg - 1] = '\0';
	}
	rec_error(r, st, dnn_name(st), msg[0] != '\0' ? msg : NULL, call);
}

/* The first failure of the convolution: a cuDNN status or a runtime
 * error, and the call. */
struct convfail {
	bool cuda;
	unsigned int code;
	const char *call;
};

#define N	1
#define C	2
#define H	6
#define W	6
#define K	3
#define R	3
#define SZ	3

/* The reference: cuDNN's CROSS_CORRELATION with padding 1, stride 1. */
static void
conv_cpu(const float *x, const float *w, float *y)
{
	for (int k = 0; k < K; k++)
		for (int i = 0; i < H; i++)
			for (int j = 0; j < W; j++) {
				float s = 0;

				for (int c = 0; c < C; c++)
					for (int p = 0; p < R; p++)
						for (int q = 0; q < SZ; q++) {
							int ii = i + p - 1, jj = j + q - 1;

							if (ii < 0 || ii >= H || jj < 0 || jj >= W)
								continue;
							s += x[(c * H + ii) * W + jj] *
							    w[((k * C + c) * R + p) * SZ + q];
						}
				y[(k * H + i) * W + j] = s;
			}
}

static void
convolution(const struct rtapi *rt, cw_cudnnHandle handle)
{
	float x[N * C * H * W], w[K * C * R * SZ], y[N * K * H * W],
	    want[N * K * H * W], alpha = 1, beta = 0, max_err = 0;
	cw_cudnnTensorDescriptor xd = NULL, yd = NULL;
	cw_cudnnFilterDescriptor wd = NULL;
	cw_cudnnConvolutionDescriptor cd = NULL;
	void *dx = NULL, *dw = NULL, *dy = NULL, *ws = NULL;
	struct convfail f = { false, 0, NULL };
	int on = 0, oc = 0, oh = 0, ow = 0;
	size_t ws_bytes = 0;
	double ms = NAN;
	bool ok;
	struct rec r;

#define DNN(fn, ...) (step(#fn, -1), f.code == 0 ? \
	((f.code = dnn.fn(__VA_ARGS__)) == 0 ? true : (f.call = #fn, false)) : \
	false)
#define CUDA(fn, ...) (step(#fn, -1), f.code == 0 ? \
	((f.code = rt->fn(__VA_ARGS__)) == 0 ? true : \
	(f.call = #fn, f.cuda = true, false)) : false)

	/* Multiples of 1/8 and 1/4 with few bits: every product and sum is
	 * exact in float, and in TF32 too, whatever order cuDNN adds in. */
	for (size_t i = 0; i < sizeof x / sizeof *x; i++)
		x[i] = (float)((int)(i * 7 % 13) - 6) * 0.125f;
	for (size_t i = 0; i < sizeof w / sizeof *w; i++)
		w[i] = (float)((int)(i * 5 % 11) - 5) * 0.25f;
	conv_cpu(x, w, want);
	memset(y, 0, sizeof y);

	ok = DNN(cudnnCreateTensorDescriptor, &xd) &&
	    DNN(cudnnCreateTensorDescriptor, &yd) &&
	    DNN(cudnnCreateFilterDescriptor, &wd) &&
	    DNN(cudnnCreateConvolutionDescriptor, &cd) &&
	    DNN(cudnnSetTensor4dDescriptor, xd, CW_CUDNN_TENSOR_NCHW,
		CW_CUDNN_DATA_FLOAT, N, C, H, W) &&
	    DNN(cudnnSetFilter4dDescriptor, wd, CW_CUDNN_DATA_FLOAT,
		CW_CUDNN_TENSOR_NCHW, K, C, R, SZ) &&
	    DNN(cudnnSetConvolution2dDescriptor, cd, 1, 1, 1, 1, 1, 1,
		CW_CUDNN_CROSS_CORRELATION, CW_CUDNN_DATA_FLOAT) &&
	    DNN(cudnnGetConvolution2dForwardOutputDim, cd, xd, wd, &on, &oc,
		&oh, &ow);
	if (ok && (on != N || oc != K || oh != H || ow != W)) {
		skipf("convolution", -1, "cuDNN computes an output of %dx%dx%dx%d "
		    "for a %dx%dx%dx%d one", on, oc, oh, ow, N, K, H, W);
		helper_fail();
		goto out;
	}
	/* The default math, the path most programs take; the reference is
	 * exact in TF32 as well, so tensor cores cannot spoil it. */
	if (ok && dnn.cudnnSetConvolutionMathType != NULL)
		ok = DNN(cudnnSetConvolutionMathType, cd, CW_CUDNN_DEFAULT_MATH);
	ok = ok && DNN(cudnnSetTensor4dDescriptor, yd, CW_CUDNN_TENSOR_NCHW,
	    CW_CUDNN_DATA_FLOAT, N, K, H, W) &&
	    DNN(cudnnGetConvolutionForwardWorkspaceSize, handle, xd, wd, cd, yd,
		CW_CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &ws_bytes) &&
	    CUDA(cudaMalloc, &dx, sizeof x) && CUDA(cudaMalloc, &dw, sizeof w) &&
	    CUDA(cudaMalloc, &dy, sizeof y) &&
	    (ws_bytes == 0 || CUDA(cudaMalloc, &ws, ws_bytes)) &&
	    CUDA(cudaMemcpy, dx, x, sizeof x, CW_cudaMemcpyHostToDevice) &&
	    CUDA(cudaMemcpy, dw, w, sizeof w, CW_cudaMemcpyHostToDevice) &&
	    CUDA(cudaMemcpy, dy, y, sizeof y, CW_cudaMemcpyHostToDevice);
	if (ok) {
		double t0 = now_ms();

		ok = DNN(cudnnConvolutionForward, handle, &alpha, xd, dx, wd, dw,
		    cd, CW_CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, ws, ws_bytes,
		    &beta, yd, dy) && (rt->cudaDeviceSynchronize == NULL ||
		    CUDA(cudaDeviceSynchronize));
		ms = now_ms() - t0;
	}
	ok = ok && CUDA(cudaMemcpy, y, dy, sizeof y, CW_cudaMemcpyDeviceToHost);
	for (size_t i = 0; ok && i < sizeof y / sizeof *y; i++) {
		float e = fabsf(y[i] - want[i]);

		if (!(e <= max_err))
			max_err = isnan(e) ? INFINITY : e;
	}
	rec_open(&r, "convolution");
	rec_bool(&r, "ok", ok && max_err <= 1e-3f);
	if (f.code != 0 && f.cuda)
		rt_error(rt, &r, f.code, f.call);
	else if (f.code != 0)
		dnn_error(&r, f.code, f.call);
	rec_num(&r, "max_error", ok ? max_err : NAN);
	rec_num(&r, "ms", ms);
	rec_uint(&r, "workspace_bytes", ws_bytes);
	rec_emit(&r);
	if (!ok || max_err > 1e-3f)
		helper_fail();
out:
	/* Cleanup is not checked: a failure above is the news. */
	step("cudaFree", -1);
	if (dx != NULL)
		rt->cudaFree(dx);
	if (dw != NULL)
		rt->cudaFree(dw);
	if (dy != NULL)
		rt->cudaFree(dy);
	if (ws != NULL)
		rt->cudaFree(ws);
	step("cudnnDestroyTensorDescriptor", -1);
	if (xd != NULL)
		dnn.cudnnDestroyTensorDescriptor(xd);
	if (yd != NULL)
		dnn.cudnnDestroyTensorDescriptor(yd);
	if (wd != NULL)
		dnn.cudnnDestroyFilterDescriptor(wd);
	if (cd != NULL)
		dnn.cudnnDestroyConvolutionDescriptor(cd);
#undef DNN
#undef CUDA
}

void
mode_cudnn(const struct helper_opts *o)
{
	struct rtapi rt;
	bool have_rt = false;
	cw_cudnnHandle handle = NULL;
	cw_cudnnStatus st;
	void *h;
	struct rec r;

	if (o->lib == NULL) {
		skip("cudnn_version", -1, "no library given (--lib)");
		helper_fail();
		return;
	}
	/* cudart first, as a program links it: cuDNN itself never needs
	 * it, the convolution's memory does. */
	if (o->cudart != NULL && (h = load_lib(o->cudart)) != NULL)
		have_rt = rt_bind(h, o->cudart, &rt);
	if ((h = load_lib(o->lib)) == NULL) {
		skip("cudnn_version", -1, "the library did not load");
		return;
	}
	if (!bind_symbols(h, o->lib, dnn_syms,
	    sizeof dnn_syms / sizeof *dnn_syms, &dnn)) {
		skip("cudnn_version", -1, "required functions are missing");
		return;
	}
	rec_open(&r, "cudnn_version");
	step("cudnnGetVersion", -1);
	rec_uint(&r, "version", dnn.cudnnGetVersion());
	if (dnn.cudnnGetCudartVersion != NULL) {
		step("cudnnGetCudartVersion", -1);
		rec_uint(&r, "cudart_version", dnn.cudnnGetCudartVersion());
	} else
		rec_null(&r, "cudart_version");
	rec_emit(&r);

	step("cudnnCreate", -1);
	st = dnn.cudnnCreate(&handle);
	rec_open(&r, "cudnn_create");
	rec_bool(&r, "ok", st == CW_CUDNN_STATUS_SUCCESS);
	if (st != CW_CUDNN_STATUS_SUCCESS)
		dnn_error(&r, st, "cudnnCreate");
	rec_emit(&r);
	if (st != CW_CUDNN_STATUS_SUCCESS) {
		const char *name = dnn_name(st);

		helper_fail();
		if (name != NULL)
			skipf("convolution", -1, "cudnnCreate failed: %s", name);
		else
			skipf("convolution", -1, "cudnnCreate failed: status %u",
			    st);
		return;
	}
	if (!have_rt)
		skip("convolution", -1, o->cudart == NULL ?
		    "no CUDA runtime was given for device memory (--cudart)" :
		    "the CUDA runtime given (--cudart) is not usable");
	else
		convolution(&rt, handle);
	step("cudnnDestroy", -1);
	dnn.cudnnDestroy(handle);
}
