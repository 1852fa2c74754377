# Build pieces and tests of the matrix layer (moved into Makefile.am once settled).
