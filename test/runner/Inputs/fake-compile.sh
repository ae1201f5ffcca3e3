#!/bin/sh
# A stand-in for moe-compile in the compile-cache tests:
#   fake-compile.sh FILE.mlir --target=T -o STEM
# logs the call to $FAKE_COMPILE_LOG, fails if FILE contains FAIL, and
# otherwise "compiles" by copying the artifact $FAKE_ARTIFACT.{so,json}.
[ "$#" -eq 4 ] && [ "$3" = "-o" ] || { echo "fake-compile: bad arguments: $*" >&2; exit 64; }
echo "compile $1 $2" >> "$FAKE_COMPILE_LOG"
if grep -q FAIL "$1"; then
  echo "fake-compile: error: $1 asks to fail" >&2
  exit 1
fi
cp "$FAKE_ARTIFACT.so" "$4.so" && cp "$FAKE_ARTIFACT.json" "$4.json"
