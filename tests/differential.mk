# Tests of the differential test against the real glibc loader.
