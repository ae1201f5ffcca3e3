#!/usr/bin/env python3
"""expect-exit.py CODE CMD ARGS...: run CMD (output passes through) and succeed
only if it exits with status CODE. Unlike `not`, this tells a clean error
exit (1), a usage error (2) and a crash (signal) apart."""
import subprocess
import sys

want = int(sys.argv[1])
rc = subprocess.call(sys.argv[2:])
if rc != want:
    sys.stdout.flush()
    sys.stderr.write("expect-exit: %s exited with %d, expected %d\n" % (sys.argv[2], rc, want))
    sys.exit(1)
