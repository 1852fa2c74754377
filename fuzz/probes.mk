# Parsers the probes run on files they read: METADATA, conda-meta, pyvenv.cfg,
# version.json, /proc and /sys, ld.so.conf.
# Each target stands a small machine up in a scratch root, runs the probes
# that read the files it fuzzes and renders the facts with doctor's JSON
# renderer (the check that every byte taken from a file comes out as valid
# JSON), hence libcudawiz-present.a. probefz.h is what they share.
PROBE_FUZZ_LDADD = libcudawiz-present.a $(FUZZ_LDADD)
FUZZ_EXTRA_LIBS += libcudawiz-present.a
EXTRA_DIST += fuzz/probefz.h

# METADATA / PKG-INFO of dist-info and egg-info (pypkg.c), via a venv.
FUZZ_TARGETS += metadata
check_PROGRAMS += fuzz/replay-metadata
fuzz_replay_metadata_SOURCES = fuzz/fz_metadata.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_metadata_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_metadata_LDADD = $(PROBE_FUZZ_LDADD)

# conda-meta/*.json records (pypkg.c's scanner, channels, merging).
FUZZ_TARGETS += condameta
check_PROGRAMS += fuzz/replay-condameta
fuzz_replay_condameta_SOURCES = fuzz/fz_condameta.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_condameta_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_condameta_LDADD = $(PROBE_FUZZ_LDADD)

# pyvenv.cfg, environments.txt and pyenv's version files (pyenv.c).
FUZZ_TARGETS += pyvenv
check_PROGRAMS += fuzz/replay-pyvenv
fuzz_replay_pyvenv_SOURCES = fuzz/fz_pyvenv.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_pyvenv_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_pyvenv_LDADD = $(PROBE_FUZZ_LDADD)

# version.json, version.txt, CUDART_VERSION, an nvcc wrapper (toolkit.c)
# and cudnn_version.h (cudnn.c, cf_header_defines).
FUZZ_TARGETS += versionjson
check_PROGRAMS += fuzz/replay-versionjson
fuzz_replay_versionjson_SOURCES = fuzz/fz_versionjson.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_versionjson_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_versionjson_LDADD = $(PROBE_FUZZ_LDADD)

# /proc, /sys, pci.ids and modules.dep (pci.c, driver.c).
FUZZ_TARGETS += procsys
check_PROGRAMS += fuzz/replay-procsys
fuzz_replay_procsys_SOURCES = fuzz/fz_procsys.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_procsys_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_procsys_LDADD = $(PROBE_FUZZ_LDADD)

# /etc/ld.so.conf and its includes (env.c).
FUZZ_TARGETS += ldconf
check_PROGRAMS += fuzz/replay-ldconf
fuzz_replay_ldconf_SOURCES = fuzz/fz_ldconf.c fuzz/probefz.h $(FUZZ_REPLAY)
fuzz_replay_ldconf_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_ldconf_LDADD = $(PROBE_FUZZ_LDADD)
