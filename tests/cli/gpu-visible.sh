#!/bin/sh
# NO_VISIBLE_DEVICES end to end: CUDA_VISIBLE_DEVICES from the process
# environment against a tree with two GPUs whose UUIDs the driver reports.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_gpu.sh"

UUID0=GPU-5b5a8f0e-3c2d-4b1a-9e8f-7d6c5b4a3f21
UUID1=GPU-0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5

fx_new
fx_healthy_gpu
fx_gpu 0000:02:00.0 2330 nvidia 030200
fx_nv_info 0000:01:00.0 "NVIDIA H100 80GB HBM3" $UUID0
fx_nv_info 0000:02:00.0 "NVIDIA H100 80GB HBM3" $UUID1

# visible DESCRIPTION EXPECTED_SEVERITY|none [VALUE]: with VALUE set (or
# unset when there is no third argument), the finding's severity.
visible() {
	if [ $# -ge 3 ]; then
		# fx_doctor splits FX_ENV into words, so an empty value
		# goes through env(1) directly.
		env -i LC_ALL=C ${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} \
		    ${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} \
		    CUDA_VISIBLE_DEVICES="$3" "$CUDAWIZ" doctor --json --root "$FX" \
		    > "$FX_OUT" 2> "$FX.stderr"
		FX_RC=$?
	else
		FX_ENV=
		fx_doctor
	fi
	got=$(fx_code_field NO_VISIBLE_DEVICES .severity)
	is "${got:-none}" "$2" "$1"
}

fx_doctor
is "$(fx_jq '.facts.gpus | length')" 2 "the tree has two GPUs"
is "$(fx_jq '[.facts.gpus[].uuid] | join(" ")')" "$UUID0 $UUID1" "with their UUIDs"

visible "unset: every GPU visible" none
visible "empty: hides every GPU" error ""
is "$FX_RC" 1 "an empty value exits 1"
visible "-1: hides every GPU" error "-1"
visible "0: a choice of one GPU, no finding" none "0"
visible "1,0: both, in another order" none "1,0"
visible "0,7 with two GPUs: 7 and after are ignored" warning "0,7"
is "$FX_RC" 0 "a warning alone exits 0"
like "$(fx_code_field NO_VISIBLE_DEVICES .detail)" 'entry 2 \(7\) is past the last GPU.*only 1 GPU remains visible' \
    "the warning names the ignored entry and what remains"
like "$(fx_code_field NO_VISIBLE_DEVICES .fix)" '^export CUDA_VISIBLE_DEVICES=0$' \
    "the fix keeps the valid entries"
visible "7: no GPU has index 7" error "7"
like "$(fx_code_field NO_VISIBLE_DEVICES .detail)" 'hides every GPU' "the detail says every GPU is hidden"
fix=$(fx_code_field NO_VISIBLE_DEVICES .fix)
like "$fix" '^unset CUDA_VISIBLE_DEVICES$' "the fix unsets it"
like "$fix" '^export CUDA_VISIBLE_DEVICES=0,1$' "or lists both GPUs"
like "$(fx_code_field NO_VISIBLE_DEVICES .evidence)" '^2 NVIDIA GPUs bound to the nvidia driver$' \
    "evidence gives the GPU count"
visible "a matching GPU UUID" none "$UUID1"
visible "a matching UUID prefix" none "GPU-0c1d2e3f"
visible "a UUID that matches no GPU" error "GPU-deadbeef-0000-0000-0000-000000000000"
like "$(fx_code_field NO_VISIBLE_DEVICES .evidence)" "0000:01:00.0: $UUID0" \
    "evidence lists the GPUs' UUIDs"
visible "an index, then an unknown UUID" warning "1,GPU-deadbeef"
visible "a repeated index" warning "0,0"
visible "a word" error "all"

# Inside WSL the bus shows no GPU: indexes cannot be judged.
fx_new
fx_kernel 5.15.153.1-microsoft-standard-WSL2
fx_file /dev/dxg ""
fx_so /usr/lib/wsl/lib/libcuda.so.1.1 libcuda.so.1
visible "WSL: index 3 cannot be judged" none "3"
visible "WSL: -1 still hides every GPU" error "-1"

done_testing
