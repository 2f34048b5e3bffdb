#!/usr/bin/env bash
# Builds the libFuzzer targets (coverage + AddressSanitizer) and runs each for SECONDS.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]   every target (or those named) for SECONDS each (60)
#   FUZZ_RUNS=10000000 Fuzz/run.sh 0 plist
#                                       until that many executions instead of for a time
#   Fuzz/run.sh --list                  the targets
#
# Seeds come from Fuzz/corpus/<target>/ (checked in; Fuzz/gather-corpus.py makes them); what a
# run discovers goes to Fuzz/.build/corpus/<target>/. A crash, a leak or a broken property is
# saved as Fuzz/crashes/<target>-crash-<sha1> and makes the exit status 1; reproduce it with
# Fuzz/.build/release/fuzz-<target> Fuzz/crashes/<file>. Prints executions, exec/s and
# coverage (libFuzzer's cov: edges, ft: features) per target.
set -euo pipefail
fuzz="$(cd "$(dirname "$0")" && pwd)"
targets=(plist info-plist strings predicate mime-cache dictionary-rule plugin-events dbus-message dbus-items desktop-entry
  nautilus)

if [ "${1:-}" = --list ]; then printf '%s\n' "${targets[@]}"; exit 0; fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] && targets=("$@")

build=(swift build --package-path "$fuzz" -c release -Xswiftc -sanitize=fuzzer,address)
products=()
for target in "${targets[@]}"; do
  [ -d "$fuzz/Targets/$target" ] || { echo "run.sh: no target '$target' (see --list)" >&2; exit 2; }
  products+=(--product "fuzz-$target")
done
echo "==> building the fuzz targets (release, -sanitize=fuzzer,address)"
# One product at a time: SwiftPM builds a single --product per call.
for target in "${targets[@]}"; do "${build[@]}" --product "fuzz-$target" 2>&1 | grep -v "prohibited flag\|asan_extra_spill" | grep -v '^\[' || true; done
bin="$("${build[@]}" --show-bin-path)"

# Targets that read files do so in a scratch folder of their own, in memory where possible.
scratch_base=/dev/shm
[ -w "$scratch_base" ] || scratch_base=${TMPDIR:-/tmp}
scratch="$(mktemp -d "$scratch_base/xdg-share-fuzz.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$fuzz/crashes" "$fuzz/.build/logs"
status=0
summary=()
for target in "${targets[@]}"; do
  work="$fuzz/.build/corpus/$target"
  mkdir -p "$work" "$scratch/$target"
  options=(-print_final_stats=1 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$fuzz/crashes/$target-")
  if [ -n "${FUZZ_RUNS:-}" ]; then options+=(-runs="$FUZZ_RUNS"); else options+=(-max_total_time="$seconds"); fi
  [ -f "$fuzz/dictionaries/$target.dict" ] && options+=(-dict="$fuzz/dictionaries/$target.dict")
  log="$fuzz/.build/logs/$target.log"
  budget="for $seconds s"
  [ -n "${FUZZ_RUNS:-}" ] && budget="for $FUZZ_RUNS runs"
  echo "==> fuzz-$target $budget (log: Fuzz/${log#"$fuzz/"})"
  result=ok
  # The Swift runtime's own backtracer would symbolicate for seconds on each crash; libFuzzer
  # prints the stack itself. Leaks inside Foundation are suppressed in lsan.supp, with reasons.
  SWIFT_BACKTRACE=enable=no XDG_SHARE_FUZZ_SCRATCH="$scratch/$target" \
    LSAN_OPTIONS="suppressions=$fuzz/lsan.supp:print_suppressions=0" \
    "$bin/fuzz-$target" "${options[@]}" "$work" "$fuzz/corpus/$target" >"$log" 2>&1 || result=CRASH
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
  if [ "$result" = CRASH ]; then
    status=1
    grep -E 'ERROR|property broken|Fatal error|SUMMARY|Test unit written' "$log" | head -8 | sed 's/^/    /'
  fi
  line=$(printf '%-16s %-6s runs %-10s exec/s %-7s %s' "$target" "$result" "${runs:-?}" "${rate:-?}" "${cov:-$done_line}")
  echo "    $line"
  summary+=("$line")
done
echo "==> summary"
printf '    %s\n' "${summary[@]}"
exit $status
