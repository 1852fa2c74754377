# The probes: what is on this machine, as facts; they never print.
libcudawiz_core_a_SOURCES += \
	src/probe/probe.c src/probe/probe.h \
	src/probe/cudafiles.c src/probe/cudafiles.h \
	src/probe/env.c \
	src/probe/pci.c \
	src/probe/pciids.c src/probe/pciids.h \
	src/probe/gpuarch.c src/probe/gpuarch.h \
	src/probe/gpusupported.c src/probe/gpusupported.h \
	src/probe/driver.c \
	src/probe/modfile.c \
	src/probe/secureboot.c \
	src/probe/kmsg.c \
	src/probe/toolkit.c \
	src/probe/cudnn.c \
	src/probe/libsearch.c \
	src/probe/fwdcompat.c \
	src/probe/loaderenv.c \
	src/probe/pyenv.c \
	src/probe/pypkg.c \
	src/probe/condajson.c src/probe/condajson_int.h \
	src/probe/condabuild.c src/probe/condabuild.h \
	src/probe/condalibs.c src/probe/condalibs.h \
	src/probe/framework.c src/probe/fwint.h \
	src/probe/fwident.c \
	src/probe/fwother.c \
	src/probe/fwbuild.c \
	src/probe/fwneeds.c \
	src/probe/fwexpect.c
