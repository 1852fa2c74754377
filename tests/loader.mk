# Tests of the loader profile, the resolver and `cudawiz why`.
