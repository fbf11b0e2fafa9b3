#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Captures TCP/UDP frames on an interface with scapy and prints one JSON
line per frame, read field by field by scapy (not by hwxdp's parser):
vlan, MACs, family, ttl/hop limit, ports, and whether the IPv4 header and
L4 checksums agree with scapy's own recomputation.

usage: sniff.py IFACE SECONDS READY_FILE [--max N] [--host ADDR ...]
Only frames whose source or destination is one of the --host addresses are
printed (all IP frames without --host)."""
import argparse
import json
import sys
import time

from scapy.all import IP, TCP, UDP, AsyncSniffer, Dot1Q, Ether, IPv6, raw

ap = argparse.ArgumentParser()
ap.add_argument("iface")
ap.add_argument("seconds", type=float)
ap.add_argument("ready")
ap.add_argument("--max", type=int, default=0)
ap.add_argument("--host", action="append", default=[])
args = ap.parse_args()
hosts = set(args.host)


seen = {"frames": 0, "ip": 0}


def wanted(p):
    seen["frames"] += 1
    ip = p.getlayer(IP) or p.getlayer(IPv6)
    if ip is not None:
        seen["ip"] += 1
    if ip is None or not (TCP in p or UDP in p):
        return False
    return not hosts or ip.src in hosts or ip.dst in hosts


def csum_ok(layer, cls):
    fresh = layer.copy()
    del fresh.chksum
    return cls(raw(fresh)).chksum == layer.chksum


def describe(p):
    d = {"t": float(p.time), "vlan": p[Dot1Q].vlan if Dot1Q in p else None,
         "smac": p[Ether].src, "dmac": p[Ether].dst, "len": len(p)}
    if IP in p:
        ip = p[IP]
        d.update(family=4, src=ip.src, dst=ip.dst, ttl=ip.ttl,
                 ip_csum=csum_ok(ip, IP))
    else:
        ip = p[IPv6]
        d.update(family=6, src=ip.src, dst=ip.dst, ttl=ip.hlim, ip_csum=True)
    l4 = p[TCP] if TCP in p else p[UDP]
    d.update(proto="tcp" if TCP in p else "udp", sport=l4.sport, dport=l4.dport)
    # The L4 checksum over the pseudo-header, recomputed by scapy from the
    # IP layer down.
    fresh = ip.copy()
    del fresh[type(l4)].chksum
    again = type(ip)(raw(fresh))
    d["l4_csum"] = again[type(l4)].chksum == l4.chksum
    return d


def started():
    open(args.ready, "w").write("ready\n")


kw = {"iface": args.iface, "lfilter": wanted, "store": True,
      "started_callback": started}
if args.max:
    kw["count"] = args.max
sn = AsyncSniffer(**kw)
sn.start()
deadline = time.time() + args.seconds
while time.time() < deadline and sn.running:
    time.sleep(0.1)
try:
    pkts = sn.stop()
except Exception:  # it stopped itself at --max: its thread sets the results
    sn.join()
    pkts = sn.results
for p in pkts or []:
    try:
        print(json.dumps(describe(p)))
    except Exception as e:  # a frame scapy cannot take apart
        print(json.dumps({"error": str(e)}))
print(json.dumps({"captured": len(pkts or []), "seen": seen}))
sys.stdout.flush()
