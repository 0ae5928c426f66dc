#!/usr/bin/env python3
# The build's id: a SHA-256 over the measuring library's objects, written as
# build_id.h (KB_BUILD_ID) for kbench and kbench-worker alike, so that the
# front end can refuse a worker built from other code or other flags.
# Usage: build_id.py ARCHIVE OUTPUT
# The archive may be thin (meson makes uninstalled static libraries thin):
# then it lists its members' paths, relative to itself, and their contents
# are hashed instead, since a thin archive is the same bytes after any
# change to them.
import hashlib
import os
import sys


def members(path):
    """The thin archive's member paths, or None when the archive is a regular one."""
    with open(path, 'rb') as f:
        data = f.read()
    if not data.startswith(b'!<thin>\n'):
        return None
    names, table, pos = [], b'', 8
    while pos + 60 <= len(data):
        head = data[pos:pos + 60]
        name = head[:16].rstrip()
        size = int(head[48:58])
        pos += 60
        if name == b'//':
            table = data[pos:pos + size]
            pos += size + (size & 1)
        elif name in (b'/', b'/SYM64/'):
            pos += size + (size & 1)
        else:
            # A thin archive's member has no data here: only its header.
            if name.startswith(b'/') and name[1:].isdigit():
                start = int(name[1:])
                end = table.index(b'/\n', start)
                name = table[start:end]
            else:
                name = name.rstrip(b'/')
            names.append(name.decode())
    return names


def main():
    archive, out = sys.argv[1], sys.argv[2]
    h = hashlib.sha256()
    listed = members(archive)
    if listed is None:
        with open(archive, 'rb') as f:
            h.update(f.read())
    else:
        base = os.path.dirname(archive)
        for name in listed:
            path = name if os.path.isabs(name) else os.path.join(base, name)
            h.update(name.encode() + b'\0')
            with open(path, 'rb') as f:
                h.update(f.read())
    text = ('/* Made by scripts/build_id.py from %s: do not edit. */\n'
            '#define KB_BUILD_ID "%s"\n' % (os.path.basename(archive), h.hexdigest()))
    with open(out, 'w') as f:
        f.write(text)


main()
