#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check the crypto engine's ESP packets against scapy.

Usage: esp_dump | /usr/bin/python3 tests/esp/check_esp_scapy.py

Reads the lines of tests/esp/esp_dump.c:
    KIND KEY SALT SPI SRC DST L3_OFFSET BEFORE AFTER
For every "esp" line, scapy's SecurityAssociation (AES-GCM, RFC 4106)
decrypts the packet, which must give back the inner packet byte for byte;
the outer IPv4 header and the ESP header must hold what RFC 4303 tunnel
mode and the engine's rules say (sequence numbers 1, 2, 3, ... per SA, the
IV equal to the sequence number); and scapy, encrypting the inner packet
itself with that sequence number and IV, must produce the very same bytes,
which pins the padding (1, 2, 3, ...) and its minimal length too.
A "wrongkey" line carries a key that is not the SA's: scapy must refuse to
decrypt it, which shows the check can fail. It counts as passed when
refused. Cases the input must cover are checked at the end.
Prints "N passed, M failed"; exits 1 when anything failed.
"""
import logging
import socket
import struct
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import ESP, IP, IPv6, SecurityAssociation  # noqa: E402
from scapy.layers.ipsec import IPSecIntegrityError  # noqa: E402

OUTER_TTL = 64
IPPROTO_ESP = 50
NEXT_HEADER = {4: 4, 6: 41}


def inner_packet(l3):
    """The inner IP packet, its length from its own header; its family and
    TOS / traffic class. Bytes behind it are link-layer padding."""
    version = l3[0] >> 4
    if version == 4:
        length = struct.unpack("!H", l3[2:4])[0]
        tos = l3[1]
    elif version == 6:
        length = 40 + struct.unpack("!H", l3[4:6])[0]
        tos = (l3[0] & 0x0F) << 4 | l3[1] >> 4
    else:
        raise ValueError("inner version %d" % version)
    return l3[:length], version, tos


def sa_for(spi, key, salt, src, dst, **tunnel):
    return SecurityAssociation(ESP, spi=spi, crypt_algo="AES-GCM",
                               crypt_key=key + salt,
                               tunnel_header=IP(src=src, dst=dst, **tunnel))


def check_esp(f, next_seq):
    errs = []
    before, after, l3_off = f["before"], f["after"], f["l3"]
    if after[:l3_off] != before[:l3_off]:
        errs.append("L2 header changed: %s, was %s"
                    % (after[:l3_off].hex(), before[:l3_off].hex()))
    inner, family, tos = inner_packet(before[l3_off:])
    outer = after[l3_off:]

    # Lengths as RFC 4303 gives them, with the least padding: the
    # plaintext (inner, padding, pad length, next header) is a multiple
    # of 4; 20 outer IPv4, 8 SPI and sequence number, 8 IV, 16 ICV.
    pad = -(len(inner) + 2) % 4
    want_len = 20 + 8 + 8 + len(inner) + pad + 2 + 16
    if len(outer) != want_len:
        errs.append("outer length %d, want %d" % (len(outer), want_len))

    ip = IP(outer)
    seq = next_seq.get(f["spi"], 1)
    next_seq[f["spi"]] = seq + 1
    want = dict(version=4, ihl=5, tos=tos, len=len(outer), flags=0, frag=0,
                ttl=OUTER_TTL, proto=IPPROTO_ESP, src=f["src"], dst=f["dst"],
                id=seq & 0xFFFF)
    for name, value in want.items():
        got = ip.getfieldval(name)
        if name == "flags":
            got = int(got)
        if got != value:
            errs.append("outer IP %s = %r, want %r" % (name, got, value))
    again = ip.copy()
    del again.chksum
    if IP(bytes(again)).chksum != ip.chksum:
        errs.append("outer IP checksum 0x%04x is wrong" % ip.chksum)
    if ESP not in ip:
        return errs + ["no ESP after the outer header"]
    esp = ip[ESP]
    if esp.spi != f["spi"]:
        errs.append("SPI 0x%08x, want 0x%08x" % (esp.spi, f["spi"]))
    if esp.seq != seq:
        errs.append("sequence number %d, want %d" % (esp.seq, seq))
    iv = bytes(esp.data)[:8]
    if iv != struct.pack("!Q", seq):
        errs.append("IV %s is not the sequence number %d" % (iv.hex(), seq))

    sa = sa_for(f["spi"], f["key"], f["salt"], f["src"], f["dst"])
    try:
        plain = bytes(sa.decrypt(IP(outer)))
    except IPSecIntegrityError as e:
        return errs + ["scapy refuses the ICV: %s" % e]
    if plain != inner:
        errs.append("decrypted %d bytes differ from the %d-byte inner packet"
                    % (len(plain), len(inner)))
    decoded = sa.crypt_algo.decrypt(sa, IP(outer)[ESP], sa.crypt_key)
    if decoded.nh != NEXT_HEADER[family]:
        errs.append("next header %d, want %d" % (decoded.nh, NEXT_HEADER[family]))
    if decoded.padlen != pad:
        errs.append("pad length %d, want %d" % (decoded.padlen, pad))

    # scapy's own packet for the same inner packet, SA, sequence number and
    # IV must be ours byte for byte.
    inner_cls = IP if family == 4 else IPv6
    ref_sa = sa_for(f["spi"], f["key"], f["salt"], f["src"], f["dst"],
                    ttl=OUTER_TTL, tos=tos, id=seq & 0xFFFF, flags=0)
    ref = bytes(ref_sa.encrypt(inner_cls(inner), seq_num=seq, iv=iv))
    if ref != outer:
        first = next((i for i in range(min(len(ref), len(outer)))
                      if ref[i] != outer[i]), min(len(ref), len(outer)))
        errs.append("scapy's packet differs at byte %d: ours %s, scapy %s"
                    % (first, outer[first:first + 4].hex(),
                       ref[first:first + 4].hex()))
    f["family"] = family
    f["inner_len"] = len(inner)
    return errs


def check_wrong_key(f):
    outer = f["after"][f["l3"]:]
    sa = sa_for(f["spi"], f["key"], f["salt"], f["src"], f["dst"])
    try:
        sa.decrypt(IP(outer))
    except IPSecIntegrityError:
        return []
    return ["scapy decrypted a packet with the wrong key"]


def parse(line):
    p = line.split()
    if len(p) != 9 or p[0] not in ("esp", "wrongkey"):
        raise ValueError("not a dump line")
    socket.inet_aton(p[4])
    socket.inet_aton(p[5])
    return dict(kind=p[0], key=bytes.fromhex(p[1]), salt=bytes.fromhex(p[2]),
                spi=int(p[3], 16), src=p[4], dst=p[5], l3=int(p[6]),
                before=bytes.fromhex(p[7]), after=bytes.fromhex(p[8]))


def coverage(seen):
    """What the input must exercise; each gap is one failure."""
    gaps = []
    for n in (16, 24, 32):
        if n not in seen["key_len"]:
            gaps.append("no AES-%d packet" % (n * 8))
    for fam in (4, 6):
        if fam not in seen["family"]:
            gaps.append("no IPv%d inner packet" % fam)
    for n in list(range(20, 81)) + [1400]:
        if n not in seen["v4_len"]:
            gaps.append("no %d-byte IPv4 inner packet" % n)
    if not seen["interleaved"]:
        gaps.append("no two SAs interleaved")
    if not seen["wrong"]:
        gaps.append("no wrong-key packet: the check never shows it can fail")
    return gaps


def main():
    passed = failed = 0
    next_seq = {}
    seen = dict(key_len=set(), family=set(), v4_len=set(), interleaved=False,
                wrong=0)
    last_spi = None
    finished = set()
    for lineno, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line:
            continue
        try:
            f = parse(line)
        except ValueError as e:
            print("FAIL line %d: %s: %r" % (lineno, e, line[:60]))
            failed += 1
            continue
        try:
            if f["kind"] == "wrongkey":
                errs = check_wrong_key(f)
                seen["wrong"] += not errs
            else:
                errs = check_esp(f, next_seq)
                if not errs:
                    seen["key_len"].add(len(f["key"]))
                    seen["family"].add(f["family"])
                    if f["family"] == 4:
                        seen["v4_len"].add(f["inner_len"])
                if f["spi"] in finished:
                    seen["interleaved"] = True
                if last_spi is not None and last_spi != f["spi"]:
                    finished.add(last_spi)
                last_spi = f["spi"]
        except Exception as e:  # a crash in scapy is a failure too
            errs = ["exception %s: %s" % (type(e).__name__, e)]
        if errs:
            failed += 1
            for err in errs:
                print("FAIL line %d (%s SPI 0x%08x): %s"
                      % (lineno, f["kind"], f["spi"], err))
        else:
            passed += 1
    for gap in coverage(seen):
        print("FAIL coverage: %s" % gap)
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
