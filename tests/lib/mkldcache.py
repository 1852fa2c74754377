#!/usr/bin/env python3
"""Writes an ld.so.cache from a small spec, in any of the three layouts.

glibc 2.36's ldconfig writes only the new format (its -c old and -c compat
abort), so the tests of the old layouts build them here, byte for byte as
glibc's elf/cache.c lays them out.

    mkldcache.py SPEC OUT

SPEC, one directive a line ("#" starts a comment):

    format new|old|old+new
    generator TEXT            the extension's generator string (new part)
    hwcaps NAME...            the glibc-hwcaps names of the extension, in
                              this order (ldconfig sorts them)
    hwcaps-base file|new      what their string offsets count from: the
                              start of the file, as the loader reads them
                              (default), or the new header, as ldconfig's
                              compat writer puts them
    endian N                  the new header's byte order mark (default 2)
    entry KEY FLAGS PATH [hwcap=N] [subdir=NAME] [isa=N] [osversion=N]
                              an entry; subdir= makes a glibc-hwcaps entry
                              for that name
    order ldconfig|as-given   sort the entries as ldconfig does (default:
                              names in descending _dl_cache_libcmp order,
                              then flags descending, glibc-hwcaps entries
                              first by name, then the most hwcap bits), or
                              keep the spec's order
    poke OFFSET SIZE VALUE    then overwrite SIZE (1, 4 or 8) bytes at
                              OFFSET with VALUE, little-endian
    truncate N                then cut the file to N bytes

Numbers may be written in hex (0x303). Old-format entries are the ones
with hwcap 0 and no subdir; as ldconfig does, the old part of old+new gets
an even count by repeating its last entry.
"""

import functools
import struct
import sys

OLD_MAGIC = b"ld.so-1.7.0"
NEW_MAGIC = b"glibc-ld.so.cache1.1"
EXT_MAGIC = (-358342284) & 0xFFFFFFFF
HWCAP_EXTENSION = 1 << 62


def die(msg):
    sys.stderr.write("mkldcache.py: %s\n" % msg)
    sys.exit(2)


def num(s):
    return int(s, 0)


def parse_spec(path):
    spec = {"format": "new", "generator": None, "hwcaps": [],
            "hwcaps_base": "file", "endian": 2, "entries": [], "pokes": [],
            "truncate": None, "order": "ldconfig"}
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            word, _, rest = line.partition(" ")
            args = rest.split()
            if word == "format" and args and args[0] in ("new", "old", "old+new"):
                spec["format"] = args[0]
            elif word == "generator":
                spec["generator"] = rest
            elif word == "hwcaps":
                spec["hwcaps"] = args
            elif word == "hwcaps-base" and args and args[0] in ("file", "new"):
                spec["hwcaps_base"] = args[0]
            elif word == "endian" and len(args) == 1:
                spec["endian"] = num(args[0])
            elif word == "entry" and len(args) >= 3:
                e = {"key": args[0], "flags": num(args[1]), "path": args[2],
                     "hwcap": 0, "subdir": None, "isa": 0, "osversion": 0}
                for opt in args[3:]:
                    k, _, v = opt.partition("=")
                    if k == "subdir":
                        e["subdir"] = v
                    elif k in ("hwcap", "isa", "osversion"):
                        e[k] = num(v)
                    else:
                        die("%s:%d: unknown option %s" % (path, lineno, opt))
                spec["entries"].append(e)
            elif word == "poke" and len(args) == 3 and num(args[1]) in (1, 4, 8):
                spec["pokes"].append((num(args[0]), num(args[1]), num(args[2])))
            elif word == "order" and args and args[0] in ("ldconfig", "as-given"):
                spec["order"] = args[0]
            elif word == "truncate" and len(args) == 1:
                spec["truncate"] = num(args[0])
            else:
                die("%s:%d: cannot read: %s" % (path, lineno, line))
    return spec


class Strings:
    """A string table: each string once, NUL-terminated."""

    def __init__(self):
        self.data = bytearray()
        self.at = {}

    def add(self, s):
        if s not in self.at:
            self.at[s] = len(self.data)
            self.data += s.encode() + b"\0"
        return self.at[s]


def libcmp(p1, p2):
    """glibc's _dl_cache_libcmp (ASCII names)."""
    i = j = 0
    while i < len(p1):
        if p1[i].isdigit():
            if j < len(p2) and p2[j].isdigit():
                a = i
                while i < len(p1) and p1[i].isdigit():
                    i += 1
                b = j
                while j < len(p2) and p2[j].isdigit():
                    j += 1
                v1, v2 = int(p1[a:i]), int(p2[b:j])
                if v1 != v2:
                    return v1 - v2
            else:
                return 1
        elif j < len(p2) and p2[j].isdigit():
            return -1
        elif j >= len(p2) or p1[i] != p2[j]:
            return ord(p1[i]) - (ord(p2[j]) if j < len(p2) else 0)
        else:
            i += 1
            j += 1
    return -(ord(p2[j]) if j < len(p2) else 0)


def ldconfig_order(entries):
    """elf/cache.c's compare(), as the order add_to_cache keeps."""
    def cmp(e1, e2):
        res = libcmp(e2["key"], e1["key"])
        if res != 0:
            return res
        if e1["flags"] != e2["flags"]:
            return -1 if e1["flags"] > e2["flags"] else 1
        h1, h2 = e1["subdir"], e2["subdir"]
        if h1 is not None and h2 is None:
            return -1
        if h1 is None and h2 is not None:
            return 1
        if h1 is not None and h1 != h2:
            return -1 if h1 < h2 else 1
        for a, b in ((bin(e1["hwcap"]).count("1"), bin(e2["hwcap"]).count("1")),
                     (e1["hwcap"], e2["hwcap"]), (e1["osversion"], e2["osversion"])):
            if a != b:
                return -1 if a > b else 1
        return 0

    return sorted(entries, key=functools.cmp_to_key(cmp))


def hwcap_of(spec, e):
    if e["subdir"] is None:
        return e["hwcap"]
    if e["subdir"] not in spec["hwcaps"]:
        die("entry %s: subdir %s is not in the hwcaps line" % (e["key"], e["subdir"]))
    return HWCAP_EXTENSION | (e["isa"] << 32) | spec["hwcaps"].index(e["subdir"])


def build(spec):
    fmt = spec["format"]
    entries = spec["entries"]
    if spec["order"] == "ldconfig":
        entries = ldconfig_order(entries)
    strings = Strings()
    for e in entries:
        strings.add(e["key"])
        strings.add(e["path"])
    for name in spec["hwcaps"]:
        strings.add(name)

    old = [e for e in entries if e["hwcap"] == 0 and e["subdir"] is None]
    if fmt == "old+new" and len(old) % 2 == 1:
        old.append(old[-1])

    out = bytearray()
    new_size = 48 + 24 * len(entries)
    if fmt in ("old", "old+new"):
        old_size = 16 + 12 * len(old)
        pad = (-old_size) % 8 if fmt == "old+new" else 0
        # Old string offsets count from the end of the old entries; the
        # new part, when there is one, comes first in that table.
        shift = pad + (new_size if fmt == "old+new" else 0)
        out += OLD_MAGIC + b"\0" + struct.pack("<I", len(old))
        for e in old:
            out += struct.pack("<iII", e["flags"], shift + strings.at[e["key"]],
                               shift + strings.at[e["path"]])
        out += b"\0" * pad
    if fmt == "old":
        out += strings.data
        return out

    new_at = len(out)
    strings_at = new_at + new_size
    ext_at = (strings_at + len(strings.data) + 3) & ~3
    header = bytearray(NEW_MAGIC)
    header += struct.pack("<II", len(entries), len(strings.data))
    header += struct.pack("<B3xI12x", spec["endian"], ext_at)
    out += header
    for e in entries:
        out += struct.pack("<iIIIQ", e["flags"], new_size + strings.at[e["key"]],
                           new_size + strings.at[e["path"]], e["osversion"],
                           hwcap_of(spec, e))
    out += strings.data
    out += b"\0" * (ext_at - len(out))

    sections = []
    gen = spec["generator"].encode() if spec["generator"] is not None else None
    names = spec["hwcaps"]
    body_at = ext_at + 8 + 16 * ((gen is not None) + bool(names))
    body = bytearray()
    if names:
        base = strings_at if spec["hwcaps_base"] == "file" else new_size
        sections.append((1, body_at + len(body), 4 * len(names)))
        for name in names:
            body += struct.pack("<I", base + strings.at[name])
    if gen is not None:
        sections.append((0, body_at + len(body), len(gen)))
        body += gen
    out += struct.pack("<II", EXT_MAGIC, len(sections))
    for tag, off, size in sections:
        out += struct.pack("<IIII", tag, 0, off, size)
    out += body
    return out


def main():
    if len(sys.argv) != 3:
        die("usage: mkldcache.py SPEC OUT")
    spec = parse_spec(sys.argv[1])
    out = build(spec)
    for off, size, value in spec["pokes"]:
        if off + size > len(out):
            die("poke at %d runs past the end (%d bytes)" % (off, len(out)))
        fmt = {1: "<B", 4: "<I", 8: "<Q"}[size]
        out[off:off + size] = struct.pack(fmt, value & ((1 << (8 * size)) - 1))
    if spec["truncate"] is not None:
        out = out[:spec["truncate"]]
    with open(sys.argv[2], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
