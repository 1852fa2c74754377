#!/bin/sh
# The environment probe and rules on search paths: empty entries in every
# spelling, set-but-empty values, missing directories, duplicates (textual
# and through symlinks), library directories on PATH, LD_PRELOAD, values
# with spaces and quotes, and a healthy environment with none of it.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"
. "$TESTS_SRCDIR/lib/fx_env.sh"

ENV_CODES='ENV_PATH_MISSING|EMPTY_PATH_ENTRY|DUPLICATE_PATH_ENTRY|LIBDIR_ON_PATH'

fx_new
fx_dir /a
fx_dir /b
fx_dir /usr/bin
fx_dir /bin
fx_dir /opt/cuda-12.4/lib64
fx_link cuda-12.4 /opt/cuda

# --- healthy
FX_ENV="LD_LIBRARY_PATH=/opt/cuda/lib64 PATH=/usr/bin:/bin CUDA_HOME=/opt/cuda"
fx_doctor
fx_ran_ok
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries[0].exists')" true \
    "an existing LD_LIBRARY_PATH entry exists"
is "$(fx_jq '.facts.env.PATH.entries | map(.exists) | join(",")')" "true,true" \
    "existing PATH entries exist"
is "$(fx_jq '.facts.env.CUDA_HOME.exists')" true "CUDA_HOME exists"
is "$(fx_jq '.facts.env.CUDA_VISIBLE_DEVICES.set')" false "an unset variable is unset"
unlike "$(fx_codes)" "$ENV_CODES" "a healthy environment gives no env finding"
is "$FX_RC" 0 "and exits 0"

# --- empty entries, every spelling glibc reads
for case in ':/a|1|export LD_LIBRARY_PATH=/a' \
    '/a:|2|export LD_LIBRARY_PATH=/a' \
    '/a::/b|2|export LD_LIBRARY_PATH=/a:/b' \
    '/a;;/b|2|export LD_LIBRARY_PATH=/a:/b' \
    ';/a;/b|1|export LD_LIBRARY_PATH=/a:/b' \
    '/a:;/b|2|export LD_LIBRARY_PATH=/a:/b'; do
	val=${case%%|*}
	rest=${case#*|}
	idx=${rest%%|*}
	fix=${rest#*|}
	FX_ENV="LD_LIBRARY_PATH=$val"
	fx_doctor
	is "$(fx_jq ".facts.env.LD_LIBRARY_PATH.entries[$idx - 1].empty")" true \
	    "LD_LIBRARY_PATH=$val: entry $idx is empty"
	has_code EMPTY_PATH_ENTRY "LD_LIBRARY_PATH=$val: EMPTY_PATH_ENTRY"
	is "$(fx_finding EMPTY_PATH_ENTRY '.fix[0]')" "$fix" \
	    "LD_LIBRARY_PATH=$val: the fix drops the empty entry"
done
FX_ENV="LD_LIBRARY_PATH=/a;/b"
fx_doctor
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries | map(.value) | join(",")')" \
    "/a,/b" "';' separates LD_LIBRARY_PATH entries, as in glibc"
lacks_code EMPTY_PATH_ENTRY "no empty entry in /a;/b"

FX_ENV="LD_LIBRARY_PATH=/a::/b"
fx_doctor
like "$(fx_finding EMPTY_PATH_ENTRY .detail)" "current directory" \
    "the detail says the current directory is searched"
like "$(fx_finding EMPTY_PATH_ENTRY '.evidence | join("\n")')" \
    'entry 2 is empty \(between /a and /b\)' "the evidence places the empty entry"
is "$(fx_finding EMPTY_PATH_ENTRY .severity)" warning "EMPTY_PATH_ENTRY is a warning"
like "$(fx_jq '.facts.notes | map(.problem) | join("\n")')" "not searched under --root" \
    "the library search notes that it skips the empty entry under --root"

# --- set but empty: glibc ignores it, the next prepend will not
fx_doctor_env LD_LIBRARY_PATH=
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.set')" true "LD_LIBRARY_PATH= is set"
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries | length')" 0 \
    "a set but empty LD_LIBRARY_PATH has no entries (glibc ignores it)"
has_code EMPTY_PATH_ENTRY "set but empty LD_LIBRARY_PATH: EMPTY_PATH_ENTRY"
is "$(fx_finding EMPTY_PATH_ENTRY .severity)" info "... as information"
like "$(fx_finding EMPTY_PATH_ENTRY .detail)" 'current directory' \
    "... explaining how it becomes the current directory"
is "$(fx_finding EMPTY_PATH_ENTRY '.fix[0]')" "unset LD_LIBRARY_PATH" "... fix: unset"

# --- PATH
fx_doctor_env PATH=/usr/bin:/bin:
has_code EMPTY_PATH_ENTRY "a trailing ':' on PATH: EMPTY_PATH_ENTRY"
like "$(fx_finding EMPTY_PATH_ENTRY '.evidence | join("\n")')" \
    'entry 3 is empty \(a trailing separator\)' "the evidence says trailing"
like "$(fx_finding EMPTY_PATH_ENTRY .detail)" 'current directory' \
    "PATH's detail says the current directory"
is "$(fx_finding EMPTY_PATH_ENTRY '.fix[0]')" "export PATH=/usr/bin:/bin" \
    "PATH's fix drops the empty entry"
fx_doctor_env PATH=
is "$(fx_jq '.facts.env.PATH.entries | length')" 1 "an empty PATH is one empty entry"
is "$(fx_finding EMPTY_PATH_ENTRY '.fix[0]')" \
    "export PATH=/usr/local/bin:/usr/bin:/bin" "an empty PATH gets the system default"

# --- missing directories
FX_ENV="LD_LIBRARY_PATH=/a:/gone/lib:/b PATH=/usr/bin:/nope CUDA_HOME=/usr/local/cuda-9.9 CUDA_PATH=/a"
fx_doctor
is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries[1].exists')" false "a missing entry does not exist"
like "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries[1].why')" 'No such file' \
    "a missing entry says why"
is "$(fx_jq '.facts.env.CUDA_HOME.exists')" false "a missing CUDA_HOME does not exist"
n=$(jq '[.findings[] | select(.code == "ENV_PATH_MISSING")] | length' "$FX_OUT")
is "$n" 3 "one ENV_PATH_MISSING each for LD_LIBRARY_PATH, PATH and CUDA_HOME"
is "$(jq -r '[.findings[] | select(.code == "ENV_PATH_MISSING") | .severity] | sort | join(",")' "$FX_OUT")" \
    "info,warning,warning" "PATH's is info, the others warnings"
is "$(jq -r '.findings[] | select(.code == "ENV_PATH_MISSING") | .fix[0]' "$FX_OUT" | sort | tr '\n' '|')" \
    "export LD_LIBRARY_PATH=/a:/b|export PATH=/usr/bin|unset CUDA_HOME|" \
    "the fixes drop the missing entries"
like "$(jq -r '.findings[] | select(.code == "ENV_PATH_MISSING") | .evidence[]' "$FX_OUT")" \
    '^/gone/lib \(entry 2\)' "the evidence names the missing entry"
like "$(jq -r '.findings[] | select(.code == "ENV_PATH_MISSING") | .evidence[]' "$FX_OUT")" \
    '^CUDA_HOME=/usr/local/cuda-9.9' "the evidence names the missing CUDA_HOME"
fx_doctor_env LD_LIBRARY_PATH=/gone
is "$(fx_finding ENV_PATH_MISSING '.fix[0]')" "unset LD_LIBRARY_PATH" \
    "nothing left: unset LD_LIBRARY_PATH"

# --- duplicates: the same text, a trailing slash, a symlink, a missing one
FX_ENV="LD_LIBRARY_PATH=/opt/cuda-12.4/lib64:/opt/cuda/lib64:/a:/a/:/gone://gone:/a"
fx_doctor
is "$(fx_entries LD_LIBRARY_PATH | cut -d'|' -f4 | tr '\n' ,)" \
    "null,0,null,2,null,4,2," "duplicates point at the first copy"
has_code DUPLICATE_PATH_ENTRY
is "$(fx_finding DUPLICATE_PATH_ENTRY .severity)" info "DUPLICATE_PATH_ENTRY is info"
like "$(fx_finding DUPLICATE_PATH_ENTRY '.evidence | join("\n")')" \
    'entry 2 \(/opt/cuda/lib64\) is the same directory as entry 1 \(/opt/cuda-12.4/lib64\)' \
    "a symlinked copy is a duplicate"
is "$(fx_finding DUPLICATE_PATH_ENTRY '.fix[0]')" \
    "export LD_LIBRARY_PATH=/opt/cuda-12.4/lib64:/a" \
    "the fix keeps the first copy of each and drops missing ones"
FX_ENV="PATH=/usr/bin:/bin:/usr/bin"
fx_doctor
has_code DUPLICATE_PATH_ENTRY "a repeated PATH entry"
is "$(fx_finding DUPLICATE_PATH_ENTRY '.fix[0]')" "export PATH=/usr/bin:/bin" \
    "PATH's duplicate fix"

# Merged /usr: /sbin -> usr/sbin; the stock PATH names both on purpose.
fx_dir /usr/sbin
fx_link usr/sbin /sbin
FX_ENV="PATH=/usr/sbin:/sbin"
fx_doctor
is "$(fx_jq '.facts.env.PATH.entries[1].duplicate_of')" 0 \
    "/sbin -> usr/sbin is recorded as the same directory"
lacks_code DUPLICATE_PATH_ENTRY "but /usr/sbin:/sbin (merged /usr) is no finding"

# --- CUDA libraries on PATH
fx_so /opt/tools/libcudart.so.12 libcudart.so.12
fx_file /opt/notcuda/libcudaxx.so ""
fx_file /opt/notcuda/libcublasLtx.so.1 ""
fx_file /opt/tools/README ""
FX_ENV="PATH=/usr/bin:/opt/tools:/opt/notcuda"
fx_doctor
is "$(fx_jq '.facts.env.PATH.entries | map(.has_cuda_libs) | join(",")')" \
    "false,true,false" "has_cuda_libs only for a dir with a real CUDA library name"
has_code LIBDIR_ON_PATH
is "$(fx_finding LIBDIR_ON_PATH '.fix[0]')" \
    'export LD_LIBRARY_PATH=/opt/tools"${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"' \
    "the fix prepends without leaving an empty entry"
like "$(fx_finding LIBDIR_ON_PATH '.evidence[0]')" '/opt/tools' "the evidence names the dir"
FX_ENV="PATH=/usr/bin:/opt/tools LD_LIBRARY_PATH=/opt/tools/"
fx_doctor
lacks_code LIBDIR_ON_PATH "no LIBDIR_ON_PATH when LD_LIBRARY_PATH has the dir"

# The fix must really work: paste it into sh with LD_LIBRARY_PATH unset and set.
FX_ENV="PATH=/opt/tools"
fx_doctor
fix=$(fx_finding LIBDIR_ON_PATH '.fix[0]')
is "$(env -i sh -c "$fix; printf %s \"\$LD_LIBRARY_PATH\"")" "/opt/tools" \
    "pasted with LD_LIBRARY_PATH unset: no trailing ':'"
is "$(env -i LD_LIBRARY_PATH='/x y' sh -c "$fix; printf %s \"\$LD_LIBRARY_PATH\"")" \
    "/opt/tools:/x y" "pasted with LD_LIBRARY_PATH set: prepended"

# --- spaces and quotes, with a real shell reading the fix back
fx_dir "/opt/my libs/it's"
fx_so "/opt/my libs/it's/libcublas.so.12" libcublas.so.12
fx_doctor_env "PATH=/usr/bin:/opt/my libs/it's:/usr/bin" \
    "LD_LIBRARY_PATH=/opt/my libs/it's::/gone"
is "$(fx_jq '.facts.env.PATH.entries[1].has_cuda_libs')" true \
    "a dir with a space and a quote is looked into"
fix=$(fx_finding DUPLICATE_PATH_ENTRY '.fix[0]')
is "$fix" "export PATH='/usr/bin:/opt/my libs/it'\\''s'" "the PATH fix is quoted"
is "$(env -i sh -c "$fix; printf %s \"\$PATH\"")" "/usr/bin:/opt/my libs/it's" \
    "sh reads the quoted fix back exactly"
fix=$(fx_finding EMPTY_PATH_ENTRY '.fix[0]')
is "$(env -i sh -c "$fix; printf %s \"\$LD_LIBRARY_PATH\"")" "/opt/my libs/it's" \
    "the LD_LIBRARY_PATH fix reads back exactly"
lacks_code LIBDIR_ON_PATH "no LIBDIR_ON_PATH: that dir is on LD_LIBRARY_PATH"
fx_doctor_env "PATH=/opt/my libs/it's"
fix=$(fx_finding LIBDIR_ON_PATH '.fix[0]')
is "$(env -i LD_LIBRARY_PATH=/z sh -c "$fix; printf %s \"\$LD_LIBRARY_PATH\"")" \
    "/opt/my libs/it's:/z" "the LIBDIR_ON_PATH fix reads back exactly"

# --- LD_PRELOAD: ':' and ' ' separate, a bare name cannot be checked
fx_so /usr/lib/libhook.so libhook.so
fx_doctor_env "LD_PRELOAD=/usr/lib/libhook.so libbare.so:/gone.so  "
if [ -n "${CUDAWIZ_UNDER_VALGRIND:-}" ]; then
	# valgrind puts its own preload libraries in front of LD_PRELOAD.
	skip "LD_PRELOAD split at ' ' and ':'" "valgrind's own LD_PRELOAD"
	skip "a bare LD_PRELOAD name says why" "valgrind's own LD_PRELOAD"
else
	is "$(fx_entries LD_PRELOAD | tr '\n' ' ')" \
	    "/usr/lib/libhook.so|false|true|null libbare.so|false|null|null /gone.so|false|false|null " \
	    "LD_PRELOAD split at ' ' and ':', empty items dropped as ld.so does"
	like "$(fx_jq '.facts.env.LD_PRELOAD.entries[1].why')" 'without a slash' \
	    "a bare LD_PRELOAD name says why it cannot be checked"
fi

# --- an entry that cannot be checked (a parent without search permission)
fx_dir /locked/inner
if ! fx_drop_privileges; then
	skip "an unsearchable entry gives exists null" "$FX_DROP_WHY"
	skip "and says why" "$FX_DROP_WHY"
else
	chmod 000 "$FX/locked"
	FX_ENV="LD_LIBRARY_PATH=/locked/inner"
	fx_doctor
	is "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries[0].exists')" null \
	    "an unsearchable entry gives exists null"
	like "$(fx_jq '.facts.env.LD_LIBRARY_PATH.entries[0].why')" 'ermission denied' \
	    "and says why"
	lacks_code ENV_PATH_MISSING "an entry that could not be checked is not called missing"
fi
fx_keep_privileges
chmod 755 "$FX/locked"

done_testing
