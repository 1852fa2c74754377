# Tests of `cudawiz explain`.
