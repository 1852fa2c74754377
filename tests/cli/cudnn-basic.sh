#!/bin/sh
# cuDNN probe: copies in toolkits, system directories, LD_LIBRARY_PATH and
# pip wheels; the version from the header and from the library names; the
# CUDA major it was built for.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_toolkit.sh"

# jq EXPR on the only cuDNN fact (fails when there is not exactly one).
cudnn() {
	jq -r "if (.facts.cudnn | length) == 1 then .facts.cudnn[0] | $1
	    else error(\"not one cudnn\") end" "$FX_OUT" 2>/dev/null
}

# --- cuDNN 9 unpacked into a CUDA 12.4 toolkit, with its header
fx_new
fx_toolkit 12.4.1
tk=/usr/local/cuda-12.4
lib=$tk/targets/x86_64-linux/lib
fx_cudnn $lib 9.1.0 split
fx_cudnn_header $tk/include/cudnn_version.h 9.1.0
fx_doctor
is "$(fx_jq '.facts.cudnn | length')" 1 "cuDNN 9 in a toolkit: one copy"
is "$(cudnn .lib_dir)" "$lib" "lib_dir is the real directory"
is "$(cudnn .where)" toolkit "where: toolkit"
is "$(cudnn .version)" 9.1.0 "version from cudnn_version.h"
is "$(cudnn .header)" "$tk/include/cudnn_version.h" "header used"
is "$(cudnn .sources.version)" "$tk/include/cudnn_version.h" "version source is the header"
is "$(cudnn .lib_version)" 9.1.0 "lib_version from the real file name"
is "$(cudnn .sources.lib_version)" "$lib/libcudnn.so.9.1.0" "lib_version source is the real file"
is "$(cudnn .soname)" libcudnn.so.9 "soname from the ELF file"
is "$(cudnn .cuda_major)" 12 "cuda_major from the toolkit's version"
is "$(cudnn .sources.cuda_major)" "$tk/version.json" "cuda_major source is the toolkit's version file"
is "$(cudnn '.libraries | join(",")')" \
    "libcudnn.so.9,libcudnn_adv.so.9,libcudnn_cnn.so.9,libcudnn_engines_precompiled.so.9,libcudnn_engines_runtime_compiled.so.9,libcudnn_graph.so.9,libcudnn_heuristic.so.9,libcudnn_ops.so.9" \
    "the eight cuDNN 9 libraries, sonames only"

# The same directory reached again (LD_LIBRARY_PATH through the lib64 link
# and /usr/local/cuda) is still one copy, and still the toolkit's.
fx_link cuda-12.4 /usr/local/cuda
FX_ENV="LD_LIBRARY_PATH=/usr/local/cuda/lib64:$lib/"
fx_doctor
is "$(fx_jq '.facts.cudnn | length')" 1 "reached three ways: one copy"
is "$(cudnn .where)" toolkit "and still the toolkit's"

# A toolkit built from wheels says the cuDNN wheel's CUDA major itself.
fx_new
t=/usr/local/cuda-13.0
fx_dir $t/dist-info/nvidia_cuda_runtime-13.0.96.dist-info
fx_dir $t/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info
fx_so $t/lib/libcudart.so.13 libcudart.so.13
fx_link lib $t/lib64
fx_cudnn $t/lib 9 split
fx_cudnn_header $t/include/cudnn_version_v9.h 9.19.0
fx_link cudnn_version_v9.h $t/include/cudnn_version.h
fx_doctor
is "$(cudnn .version)" 9.19.0 "cudnn_version.h -> cudnn_version_v9.h"
is "$(cudnn .header)" "$t/include/cudnn_version.h" "header is the path used, not the link target"
is "$(cudnn .lib_version)" 9 "lib_version is the soname major when the file says no more"
is "$(cudnn .cuda_major)" 13 "cuda_major from dist-info/nvidia_cudnn_cu13-*"
is "$(cudnn .sources.cuda_major)" "$t/dist-info/nvidia_cudnn_cu13-9.19.0.56.dist-info" \
    "cuda_major source names the dist-info"

# --- cuDNN 8 split libraries in the system directory, header in /usr/include
fx_new
fx_cudnn /usr/lib/x86_64-linux-gnu 8.9.7 split
fx_cudnn_header /usr/include/cudnn_version.h 8.9.7
fx_doctor
is "$(cudnn .lib_dir)" /usr/lib/x86_64-linux-gnu "cuDNN 8 in /usr/lib/x86_64-linux-gnu"
is "$(cudnn .where)" system "where: system"
is "$(cudnn .version)" 8.9.7 "version from /usr/include/cudnn_version.h"
is "$(cudnn .lib_version)" 8.9.7 "lib_version 8.9.7"
is "$(cudnn .soname)" libcudnn.so.8 "soname libcudnn.so.8"
is "$(cudnn '.libraries | length')" 7 "the seven cuDNN 8 libraries"
like "$(cudnn '.libraries | join(",")')" "libcudnn_cnn_infer.so.8" "including libcudnn_cnn_infer.so.8"
is "$(cudnn .cuda_major)" null "a system copy does not say its CUDA major"
like "$(cudnn .unknown.cuda_major)" "CUDA" "and says why"

# Debian's alternatives: the plain name links to a versioned header in the
# multiarch include directory.
fx_new
fx_cudnn /usr/lib/x86_64-linux-gnu 9.1.0
fx_cudnn_header /usr/include/x86_64-linux-gnu/cudnn_version_v9.h 9.1.0
fx_link /etc/alternatives/cudnn_version_h /usr/include/cudnn_version.h
fx_link /usr/include/x86_64-linux-gnu/cudnn_version_v9.h /etc/alternatives/cudnn_version_h
fx_doctor
is "$(cudnn .version)" 9.1.0 "Debian alternatives header"
is "$(cudnn .header)" /usr/include/cudnn_version.h "found under its plain name"
rm "$FX/usr/include/cudnn_version.h"
fx_doctor
is "$(cudnn .header)" /usr/include/x86_64-linux-gnu/cudnn_version_v9.h \
    "without the alternative, the versioned header"

# A header of another cuDNN is not this copy's version.
fx_new
fx_cudnn /usr/lib/x86_64-linux-gnu 9.1.0
fx_cudnn_header /usr/include/cudnn_version.h 8.9.7
fx_doctor
is "$(cudnn .version)" null "header 8.9.7 for libcudnn.so.9: no version"
like "$(cudnn .unknown.version)" "8\\.9\\.7" "the reason names the other header's version"
is "$(cudnn .lib_version)" 9.1.0 "lib_version still known"

# --- cuDNN 7: the macros are in cudnn.h
fx_new
t=/usr/local/cuda-10.0
fx_file $t/version.txt "CUDA Version 10.0.130"
fx_cudart $t/lib64 10.0.130
fx_cudnn $t/lib64 7.6.5
fx_file $t/include/cudnn.h "/* cudnn : Neural Networks Library */
#if !defined(CUDNN_H_)
#define CUDNN_H_

#define CUDNN_MAJOR 7
#define CUDNN_MINOR 6
#define CUDNN_PATCHLEVEL 5

#define CUDNN_VERSION (CUDNN_MAJOR * 1000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)
#endif"
fx_doctor
is "$(cudnn .version)" 7.6.5 "cuDNN 7 version from cudnn.h"
is "$(cudnn .header)" "$t/include/cudnn.h" "header is cudnn.h"
is "$(cudnn .soname)" libcudnn.so.7 "soname libcudnn.so.7"
is "$(cudnn '.libraries | join(",")')" libcudnn.so.7 "cuDNN 7 is one library"
is "$(cudnn .cuda_major)" 10 "cuda_major from the toolkit (version.txt)"

# --- a pip wheel: nvidia-cudnn-cu12 in a virtualenv
fx_new
sp=/home/u/venv/lib/python3.12/site-packages
fx_dir $sp/nvidia_cudnn_cu12-9.1.0.70.dist-info
fx_cudnn $sp/nvidia/cudnn/lib 9 split
fx_cudnn_header $sp/nvidia/cudnn/include/cudnn_version.h 9.1.0
fx_cudnn_header /usr/include/cudnn_version.h 9.8.0
FX_ENV="VIRTUAL_ENV=/home/u/venv"
fx_doctor
is "$(cudnn .lib_dir)" $sp/nvidia/cudnn/lib "pip cudnn found"
is "$(cudnn .where)" pip "where: pip"
is "$(cudnn .version)" 9.1.0 "version from the wheel's header, not /usr/include's"
is "$(cudnn .cuda_major)" 12 "cuda_major 12 from nvidia_cudnn_cu12 dist-info"
is "$(cudnn .sources.cuda_major)" "$sp/nvidia_cudnn_cu12-9.1.0.70.dist-info" \
    "cuda_major source names the dist-info"
is "$(cudnn .lib_version)" 9 "lib_version 9 (wheels ship only the soname file)"

# The wheel on LD_LIBRARY_PATH without the venv active: still a pip copy.
FX_ENV="LD_LIBRARY_PATH=$sp/nvidia/cudnn/lib"
fx_doctor
is "$(cudnn .where)" pip "a wheel's directory on LD_LIBRARY_PATH is where: pip"
is "$(cudnn .cuda_major)" 12 "with its cuda_major"

# --- LD_LIBRARY_PATH and ld.so.conf copies
fx_new
fx_cudnn /opt/cudnn-8.9/lib 8.9.2
fx_cudnn_header /opt/cudnn-8.9/include/cudnn_version.h 8.9.2
FX_ENV="LD_LIBRARY_PATH=::/nonexistent:/opt/cudnn-8.9/lib"
fx_doctor
is "$(cudnn .lib_dir)" /opt/cudnn-8.9/lib "an LD_LIBRARY_PATH copy"
is "$(cudnn .version)" 8.9.2 "its header from ../include"
is "$(cudnn .where)" system "where: system"

fx_new
fx_cudnn /opt/cudnn-8.9/lib 8.9.2
fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf"
fx_file /etc/ld.so.conf.d/cudnn.conf "/opt/cudnn-8.9/lib"
fx_doctor
if [ "$(fx_jq '.facts.env.ld_so_conf | length')" = 0 ]; then
	skip "an ld.so.conf copy" "the environment probe does not read ld.so.conf yet"
else
	is "$(cudnn .lib_dir)" /opt/cudnn-8.9/lib "an ld.so.conf copy"
fi

# --- several copies at once, each once
fx_new
fx_toolkit 12.4.1
fx_cudnn /usr/local/cuda-12.4/targets/x86_64-linux/lib 9.1.0
fx_cudnn /usr/lib/x86_64-linux-gnu 8.9.7
fx_cudnn /usr/lib64 9.19.0
fx_cudnn /home/u/venv/lib/python3.12/site-packages/nvidia/cudnn/lib 9
FX_ENV="VIRTUAL_ENV=/home/u/venv LD_LIBRARY_PATH=/usr/lib64:/usr/lib/x86_64-linux-gnu"
fx_doctor
is "$(fx_jq '.facts.cudnn | length')" 4 "four copies"
is "$(fx_jq '[.facts.cudnn[].where] | join(",")')" "toolkit,system,system,pip" \
    "toolkit copies first, wheels last"

# --- damaged copies: a note each, the run goes on
fx_new
printf 'not a library\n' > "$FX.garbage"
fx_dir /usr/lib/x86_64-linux-gnu
cp "$FX.garbage" "$FX/usr/lib/x86_64-linux-gnu/libcudnn.so.9.1.0"
rm -f "$FX.garbage"
fx_link libcudnn.so.9.1.0 /usr/lib/x86_64-linux-gnu/libcudnn.so.9
fx_link libcudnn.so.8.9.7 /usr/lib64/libcudnn.so.8
fx_file /usr/local/lib/cudnn_version.h "x"
fx_doctor
ok "damaged copies: valid JSON" fx_json_ok
like "$(fx_tk_note /usr/lib/x86_64-linux-gnu/libcudnn.so.9)" "not an ELF file" \
    "a libcudnn that is not ELF: a note"
is "$(fx_jq '.facts.cudnn[] | select(.lib_dir == "/usr/lib/x86_64-linux-gnu") | .soname')" \
    libcudnn.so.9 "and the soname from its name"
like "$(fx_tk_note /usr/lib64/libcudnn.so.8)" "cannot be followed" "a dangling libcudnn link: a note"
is "$(fx_jq '.facts.cudnn[] | select(.lib_dir == "/usr/lib64") | .unreadable.lib_version' | head -c 17)" \
    /usr/lib64/libcud "and lib_version unreadable, naming the path"

fx_new
fx_cudnn /usr/lib/x86_64-linux-gnu 9.1.0
fx_dir /usr/include
truncate -s 2G "$FX/usr/include/cudnn_version.h"
fx_doctor
like "$(fx_tk_note /usr/include/cudnn_version.h)" "larger than expected" "a 2 GB header: a note"
is "$(cudnn .lib_version)" 9.1.0 "and the copy is still reported"

# --- nothing anywhere
fx_new
fx_doctor
is "$(fx_jq '.facts.cudnn | length')" 0 "no cuDNN: an empty list"

done_testing
