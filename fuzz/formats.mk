# File-format parsers: ELF, ld.so.cache, fatbinary, matrix, redistrib, explain.
