#!/bin/sh
# Rebuilds this fixture with a plrun binary of the format before the table
# store (snapshot-*.plr + wal/): PLRUN=/path/to/old/plrun ./make-fixture.sh
set -eu
cd "$(dirname "$0")"
: "${PLRUN:?set PLRUN to a plrun binary built from main before the table store (f7033f5)}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TZ=UTC
"$PLRUN" --data "$tmp/d" --create -B < setup.sql   # ends with CHECKPOINT: the snapshot
"$PLRUN" --data "$tmp/d" -B < after.sql            # log records after the snapshot
rm -rf data && mkdir data
cp "$tmp"/d/snapshot-*.plr data/
cp -r "$tmp/d/wal" data/wal
chmod -R u+rwX,go+rX data
# expected.txt: each query of check.sql run alone (after SET time_zone),
# as "> query" and then the old binary's batch output (-B -N).
while IFS= read -r q; do
	case "$q" in "" | SET*) continue ;; esac
	printf '> %s\n' "$q"
	"$PLRUN" --data "$tmp/d" -B -N -e "SET time_zone = '+00:00'; $q"
done < check.sql > expected.txt
