#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What left the appliance for a tunnel, read by scapy alone.

usage: esp_capture.py capture IFACE SECONDS READY_FILE OUT.pcap
       esp_capture.py check OUT.pcap --sa SPI:KEYSALT_HEX [--sa ...]
                      --inner-src A --inner-dst B --dport P

capture writes every frame arriving on IFACE for SECONDS with tcpdump
(READY_FILE appears when it listens). check prints one JSON object: per SPI the ESP
frames, how many decrypt (scapy's SecurityAssociation, AES-GCM RFC 4106)
to an IPv4 UDP packet from --inner-src to --inner-dst port --dport, their
ESP sequence numbers in order, and the inner payloads' first 4 bytes (the
numbered stream's sequence); and "clear": frames of that inner flow seen
unencrypted, which must never be."""
import argparse
import json
import signal
import struct
import subprocess
import sys
import time

from scapy.all import ESP, IP, UDP, SecurityAssociation, raw, rdpcap


def capture(args):
    # tcpdump writes the frames (its buffer, not a Python loop, keeps up
    # with a stream); scapy reads them. What arrives only: -Q in.
    dump = subprocess.Popen(["tcpdump", "-i", args.iface, "-Q", "in", "-B", "32768", "-U",
                             "-n", "-w", args.out],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for line in dump.stderr:
        if "listening on" in line:
            break
    open(args.ready, "w").close()
    time.sleep(args.seconds)
    dump.send_signal(signal.SIGTERM)
    dump.communicate(timeout=10)


def check(args):
    sas = {}
    for text in args.sa:
        spi, hexkey = text.split(":")
        key = bytes.fromhex(hexkey)
        sas[int(spi, 0)] = key
    out = {"clear": 0, "spis": {}}
    for p in rdpcap(args.pcap):
        ip = p.getlayer(IP)
        if ip is None:
            continue
        if ESP in p:
            spi = p[ESP].spi
            e = out["spis"].setdefault(str(spi), {"frames": 0, "decrypted": 0, "seq": [],
                                                  "payload_seq": [], "ttl": []})
            e["frames"] += 1
            e["seq"].append(p[ESP].seq)
            if spi not in sas:
                continue
            outer = IP(raw(ip))
            sa = SecurityAssociation(ESP, spi=spi, crypt_algo="AES-GCM", crypt_key=sas[spi],
                                     tunnel_header=IP(src=outer.src, dst=outer.dst))
            try:
                inner = IP(raw(sa.decrypt(outer)))
            except Exception:  # a frame that does not decrypt is counted as such
                continue
            if (inner.src == args.inner_src and inner.dst == args.inner_dst and UDP in inner
                    and inner[UDP].dport == args.dport):
                e["decrypted"] += 1
                e["ttl"].append(inner.ttl)
                payload = bytes(inner[UDP].payload)
                if len(payload) >= 4:
                    e["payload_seq"].append(struct.unpack("!I", payload[:4])[0])
        elif (UDP in p and ip.src == args.inner_src and ip.dst == args.inner_dst
              and p[UDP].dport == args.dport):
            out["clear"] += 1
    json.dump(out, sys.stdout)
    print()


ap = argparse.ArgumentParser()
sub = ap.add_subparsers(dest="cmd", required=True)
c = sub.add_parser("capture")
c.add_argument("iface")
c.add_argument("seconds", type=float)
c.add_argument("ready")
c.add_argument("out")
k = sub.add_parser("check")
k.add_argument("pcap")
k.add_argument("--sa", action="append", default=[])
k.add_argument("--inner-src", required=True)
k.add_argument("--inner-dst", required=True)
k.add_argument("--dport", type=int, required=True)
a = ap.parse_args()
capture(a) if a.cmd == "capture" else check(a)
