"""`cudawiz` (the console script) and `python -m cudawiz`: the binary
itself, with the same arguments.

The process becomes the binary (exec), so its exit status, its signals
and its terminal (the wizard) are the binary's own, and Ctrl-C never
ends in a Python traceback.
"""

import os
import sys

from ._binary import CudawizError, EXIT_USAGE, checked_binary


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        path = checked_binary()
        sys.stdout.flush()
        sys.stderr.flush()
        # argv[0] stays "cudawiz": the binary names itself in messages
        # and finds its helper through /proc/self/exe, not argv[0].
        os.execv(path, ["cudawiz"] + argv)
    except CudawizError as e:
        sys.stderr.write("cudawiz: %s\n" % e)
    except OSError as e:
        sys.stderr.write("cudawiz: cannot run %s: %s\n" % (path, e.strerror))
    except KeyboardInterrupt:
        return 130  # what a shell reports for a command Ctrl-C ended
    return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
