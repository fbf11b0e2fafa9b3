#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs every test binary of the build and the frame-builder check against
# scapy; exits non-zero when any fails.
set -uo pipefail
build=${BUILD:-build}
status=0

for t in "$build"/tests/*.test; do
	echo "== $t"
	"$t" --jobs 2 || status=1
done

echo "== frame builder against scapy"
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import scapy' 2>/dev/null; then
	"$build/tests/pkt_dump" | /usr/bin/python3 tests/lab/check_pkt_scapy.py || status=1
else
	echo "skipped: Debian's python3-scapy is not installed"
fi
exit $status
