#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Installs what hwxdp needs from Debian's packages; a no-op when all is there.
set -euo pipefail

packages=(
	make gcc clang llvm pkg-config
	libbpf-dev libelf-dev zlib1g-dev libxdp-dev libmnl-dev
	libcriterion-dev libssl-dev libpcap-dev libz3-dev
	bpftool iproute2 iputils-ping python3-scapy python3-cryptography
	iperf3 ethtool traceroute tcpdump
	linux-libc-dev libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "hwxdp: missing packages: ${missing[*]} (run as root to install them)" >&2
	exit 1
fi
echo "hwxdp: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
