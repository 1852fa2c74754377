# Build pieces and tests of the fetch layer (moved into Makefile.am once settled).
