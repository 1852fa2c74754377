# Tests of live verification as cudawiz runs it (issue 6): the parent's
# plan, its timeouts and its reading of the helper, the findings, and
# `cudawiz verify` / `doctor` end to end.
