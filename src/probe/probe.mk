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
	src/probe/host.c \
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

# data/pci-nvidia.ids compiled in: pciids.c's table for systems without
# a pci.ids. Generated into the build tree (data/bin2c.sh, od and awk, so
# a cross build makes it too); data/mk-pci-nvidia.sh makes the .ids.
nodist_libcudawiz_core_a_SOURCES = src/probe/pci-nvidia-ids.c
src/probe/pci-nvidia-ids.c: $(srcdir)/data/pci-nvidia.ids $(srcdir)/data/bin2c.sh
	$(AM_V_GEN)$(MKDIR_P) src/probe && \
	$(SHELL) $(srcdir)/data/bin2c.sh pci_nvidia_ids \
	    $(srcdir)/data/pci-nvidia.ids > $@-t && mv -f $@-t $@
CLEANFILES += src/probe/pci-nvidia-ids.c src/probe/pci-nvidia-ids.c-t
EXTRA_DIST += data/pci-nvidia.ids data/mk-pci-nvidia.sh data/bin2c.sh
