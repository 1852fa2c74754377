# File-format parsers: ELF, PE, ld.so.cache, fatbinary, matrix, redistrib, explain.
# Each is fuzz/fz_NAME.c with its seeds in fuzz/corpus/NAME/ (see fuzz.mk).

# elfobj_read / elfobj_check / elfobj_find_symbol, through a scratch sysroot.
FUZZ_TARGETS += elf
check_PROGRAMS += fuzz/replay-elf
fuzz_replay_elf_SOURCES = fuzz/fz_elf.c $(FUZZ_REPLAY)
fuzz_replay_elf_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_elf_LDADD = $(FUZZ_LDADD)

# pe_read_mem / pe_read on a Windows DLL, with and without its exports.
FUZZ_TARGETS += pe
check_PROGRAMS += fuzz/replay-pe
fuzz_replay_pe_SOURCES = fuzz/fz_pe.c $(FUZZ_REPLAY)
fuzz_replay_pe_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_pe_LDADD = $(FUZZ_LDADD)

# ldcache_parse on the bytes, then glibc's lookup.
FUZZ_TARGETS += ldcache
check_PROGRAMS += fuzz/replay-ldcache
fuzz_replay_ldcache_SOURCES = fuzz/fz_ldcache.c $(FUZZ_REPLAY)
fuzz_replay_ldcache_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_ldcache_LDADD = $(FUZZ_LDADD)

# fatbin_walk / fatbin_read on an ELF file, through a scratch sysroot.
FUZZ_TARGETS += fatbin
check_PROGRAMS += fuzz/replay-fatbin
fuzz_replay_fatbin_SOURCES = fuzz/fz_fatbin.c $(FUZZ_REPLAY)
fuzz_replay_fatbin_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_fatbin_LDADD = $(FUZZ_LDADD)

# matrix_parse, the questions, and the matrix_to_json round trip.
FUZZ_TARGETS += matrix
check_PROGRAMS += fuzz/replay-matrix
fuzz_replay_matrix_SOURCES = fuzz/fz_matrix.c $(FUZZ_REPLAY)
fuzz_replay_matrix_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_matrix_LDADD = $(FUZZ_LDADD)

# NVIDIA redistrib manifests (parsed, applied to the matrix) and listings.
FUZZ_TARGETS += redistrib
check_PROGRAMS += fuzz/replay-redistrib
fuzz_replay_redistrib_SOURCES = fuzz/fz_redistrib.c $(FUZZ_REPLAY)
fuzz_replay_redistrib_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_redistrib_LDADD = $(FUZZ_LDADD)

# explain_recognise and explain_match_sonames on pasted text.
FUZZ_TARGETS += explain
check_PROGRAMS += fuzz/replay-explain
fuzz_replay_explain_SOURCES = fuzz/fz_explain.c $(FUZZ_REPLAY)
fuzz_replay_explain_CPPFLAGS = $(FUZZ_CPPFLAGS)
fuzz_replay_explain_LDADD = $(FUZZ_LDADD)

# libFuzzer dictionaries (run.sh passes fuzz/NAME.dict when there is one).
EXTRA_DIST += fuzz/ldcache.dict fuzz/fatbin.dict fuzz/matrix.dict \
	fuzz/redistrib.dict fuzz/explain.dict fuzz/pe.dict
