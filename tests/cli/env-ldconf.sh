#!/bin/sh
# /etc/ld.so.conf: comments, blank lines, hwcap lines, include globs
# (absolute and relative, sorted), missing directories, include loops, an
# unreadable include directory, a missing or unreadable ld.so.conf.
. "$TESTS_SRCDIR/lib/tap.sh"
. "$TESTS_SRCDIR/lib/fixture.sh"

dirs() {	# the ld.so.conf directories as "dir<from>exists" lines
	fx_jq '.facts.env.ld_so_conf[] | "\(.dir) <\(.from)> \(.exists)"'
}
notes() {
	fx_jq '.facts.notes[] | "\(.path): \(.problem)"'
}

fx_new
fx_dir /usr/lib/x86_64-linux-gnu
fx_dir /opt/vendor/lib
fx_dir /usr/local/cuda-12.4/lib64
fx_file /etc/ld.so.conf <<'EOF2'
# the system list
  include /etc/ld.so.conf.d/*.conf   # trailing comment

hwcap 1 nosegneg
/opt/vendor/lib/
include extra/*.conf
include /etc/nonexistent/*.conf /etc/also-missing.conf
EOF2
fx_file /etc/ld.so.conf.d/x86_64-linux-gnu.conf "/usr/lib/x86_64-linux-gnu"
fx_file /etc/ld.so.conf.d/10-cuda.conf "/usr/local/cuda-12.4/lib64"
fx_file /etc/ld.so.conf.d/2-missing.conf "	/opt/gone/lib	"
fx_file /etc/ld.so.conf.d/.hidden.conf "/opt/hidden"
fx_file /etc/ld.so.conf.d/readme.txt "/opt/not-a-conf"
fx_file /etc/extra/a.conf "include loop.inc"
fx_file /etc/extra/loop.inc "include a.conf
/opt/from-loop"

fx_doctor
is "$(fx_jq .facts.env.ld_so_conf_read)" yes "ld.so.conf was read"
is "$(fx_jq .facts.env.sources.ld_so_conf_read)" /etc/ld.so.conf "its source is the file"
is "$(dirs | tr '\n' '|')" \
"/usr/local/cuda-12.4/lib64 </etc/ld.so.conf.d/10-cuda.conf> true|\
/opt/gone/lib </etc/ld.so.conf.d/2-missing.conf> false|\
/usr/lib/x86_64-linux-gnu </etc/ld.so.conf.d/x86_64-linux-gnu.conf> true|\
/opt/vendor/lib </etc/ld.so.conf> true|\
/opt/from-loop </etc/extra/loop.inc> false|" \
    "directories in order, each with its file and whether it exists"
unlike "$(dirs)" 'hidden|not-a-conf|hwcap|nosegneg|#' \
    "no dotfile, no non-.conf file, no hwcap line, no comment"
like "$(notes)" '^/etc/extra/a.conf: include loop' "the include loop is cut with a note"
unlike "$(notes)" 'nonexistent|also-missing' "an include that matches nothing is silent, as in ldconfig"
ok "the run goes on after the loop" [ "$FX_RC" -le 1 ]

# Text report: a count with the missing ones.
out=$(env -i "$CUDAWIZ" doctor --root "$FX")
like "$out" 'ld.so.conf +5 directories, 2 missing' "the text report counts them"

# The library search uses them: a library there resolves via ld.so.conf.
fx_so /opt/vendor/lib/libnvidia-ml.so.1 libnvidia-ml.so.1
fx_doctor
is "$(fx_jq '.facts.libraries[] | select(.soname == "libnvidia-ml.so.1") | .via')" \
    ld.so.conf "a library in an ld.so.conf directory resolves via ld.so.conf"

# Deep nesting without a loop: each file includes the next.
fx_new
i=0
while [ $i -lt 30 ]; do
	fx_file /etc/n/$i.conf "include $((i + 1)).conf
/lib$i"
	i=$((i + 1))
done
fx_file /etc/ld.so.conf "include /etc/n/0.conf"
fx_doctor
ok "30 nested includes: the run goes on" [ "$FX_RC" -le 1 ]
like "$(notes)" 'nest deeper than' "runaway nesting is cut with a note"
is "$(fx_jq '.facts.env.ld_so_conf | length')" 16 "the first 16 levels are read"

# Garbage: binary bytes and a NUL do not stop the parse.
fx_new
fx_dir /etc
printf '/opt/a\n\377\376\000junk\n/opt/b\n' > "$FX/etc/ld.so.conf"
fx_doctor
jq -e . "$FX_OUT" > /dev/null 2>&1
is "$?" 0 "binary garbage in ld.so.conf: valid JSON"
like "$(dirs)" '^/opt/b ' "lines after the garbage are still read"

# Missing ld.so.conf: unknown, with the reason.
fx_new
fx_doctor
is "$(fx_jq .facts.env.ld_so_conf_read)" null "no ld.so.conf: not read"
like "$(fx_jq .facts.env.unknown.ld_so_conf_read)" 'does not exist' "and says why"
is "$(fx_jq '.facts.env.ld_so_conf | length')" 0 "no directories"

# ld.so.conf as a directory: unreadable, with the reason.
fx_dir /etc/ld.so.conf
fx_doctor
like "$(fx_jq .facts.env.unreadable.ld_so_conf_read)" '^/etc/ld.so.conf: not a regular file' \
    "ld.so.conf that is a directory is unreadable, with the reason"

# Permissions: an unreadable ld.so.conf.d and an unreadable ld.so.conf.
fx_new
fx_file /etc/ld.so.conf "include /etc/ld.so.conf.d/*.conf
/opt/after"
fx_file /etc/ld.so.conf.d/a.conf "/opt/a"
if ! fx_drop_privileges; then
	skip "an unreadable ld.so.conf.d gives a note" "$FX_DROP_WHY"
	skip "the rest of ld.so.conf is still read" "$FX_DROP_WHY"
	skip "an unreadable ld.so.conf is UNREADABLE" "$FX_DROP_WHY"
else
	chmod 000 "$FX/etc/ld.so.conf.d"
	fx_doctor
	like "$(notes)" '^/etc/ld.so.conf.d: cannot list .*ermission denied' \
	    "an unreadable ld.so.conf.d gives a note with the error"
	is "$(dirs | tr '\n' '|')" "/opt/after </etc/ld.so.conf> false|" \
	    "the rest of ld.so.conf is still read"
	chmod 000 "$FX/etc/ld.so.conf"
	fx_doctor
	like "$(fx_jq .facts.env.unreadable.ld_so_conf_read)" \
	    '^/etc/ld.so.conf: .*ermission denied' "an unreadable ld.so.conf is UNREADABLE"
	chmod 644 "$FX/etc/ld.so.conf"
fi
fx_keep_privileges
chmod 755 "$FX/etc/ld.so.conf.d"

# Every include pattern is expanded on its own: a few kilobytes of
# wildcard components would list the tree again for each (found by
# fuzz/fz_procsys.c). The directories listed are capped, with a note, and
# the plain lines after them are still read.
fx_new
for d in a b c d e f g h; do fx_dir "/x/$d/1/2/3"; done
{
	i=0
	while [ $i -lt 400 ]; do printf 'include /*/*/*/*/*\n'; i=$((i + 1)); done
	printf '/opt/last\n'
} | fx_file /etc/ld.so.conf
fx_doctor
like "$(notes)" '^/etc/ld.so.conf: ld.so.conf includes list more than 1024 directories' \
    "wildcard includes list at most 1024 directories, with a note"
is "$(dirs | tail -n 1)" "/opt/last </etc/ld.so.conf> false" \
    "the lines after them are still read"

done_testing
