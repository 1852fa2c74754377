# The broken fixture of the HTML report's tests. Source after fixture.sh.
#
#   fx_html_broken DIR      a new tree: a Git LFS pointer first on
#                           LD_LIBRARY_PATH (BROKEN_LIBRARY, with fixes), a
#                           toolkit without a driver, and DIR (a name to
#                           escape, or a long one) on LD_LIBRARY_PATH and in
#                           CUDA_HOME; the variables in $fx_html_env
#   fx_html_pair WORDS      cudawiz WORDS --json into $FX.json and WORDS
#                           --format html into $FX.html (exit in FX_RC),
#                           with $fx_html_env; more words after --

fx_html_broken() {
	fx_new
	fx_toolkit 12.4.1
	fx_dir "$1"
	fx_file /opt/lfs/libcudart.so.12 "version https://git-lfs.github.com/spec/v1
oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
size 704288"
	fx_html_env="LD_LIBRARY_PATH=/opt/lfs:$1:/opt/gone CUDA_HOME=$1"
}

fx_html_pair() {
	fx_html_words=$1
	shift
	# shellcheck disable=SC2086
	fx_cmd_env "$fx_html_words --json" $fx_html_env "$@"
	cp "$FX_OUT" "$FX.json"
	# shellcheck disable=SC2086
	fx_cmd_env "$fx_html_words --format html" $fx_html_env "$@"
	cp "$FX_OUT" "$FX.html"
}
