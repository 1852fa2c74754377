# Tests of the ELF reader (src/loader/elfobj.c).
