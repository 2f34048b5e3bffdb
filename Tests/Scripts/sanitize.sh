#!/usr/bin/env bash
# Runs the test suite under a sanitizer, in a build folder of its own so that the normal build
# is left alone:
#
#   Tests/Scripts/sanitize.sh address [FILTER]   AddressSanitizer (and LeakSanitizer), .build-asan
#   Tests/Scripts/sanitize.sh thread [FILTER]    ThreadSanitizer, .build-tsan
#
# FILTER is `swift test --filter`'s; the default is the core targets (the protocol, the core, the
# host, the wrappers, ShareKit and the D-Bus service). `all` runs the whole suite. Suppressions
# for findings inside system libraries are in Tests/Scripts/sanitizers/, each with its reason.
set -euo pipefail
cd "$(dirname "$0")/../.."

kind=${1:-}
case "$kind" in
  address) scratch=.build-asan ;;
  thread) scratch=.build-tsan ;;
  *) echo "usage: $0 address|thread [FILTER|all]" >&2; exit 2 ;;
esac
filter=${2:-'ShareCoreTests|ShareProtocolTests|ShareHostTests|ShareDBusTests|SharePOSIXTests|ShareKitTests|DaemonTests'}
filter_options=(--filter "$filter")
[ "$filter" = all ] && filter_options=()

suppressions="$PWD/Tests/Scripts/sanitizers"
# Findings stop the run with a report; the Swift runtime's backtracer stays out of the way.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=0"
export LSAN_OPTIONS="suppressions=$suppressions/lsan.supp:print_suppressions=0"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$suppressions/tsan.supp"
export SWIFT_BACKTRACE=enable=no
# Tests that bound resident memory read it: ASan's quarantine keeps freed memory on purpose.
export XDG_SHARE_SANITIZER="$kind"
# As in install.sh --test: no test may reach the developer's session bus or display.
unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY

echo "==> swift test --sanitize=$kind --scratch-path $scratch ${filter_options[*]}"
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" -Xswiftc -warnings-as-errors
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" "${filter_options[@]}"
