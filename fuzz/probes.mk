# Parsers the probes run on files they read: METADATA, conda-meta, pyvenv.cfg,
# version.json, /proc and /sys.
