#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check what `hwxdp run` made of tunnel traffic, with scapy.

Usage: check_run_scapy.py IN.pcap OUT.pcap PUNT.pcap --spi N --key HEX
           --salt HEX --src A --dst B --dmac M --smac M
           --flow tcp:SPORT:DPORT [--flow udp:SPORT:DPORT ...]

From IN.pcap alone this works out which frames the device must encrypt:
those of the given microflows with a TTL above 1, in order. Every one of
them must be in OUT.pcap, in the same order and with the same timestamp:
Ethernet to the next hop's MACs, outer IPv4 between the tunnel endpoints,
ESP with the SPI and sequence numbers 1, 2, 3, ..., and scapy's
SecurityAssociation (AES-GCM, RFC 4106) must decrypt it to the inner
packet as the program forwards it: the input's IP packet with its TTL one
lower and its header checksum recomputed here from scratch. The other
frames must be in PUNT.pcap, unchanged. A key one bit off must make scapy
refuse the first encrypted frame, which shows the check can fail.
Prints "N passed, M failed"; exits 1 when anything failed.
"""
import argparse
import logging
import struct
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import ESP, IP, Ether, SecurityAssociation, rdpcap  # noqa: E402
from scapy.layers.ipsec import IPSecIntegrityError  # noqa: E402

PROTOS = {"tcp": 6, "udp": 17}


def inet_checksum(data):
    if len(data) % 2:
        data += b"\0"
    total = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def forwarded_inner(frame):
    """The IPv4 packet of an untagged frame as the device forwards it."""
    ip = bytearray(frame[14:])
    length = struct.unpack("!H", ip[2:4])[0]
    ip = ip[:length]
    ihl = (ip[0] & 0x0F) * 4
    ip[8] -= 1
    ip[10:12] = b"\0\0"
    ip[10:12] = struct.pack("!H", inet_checksum(bytes(ip[:ihl])))
    return bytes(ip)


def flow_of(frame):
    """(proto, sport, dport, ttl) of an untagged IPv4 TCP/UDP frame."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    proto, ttl = ip[9], ip[8]
    sport, dport = struct.unpack("!HH", ip[ihl:ihl + 4])
    return proto, sport, dport, ttl


def sa_for(args, key):
    return SecurityAssociation(ESP, spi=args.spi, crypt_algo="AES-GCM",
                               crypt_key=key + args.salt,
                               tunnel_header=IP(src=args.src, dst=args.dst))


def check_encrypted(args, n, got, want_inner, seq):
    errs = []
    eth = Ether(bytes(got))
    if eth.dst != args.dmac or eth.src != args.smac or eth.type != 0x0800:
        errs.append("Ethernet %s > %s type 0x%04x, want %s > %s 0x0800"
                    % (eth.src, eth.dst, eth.type, args.smac, args.dmac))
    outer = IP(bytes(got)[14:])
    if outer.src != args.src or outer.dst != args.dst or outer.proto != 50:
        errs.append("outer IP %s > %s proto %d, want %s > %s ESP"
                    % (outer.src, outer.dst, outer.proto, args.src, args.dst))
    if ESP not in outer:
        return errs + ["no ESP header"]
    if outer[ESP].spi != args.spi:
        errs.append("SPI 0x%08x, want 0x%08x" % (outer[ESP].spi, args.spi))
    if outer[ESP].seq != seq:
        errs.append("sequence number %d, want %d" % (outer[ESP].seq, seq))
    try:
        plain = bytes(sa_for(args, args.key).decrypt(outer))
    except IPSecIntegrityError as e:
        return errs + ["scapy refuses the ICV: %s" % e]
    if plain != want_inner:
        first = next((i for i in range(min(len(plain), len(want_inner)))
                      if plain[i] != want_inner[i]),
                     min(len(plain), len(want_inner)))
        errs.append("decrypted %d bytes differ from the forwarded %d-byte "
                    "packet at byte %d" % (len(plain), len(want_inner), first))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inp")
    ap.add_argument("out")
    ap.add_argument("punt")
    ap.add_argument("--spi", type=lambda s: int(s, 0), required=True)
    ap.add_argument("--key", type=bytes.fromhex, required=True)
    ap.add_argument("--salt", type=bytes.fromhex, required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--dst", required=True)
    ap.add_argument("--dmac", required=True)
    ap.add_argument("--smac", required=True)
    ap.add_argument("--flow", action="append", required=True)
    args = ap.parse_args()
    flows = set()
    for f in args.flow:
        proto, sport, dport = f.split(":")
        flows.add((PROTOS[proto], int(sport), int(dport)))

    inp, out, punt = rdpcap(args.inp), rdpcap(args.out), rdpcap(args.punt)
    passed = failed = 0

    def result(what, errs):
        nonlocal passed, failed
        if errs:
            failed += 1
            for e in errs:
                print("FAIL %s: %s" % (what, e))
        else:
            passed += 1

    want_out, want_punt = [], []
    for p in inp:
        f = flow_of(bytes(p))
        if f and f[:3] in flows and f[3] > 1:
            want_out.append(p)
        else:
            want_punt.append(p)

    result("counts", [] if len(out) == len(want_out) and len(punt) == len(want_punt)
           else ["%d encrypted and %d punted frames, want %d and %d"
                 % (len(out), len(punt), len(want_out), len(want_punt))])
    if not want_out:
        result("input", ["no frame of the tunnel flows in %s" % args.inp])

    for n, (p, got) in enumerate(zip(want_out, out), 1):
        try:
            errs = check_encrypted(args, n, bytes(got), forwarded_inner(bytes(p)), n)
        except Exception as e:  # scapy crashing on our bytes is a failure
            errs = ["exception %s: %s" % (type(e).__name__, e)]
        if got.time != p.time:
            errs.append("timestamp %s, want %s" % (got.time, p.time))
        result("encrypted frame %d" % n, errs)

    for n, (p, got) in enumerate(zip(want_punt, punt), 1):
        errs = []
        if bytes(got) != bytes(p):
            errs.append("the punted frame is not the frame that came in")
        if got.time != p.time:
            errs.append("timestamp %s, want %s" % (got.time, p.time))
        result("punted frame %d" % n, errs)

    if out:
        wrong = bytes([args.key[0] ^ 1]) + args.key[1:]
        try:
            sa_for(args, wrong).decrypt(IP(bytes(out[0])[14:]))
            result("wrong key", ["scapy decrypted a frame with the wrong key"])
        except IPSecIntegrityError:
            result("wrong key", [])

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
