# The activation script writers (issue 7): filled in as they land.
