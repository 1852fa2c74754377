#!/usr/bin/env python3
"""Many empty files in one directory, fast (tests/cli/hostile-*.sh).

  manyfiles.py DIR COUNT PATTERN [PATTERN...]

Entry i is named PATTERNS[i % len(PATTERNS)] % i, so "mod_%06d.py" and
"nvidia_fake%06d_cu12-12.1.0.dist-info" interleave. A shell loop of
touch would fork 100,000 times; this takes a second or two.
Standard library only.
"""

import os
import sys


def main(argv):
	if len(argv) < 4:
		sys.stderr.write(__doc__)
		return 2
	d, count, patterns = argv[1], int(argv[2]), argv[3:]
	os.makedirs(d, exist_ok=True)
	flags = os.O_CREAT | os.O_WRONLY | os.O_EXCL
	for i in range(count):
		name = patterns[i % len(patterns)] % i
		os.close(os.open(os.path.join(d, name), flags, 0o644))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
