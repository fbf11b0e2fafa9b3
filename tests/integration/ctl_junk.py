#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Throws malformed and nonsense requests at hwxdpd's control socket for a
time: bad magic, unknown versions and types, flags, oversized and truncated
frames, payloads whose words do not parse, random words, and well-formed
requests of the commands that only read. Nothing it sends changes the
daemon's state: no add, del, load, update, set. Prints what it sent and how
many replies came back.

usage: ctl_junk.py SOCKET SECONDS SEED"""
import random
import socket
import struct
import sys
import time

MAGIC, VERSION, REQUEST = 0x50445848, 1, 1
path, seconds, seed = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)
READ_ONLY = [["port", "list"], ["port", "show", "p0"], ["lif", "list"], ["flow", "list"],
             ["map", "list"], ["map", "dump", "fwd/config"], ["stats"], ["daemon", "status"],
             ["prog", "list"], ["map", "lookup", "fwd/config", "key", "0", "0", "0", "0"]]
JUNK_WORDS = ["port", "lif", "map", "flow", "prog", "show", "list", "vlan", "key", "value",
              "hex", "target", "device", "", "-1", "4095", "99999999999", "\xff", "p0", "p9"]


def header(length, magic=MAGIC, version=VERSION, typ=REQUEST, flags=0, seq=1):
    return struct.pack("<IHHIIQ", magic, version, typ, flags, length, seq)


def words(ws):
    body = struct.pack("<I", len(ws)) + b"".join(w.encode("utf-8", "surrogateescape") + b"\0"
                                                 for w in ws)
    return header(len(body), seq=rng.randrange(1 << 32)) + body


def frame():
    kind = rng.randrange(10)
    if kind == 0:
        return header(8, magic=rng.randrange(1 << 32)) + bytes(8)
    if kind == 1:
        return header(4, version=rng.choice([0, 2, 0xffff])) + bytes(4)
    if kind == 2:
        return header(4, typ=rng.choice([0, 2, 3, 0xffff]), flags=rng.randrange(2)) + bytes(4)
    if kind == 3:
        return header(rng.choice([65537, 1 << 31, 0xffffffff]))
    if kind == 4:
        return None  # a frame cut in its header, then the peer goes
    if kind == 5:
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        return header(len(body)) + body
    if kind == 6:  # a count that lies, a word without its NUL
        body = struct.pack("<I", rng.randrange(1 << 32)) + b"port"
        return header(len(body)) + body
    if kind == 7:
        return words([rng.choice(JUNK_WORDS) for _ in range(rng.randrange(1, 8))])
    return words(rng.choice(READ_ONLY))


sent = replies = 0
end = time.time() + seconds
while time.time() < end:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(0.3)
    try:
        s.connect(path)
        for _ in range(rng.randrange(1, 5)):
            f = frame()
            sent += 1
            if f is None:
                s.sendall(header(100)[: rng.randrange(1, 24)])
                break
            s.sendall(f)
            try:
                if s.recv(65536):
                    replies += 1
            except socket.timeout:
                break
    except (BrokenPipeError, ConnectionResetError, socket.timeout):
        pass
    finally:
        s.close()
print("%d requests, %d replies" % (sent, replies))
