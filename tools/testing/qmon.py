#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run QEMU human-monitor commands on a unix socket, print their output.

Usage: qmon.py <socket> <command>...   (vm.sh: a stalled guest's state)
"""
import re
import socket
import sys
import time

PROMPT = b"(qemu) "
# the monitor echoes each command with cursor movements
ESCAPES = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def read_prompt(sock, limit=20.0):
    """Read until the monitor's prompt, or until @limit seconds passed."""
    buf = b""
    end = time.monotonic() + limit
    while not buf.endswith(PROMPT) and time.monotonic() < end:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        buf += chunk
    return buf


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: qmon.py <socket> <command>...")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(1.0)
    sock.connect(sys.argv[1])
    read_prompt(sock)
    for cmd in sys.argv[2:]:
        sock.sendall(cmd.encode() + b"\n")
        out = read_prompt(sock).decode(errors="replace").replace("\r", "")
        if out.endswith(PROMPT.decode()):
            out = out[: -len(PROMPT)]
        # drop the echo: the first line
        out = ESCAPES.sub("", out).split("\n", 1)[-1]
        print("=== " + cmd)
        print(out.strip("\n"))
    sock.close()


if __name__ == "__main__":
    main()
