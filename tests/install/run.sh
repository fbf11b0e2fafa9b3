#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make install` into a scratch DESTDIR, then what a user of the installed
# package sees: the exports and headers (check_exports.sh). Prints
# "N passed, M failed" for the whole.
set -uo pipefail
build=${BUILD:-build}
prefix=/usr/local
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
passed=0 failed=0

count() {
	local line
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + $(cut -d' ' -f1 <<<"$line")))
	failed=$((failed + $(cut -d' ' -f3 <<<"$line")))
}

log=$root/log
if ! make --no-print-directory BUILD="$build" DESTDIR="$root/dest" PREFIX=$prefix install >"$log" 2>&1; then
	cat "$log"
	echo "0 passed, 1 failed"
	exit 1
fi

echo "-- exports and headers"
tests/install/check_exports.sh "$root/dest" $prefix | tee "$log"
count "$log"

# uninstall leaves nothing of ours behind
make --no-print-directory BUILD="$build" DESTDIR="$root/dest" PREFIX=$prefix uninstall >/dev/null 2>&1
left=$(find "$root/dest" -type f -o -type l)
if [ -z "$left" ]; then passed=$((passed + 1)); else
	echo "FAIL: make uninstall left:"; echo "$left"; failed=$((failed + 1)); fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
