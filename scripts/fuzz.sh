#!/usr/bin/env bash
# Every Fuzz target of every package, FUZZTIME (default 30s) each.
#
# A target that fails with a failing input (written under testdata/fuzz)
# fails the run. Go's fuzzing coordinator also sometimes ends a run with
# only "context deadline exceeded", no input, when a worker is inside a
# slow input as the time runs out on a loaded machine; that target is run
# once more, and fails the run only if it fails again.
set -euo pipefail
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
for pkg in $($GO list ./...); do
  for target in $($GO test -list 'Fuzz.*' "$pkg" | grep '^Fuzz' || true); do
    echo "== $pkg $target ($FUZZTIME)"
    for attempt in 1 2; do
      log=$(mktemp)
      if $GO test -run '^$' -fuzz "^$target\$" -fuzztime "$FUZZTIME" -parallel 2 "$pkg" 2>&1 | tee "$log"; then
        rm -f "$log"
        break
      fi
      if [[ $attempt == 1 ]] && grep -q 'context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
        echo "== $target ended by the fuzzing deadline with no failing input: once more"
        rm -f "$log"
        continue
      fi
      rm -f "$log"
      exit 1
    done
  done
done
