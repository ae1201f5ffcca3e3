#!/usr/bin/env bash
# The verdict of scripts/gpu-sanitize.sh's runs, from their logs (no GPU
# needed, so CI tests it on synthetic logs: test/tools/sanitize-summary.test).
#
#   scripts/sanitize-summary.sh OUTDIR SECONDS RUN...
#
# RUN is ARTIFACT:TOOL, whose compute-sanitizer log and exit status are
# OUTDIR/ARTIFACT.TOOL.{log,rc}, or ARTIFACT:TOOL:missing for a run that had
# no artifact. Prints one line per run -- artifact, tool, errors, result,
# the kernels reported -- and exits 0 when every result is clean (or one of
# the two kinds below that are not the compiler's), 1 otherwise:
#   clean          the tool's summary says 0 and it exited 0
#   FINDINGS       errors or hazards reported (or exit status 86, the
#                  --error-exitcode of gpu-sanitize.sh)
#   LIBRARY-ONLY   racecheck hazards, none in the compiler's kernels
#                  (__moe_entry_*): cuBLASLt's, NVIDIA's code; not failing
#   UNSEEN-WRITES  the cublaslt artifact's initcheck reports, every one an
#                  uninitialized read, with its values passing against the
#                  CPU: reads of cuBLASLt's TMA stores, which initcheck does
#                  not see; not failing (values that fail: FINDINGS)
#   TIMEOUT        exit status 124 or 137 (timeout, killed)
#   NO-SUMMARY     no summary line in the log (the tool did not finish)
#   RUN-FAILED     0 reported but a non-zero exit status (the runner failed)
#   MISSING        no artifact
set -uo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR SECONDS ARTIFACT:TOOL[:missing]..." >&2
  exit 2
fi
OUTDIR=$1 SECONDS_TAKEN=$2
shift 2
FINDING_RC=86

# The distinct kernels (ours: __moe_entry_*; else the first words of the
# symbol) that a log's reports point at.
# memcheck/initcheck say "at KERNEL+0x..", racecheck "access at KERNEL+0x..".
reported_kernels() {
  grep -E '^=+ .*\bat ' "$1" | grep -v 'Saved host backtrace' |
    grep -oE '\bat (0x[0-9a-f]+ in )?[A-Za-z_][A-Za-z0-9_]*' | sed -E 's/^at (0x[0-9a-f]+ in )?//' |
    cut -c1-60 | sort | uniq -c | sort -rn | head -4 | awk '{printf "%s%s(%s)", (NR>1?", ":""), $2, $1}'
}

status=0
echo
echo "=== summary ($SECONDS_TAKEN s): compute-sanitizer, moe-runner --iters 1 --warmup 0"
printf '%-16s %-10s %-8s %-10s %s\n' artifact tool errors result "reported at"
for run in "$@"; do
  name=${run%%:*} rest=${run#*:}
  tool=${rest%%:*}
  if [ "$rest" != "$tool" ]; then
    printf '%-16s %-10s %-8s %-10s %s\n' "$name" "$tool" - MISSING "no artifact (run scripts/gpu-artifacts.sh)"
    status=1
    continue
  fi
  log=$OUTDIR/$name.$tool.log
  rc=$(cat "$OUTDIR/$name.$tool.rc" 2>/dev/null || echo none)
  errors=$(grep -oE 'ERROR SUMMARY: [0-9]+' "$log" 2>/dev/null | tail -1 | grep -oE '[0-9]+$')
  # racecheck ends in "RACECHECK SUMMARY: N hazards displayed (E errors,
  # W warnings)" instead: every hazard counts.
  [ -n "$errors" ] || errors=$(grep -oE 'RACECHECK SUMMARY: [0-9]+ hazard' "$log" 2>/dev/null |
    tail -1 | grep -oE '[0-9]+')
  where=""
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    result=TIMEOUT
  elif [ -z "$errors" ]; then
    result=NO-SUMMARY
  elif [ "$errors" != 0 ] || [ "$rc" = "$FINDING_RC" ]; then
    result=FINDINGS; where=$(reported_kernels "$log")
    if [ "$tool" = racecheck ] && [ "$errors" != 0 ] &&
       ! grep -qE 'Internal Sanitizer Error|Target application returned an error' "$log" &&
       grep -qE '^=+ .*Race' "$log" && ! grep -E '^=+ ' "$log" | grep -q '__moe_entry_'; then
      result=LIBRARY-ONLY
      where=$(grep -E '^=+ .*(Race|access)' "$log" | grep -oE '(nvjet|cutlass|sm90_|cublas)[A-Za-z0-9_]*' |
        cut -c1-40 | sort | uniq -c | sort -rn | head -3 | awk '{printf "%s%s(%s)", (NR>1?", ":""), $2, $1}')
    fi
    # cuBLASLt's TMA-stored outputs read by compiled kernels: initcheck
    # reports every read (it does not see TMA stores); the values against
    # the CPU tell a store it missed from an element never written.
    if [ "$name" = cublaslt ] && [ "$tool" = initcheck ] &&
       grep -qE '^check: [0-9]+ outputs, 0 failed' "$log" &&
       ! grep -E '^=+ +[A-Z][a-z]+' "$log" |
         grep -vqE 'Uninitialized __global__ memory read|Address 0x|Saved host backtrace|Host Frame'; then
      result=UNSEEN-WRITES
    fi
  elif [ "$rc" != 0 ]; then
    result=RUN-FAILED
  else
    result=clean
  fi
  case $result in clean|LIBRARY-ONLY|UNSEEN-WRITES) ;; *) status=1 ;; esac
  printf '%-16s %-10s %-8s %-10s %s\n' "$name" "$tool" "${errors:--}" "$result" "$where"
  case $result in
    RUN-FAILED|NO-SUMMARY)
      grep -E 'error|FAIL|moe-runner:' "$log" 2>/dev/null | grep -v '^=+ *$' | tail -3 | sed 's/^/    /' ;;
    FINDINGS|LIBRARY-ONLY|UNSEEN-WRITES)
      # The first report: what was accessed, where, by whom, the address.
      awk '/^=+ [A-Z]/ && !/COMPUTE-SANITIZER/ && !seen { seen = 1; left = 5 } left > 0 { print; left-- }' "$log" |
        sed 's/^/    /' ;;
  esac
  # A run with --check-against: its verdict on the values.
  grep -E '^check: [0-9]+ outputs' "$log" 2>/dev/null | sed 's/^/    values: /'
done
echo "logs: $OUTDIR/<artifact>.<tool>.log"
exit $status
