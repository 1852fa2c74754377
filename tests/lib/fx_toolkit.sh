# Fixture helpers for the toolkit and cuDNN tests. Source after fixture.sh.
#
#   fx_cudart DIR VERSION         libcudart.so.VERSION in DIR with its soname
#                                 link (libcudart.so.11.0 for 11.x)
#   fx_cudnn DIR VERSION [split]  libcudnn.so.VERSION with its soname link;
#                                 with "split", the other libraries of that
#                                 major (8: ops/cnn/adv infer+train, 9: graph …)
#   fx_cudnn_header PATH VERSION  a header declaring CUDNN_MAJOR/MINOR/PATCHLEVEL
#   fx_tk_json EXPR               jq EXPR on the only toolkit (fails when not one)
#   fx_tk_note PATH               the problems noted for PATH, one per line
#   fx_json_ok                    the last doctor run printed valid JSON

fx_cudart_soname() {	# VERSION
	case $1 in
	[0-9].* | 10.*) printf 'libcudart.so.%s\n' "$(printf '%s' "$1" | cut -d. -f1,2)" ;;
	11.*) printf 'libcudart.so.11.0\n' ;;
	*) printf 'libcudart.so.%s\n' "${1%%.*}" ;;
	esac
}

fx_cudart() {
	fx_cudart_so=$(fx_cudart_soname "$2")
	fx_so "$1/libcudart.so.$2" "$fx_cudart_so" || return 1
	[ "libcudart.so.$2" = "$fx_cudart_so" ] ||
		fx_link "libcudart.so.$2" "$1/$fx_cudart_so"
}

fx_cudnn() {
	fx_cudnn_major=${2%%.*}
	fx_cudnn_libs=libcudnn
	if [ "${3:-}" = split ]; then
		case $fx_cudnn_major in
		8) fx_cudnn_libs="$fx_cudnn_libs libcudnn_ops_infer libcudnn_ops_train
		    libcudnn_cnn_infer libcudnn_cnn_train libcudnn_adv_infer
		    libcudnn_adv_train" ;;
		*) fx_cudnn_libs="$fx_cudnn_libs libcudnn_graph libcudnn_ops
		    libcudnn_cnn libcudnn_adv libcudnn_engines_precompiled
		    libcudnn_engines_runtime_compiled libcudnn_heuristic" ;;
		esac
	fi
	for fx_l in $fx_cudnn_libs; do
		fx_so "$1/$fx_l.so.$2" "$fx_l.so.$fx_cudnn_major" || return 1
		# A bare major ("9") is how wheels ship it: no link to make.
		[ "$2" = "$fx_cudnn_major" ] ||
			fx_link "$fx_l.so.$2" "$1/$fx_l.so.$fx_cudnn_major"
		fx_link "$fx_l.so.$fx_cudnn_major" "$1/$fx_l.so"
	done
}

fx_cudnn_header() {
	fx_file "$1" <<EOF
/* cudnn_version.h, as NVIDIA writes it. */
#ifndef CUDNN_VERSION_H_
#define CUDNN_VERSION_H_

#define CUDNN_MAJOR $(printf '%s' "$2" | cut -d. -f1)
#define CUDNN_MINOR $(printf '%s' "$2" | cut -d. -f2)
#define CUDNN_PATCHLEVEL $(printf '%s' "$2" | cut -d. -f3)

#define CUDNN_VERSION (CUDNN_MAJOR * 10000 + CUDNN_MINOR * 100 + CUDNN_PATCHLEVEL)

#endif /* CUDNN_VERSION_H */
EOF
}

fx_tk_json() {
	jq -r "if (.facts.toolkits | length) == 1 then .facts.toolkits[0] | $1
	    else error(\"not one toolkit\") end" "$FX_OUT" 2>/dev/null
}

fx_tk_note() {
	jq -r --arg p "$1" '.facts.notes[] | select(.path == $p) | .problem' \
	    "$FX_OUT" 2>/dev/null
}

# The last doctor run printed valid JSON (quietly, for ok).
fx_json_ok() {
	jq -e . "$FX_OUT" > /dev/null 2>&1
}
