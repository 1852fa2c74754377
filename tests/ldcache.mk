# Tests of the ld.so.cache reader (src/loader/ldcache.c).
