#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check lab/pkt.c frames against scapy.

Usage: /tmp/pkt_dump | /usr/bin/python3 tests/lab/check_pkt_scapy.py

Reads "<case> <hex>" lines from tests/lab/pkt_dump.c. For each case this
file says, independently of the C code, which layers the frame must hold and
what their fields are. Then every checksum, length and next-protocol field
is deleted and scapy rebuilds the frame: the rebuild must equal our bytes.
"""
import logging
import sys

logging.getLogger("scapy.runtime").setLevel(logging.ERROR)

from scapy.all import (ESP, ICMP, IP, TCP, UDP, Dot1AD, Dot1Q,  # noqa: E402
                       Ether, ICMPv6EchoRequest, IPv6, IPv6ExtHdrDestOpt,
                       IPv6ExtHdrFragment, IPv6ExtHdrHopByHop,
                       IPv6ExtHdrRouting, NoPayload, PadN, Raw)

# The pattern is arbitrary bytes; port-based guesses (DNS on 5353, DHCPv6
# on 546/547, ...) would dissect it as an application and muddle the rebuild.
TCP.payload_guess = []
UDP.payload_guess = []

DMAC = "02:00:00:00:00:01"
SMAC = "02:00:00:00:00:02"


def pattern(n):
    return bytes((i * 7 + 3) & 0xFF for i in range(n))


def v4(**kw):
    d = dict(version=4, ihl=5, src="10.0.0.1", dst="10.0.1.1", ttl=64, tos=0,
             id=0, fragfield=0x4000)
    d.update(kw)
    return d


def v6(**kw):
    d = dict(version=6, src="fd00::1", dst="fd00:1::1", hlim=64, tc=0, fl=0)
    d.update(kw)
    return d


def tcp(**kw):
    d = dict(sport=40000, dport=80, seq=1, ack=1, dataofs=5, reserved=0,
             flags=0x18, window=65535, urgptr=0)
    d.update(kw)
    return d


def udp(n, **kw):
    d = dict(sport=40000, dport=80, len=8 + n)
    d.update(kw)
    return d


ECHO = dict(code=0, id=1, seq=1)


def case(layers, payload=32, tags=(), ip=None, l4=None, ext=None,
         dmac=DMAC, ethertype=None):
    return dict(layers=layers, payload=payload, tags=list(tags), ip=ip, l4=l4,
                ext=ext, dmac=dmac, ethertype=ethertype)


# Only the fields a case sets differently from hx_frame_spec_init() are
# spelled out; everything else comes from the defaults above.
CASES = {
    "v4_tcp": case(["Ether", "IP", "TCP", "Raw"], ip=v4(proto=6),
                   l4=(TCP, tcp())),
    "v4_tcp_empty": case(["Ether", "IP", "TCP"], payload=0, ip=v4(proto=6),
                         l4=(TCP, tcp())),
    "v4_udp": case(["Ether", "IP", "UDP", "Raw"], payload=37,
                   ip=v4(proto=17, src="192.168.7.9", dst="172.16.254.3",
                         tos=0xB8, ttl=17, id=0x1234, fragfield=0),
                   l4=(UDP, udp(37, sport=5353, dport=4789))),
    "v4_udp_csum0": case(["Ether", "IP", "UDP", "Raw"], ip=v4(proto=17),
                         l4=(UDP, dict(dport=80, len=40, chksum=0xFFFF))),
    "v4_icmp": case(["Ether", "IP", "ICMP", "Raw"], payload=56,
                    ip=v4(proto=1), l4=(ICMP, dict(type=8, **ECHO))),
    "v4_options": case(["Ether", "IP", "TCP", "Raw"], ip=v4(proto=6, ihl=7),
                       l4=(TCP, tcp())),
    "v4_frag_first": case(["Ether", "IP", "UDP", "Raw"],
                          ip=v4(proto=17, id=0xBEEF, fragfield=0x2000),
                          l4=(UDP, udp(32))),
    # a later fragment has no L4 header: scapy must see bare payload
    "v4_frag_later": case(["Ether", "IP", "Raw"], payload=100,
                          ip=v4(proto=6, id=0xBEEF, fragfield=185)),
    "v4_esp": case(["Ether", "IP", "ESP"], payload=48, ip=v4(proto=50),
                   l4=(ESP, dict(spi=0x1001, seq=7))),
    "v4_other": case(["Ether", "IP", "Raw"], payload=20, ip=v4(proto=253)),
    "v6_tcp": case(["Ether", "IPv6", "TCP", "Raw"], payload=1,
                   ip=v6(nh=6, plen=21), l4=(TCP, tcp())),
    "v6_udp": case(["Ether", "IPv6", "UDP", "Raw"],
                   ip=v6(nh=17, src="2001:db8:1:2::abcd",
                         dst="2001:db8:ffff::1", tc=0xB8, hlim=5),
                   l4=(UDP, udp(32, sport=546, dport=547))),
    "v6_udp_csum0": case(["Ether", "IPv6", "UDP", "Raw"], ip=v6(nh=17),
                         l4=(UDP, dict(dport=80, len=40, chksum=0xFFFF))),
    "v6_icmpv6": case(["Ether", "IPv6", "ICMPv6EchoRequest"], ip=v6(nh=58),
                      l4=(ICMPv6EchoRequest, dict(type=128, **ECHO))),
    "v6_hbh": case(["Ether", "IPv6", "IPv6ExtHdrHopByHop", "TCP", "Raw"],
                   ip=v6(nh=0, plen=8 + 20 + 32),
                   ext=(IPv6ExtHdrHopByHop, dict(nh=6, len=0)),
                   l4=(TCP, tcp())),
    "v6_routing": case(["Ether", "IPv6", "IPv6ExtHdrRouting", "UDP", "Raw"],
                       ip=v6(nh=43, plen=8 + 8 + 32),
                       ext=(IPv6ExtHdrRouting,
                            dict(nh=17, len=0, type=0, segleft=0,
                                 addresses=[])),
                       l4=(UDP, udp(32))),
    "v6_dstopts": case(["Ether", "IPv6", "IPv6ExtHdrDestOpt",
                        "ICMPv6EchoRequest"],
                       ip=v6(nh=60, plen=8 + 8 + 32),
                       ext=(IPv6ExtHdrDestOpt, dict(nh=58, len=0)),
                       l4=(ICMPv6EchoRequest, dict(type=128, **ECHO))),
    "v6_frag": case(["Ether", "IPv6", "IPv6ExtHdrFragment", "UDP", "Raw"],
                    ip=v6(nh=44, plen=8 + 8 + 32),
                    ext=(IPv6ExtHdrFragment,
                         dict(nh=17, offset=0, m=0, id=0x4242)),
                    l4=(UDP, udp(32))),
    "v6_esp": case(["Ether", "IPv6", "ESP"], ip=v6(nh=50, plen=8 + 32),
                   l4=(ESP, dict(spi=0xDEADBEEF, seq=0x01020304))),
    "vlan50_pcp5": case(["Ether", "Dot1Q", "IP", "TCP", "Raw"],
                        tags=[("Dot1Q", 50, 5, 0)], ip=v4(proto=6),
                        l4=(TCP, tcp())),
    "vlan4094_dei_v6": case(["Ether", "Dot1Q", "IPv6", "UDP", "Raw"],
                            tags=[("Dot1Q", 4094, 7, 1)], ip=v6(nh=17),
                            l4=(UDP, udp(32))),
    "qinq_88a8": case(["Ether", "Dot1AD", "Dot1Q", "IP", "UDP", "Raw"],
                      tags=[("Dot1AD", 100, 0, 0), ("Dot1Q", 50, 3, 0)],
                      ip=v4(proto=17), l4=(UDP, udp(32))),
    "qinq_8100_v6": case(["Ether", "Dot1Q", "Dot1Q", "IPv6", "TCP", "Raw"],
                         tags=[("Dot1Q", 200, 0, 0), ("Dot1Q", 300, 0, 0)],
                         ip=v6(nh=6), l4=(TCP, tcp())),
    # family 0: the ethertype and the pattern, nothing else
    "arp": case(None, payload=28, dmac="ff:ff:ff:ff:ff:ff", ethertype=0x0806),
}

# Fields scapy computes when deleted. The next-protocol fields are only
# deleted when scapy knows the layer above, else it would fall back to a
# default instead of deriving them.
COMPUTED = {
    IP: ("ihl", "len", "chksum"),
    IPv6: ("plen",),
    IPv6ExtHdrHopByHop: ("len",),
    IPv6ExtHdrDestOpt: ("len",),
    IPv6ExtHdrRouting: ("len",),
    TCP: ("dataofs", "chksum"),
    UDP: ("len", "chksum"),
    ICMP: ("chksum",),
    ICMPv6EchoRequest: ("cksum",),
}
NEXT_PROTO = {Ether: "type", Dot1Q: "type", Dot1AD: "type", IP: "proto",
              IPv6: "nh", IPv6ExtHdrHopByHop: "nh", IPv6ExtHdrDestOpt: "nh",
              IPv6ExtHdrRouting: "nh", IPv6ExtHdrFragment: "nh"}


def layer_names(p):
    return [cls.__name__ for cls in p.layers()]


def payload_of(p):
    if ESP in p:
        return bytes(p[ESP].data)
    if ICMPv6EchoRequest in p:
        return bytes(p[ICMPv6EchoRequest].data)
    if Raw in p:
        return bytes(p[Raw].load)
    return b""


def check_fields(errs, what, layer, fields):
    for name, want in fields.items():
        got = layer.getfieldval(name)
        if name == "flags":
            got = got.value
        if got != want:
            errs.append("%s.%s = %r, want %r" % (what, name, got, want))


def rebuild(p):
    q = p.copy()
    for layer in iter_layers(q):
        if isinstance(layer, Raw):
            break
        for name in COMPUTED.get(type(layer), ()):
            delattr(layer, name)
        above = layer.payload
        if type(layer) in NEXT_PROTO and \
                not isinstance(above, (Raw, NoPayload)):
            delattr(layer, NEXT_PROTO[type(layer)])
    return bytes(q)


def check(name, raw):
    want = CASES[name]
    errs = []
    p = Ether(raw)

    if p.dst != want["dmac"] or p.src != SMAC:
        errs.append("MACs %s > %s" % (p.src, p.dst))

    if want["layers"] is None:
        # raw ethertype: scapy may dissect the pattern (ARP here), so
        # look at bytes, not at what it makes of them
        if p.type != want["ethertype"]:
            errs.append("ethertype 0x%04x" % p.type)
        if bytes(p.payload) != pattern(want["payload"]):
            errs.append("payload is not the pattern")
        if len(raw) != 14 + want["payload"]:
            errs.append("length %d" % len(raw))
        return errs

    got_layers = layer_names(p)
    if got_layers != want["layers"]:
        return ["layers %s, want %s" % (got_layers, want["layers"])]

    tags = [(type(t).__name__, t.vlan, t.prio, t.id)
            for t in iter_layers(p) if isinstance(t, Dot1Q)]
    if tags != want["tags"]:
        errs.append("tags %s, want %s" % (tags, want["tags"]))

    ipf = dict(want["ip"])
    ip_len = len(raw) - 14 - 4 * len(want["tags"])
    if ipf["version"] == 4:
        ip = p[IP]
        frag = ipf.pop("fragfield")
        got = int(ip.flags) << 13 | ip.frag
        if got != frag:
            errs.append("IP flags+frag 0x%04x, want 0x%04x" % (got, frag))
        if ipf["ihl"] > 5:
            opts = bytes(ip)[20:ipf["ihl"] * 4]
            nopts = (ipf["ihl"] - 5) * 4
            if opts != b"\x01" * (nopts - 1) + b"\x00":
                errs.append("IP options %s" % opts.hex())
        ipf["len"] = ip_len
    else:
        ip = p[IPv6]
        ipf.setdefault("plen", ip_len - 40)
    check_fields(errs, type(ip).__name__, ip, ipf)

    if want["ext"]:
        cls, fields = want["ext"]
        check_fields(errs, cls.__name__, p[cls], fields)
        if cls in (IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt):
            opts = p[cls].options
            if len(opts) != 1 or not isinstance(opts[0], PadN) or \
                    opts[0].optlen != 4:
                errs.append("%s options %r" % (cls.__name__, opts))

    if want["l4"]:
        cls, fields = want["l4"]
        check_fields(errs, cls.__name__, p[cls], fields)

    if payload_of(p) != pattern(want["payload"]):
        errs.append("payload %s is not %d pattern bytes"
                    % (payload_of(p).hex(), want["payload"]))

    again = rebuild(p)
    if again != raw:
        first = next((i for i in range(min(len(again), len(raw)))
                      if again[i] != raw[i]), min(len(again), len(raw)))
        errs.append("scapy rebuild differs at byte %d: ours %s, scapy %s"
                    % (first, raw[first:first + 4].hex(),
                       again[first:first + 4].hex()))
    return errs


def iter_layers(p):
    layer = p
    while not isinstance(layer, NoPayload):
        yield layer
        layer = layer.payload


def main():
    passed = failed = 0
    seen = set()
    for lineno, line in enumerate(sys.stdin, 1):
        line = line.strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 2 or parts[0] not in CASES or parts[0] in seen:
            print("FAIL line %d: unexpected %r" % (lineno, line[:60]))
            failed += 1
            continue
        name = parts[0]
        seen.add(name)
        try:
            errs = check(name, bytes.fromhex(parts[1]))
        except Exception as e:  # a dissection crash is a failure too
            errs = ["exception %s: %s" % (type(e).__name__, e)]
        if errs:
            failed += 1
            for err in errs:
                print("FAIL %s: %s" % (name, err))
        else:
            passed += 1
    for name in CASES:
        if name not in seen:
            print("FAIL %s: missing from input" % name)
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
