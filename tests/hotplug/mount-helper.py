#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mount-helper.py - mounts block's "mounted in dom0" check must get right,
made with mount(2) itself (mount(8) canonicalises and stats names; these
are names it could not reach or must not touch). Run in the test's
private mount namespace (tests/hotplug/block-mounts.sh).

  deep BASE LEN TAIL SOURCE FSTYPE [DATA]
      mount SOURCE (FSTYPE) on BASE/d.../TAIL, nested directories making
      the mount point LEN bytes long (over PATH_MAX: reached by chdir).
  fuse SOURCE TARGET READY
      a FUSE mount of TARGET whose source is SOURCE and whose daemon never
      answers: the kernel's requests to it (lookup, getattr) wait until
      this process ends (it holds /dev/fuse open, never reads it). Touches
      READY once mounted, then sleeps until killed.
  mount SOURCE TARGET FSTYPE [DATA]
      mount(2) as given, the source never looked at.
"""
import ctypes
import os
import signal
import sys
import time

libc = ctypes.CDLL(None, use_errno=True)


def mount(source, target, fstype, data=None):
    if libc.mount(source.encode(), target.encode(), fstype.encode(), 0,
                  data.encode() if data else None) != 0:
        e = ctypes.get_errno()
        sys.exit(f"mount-helper: mount {source} {target} -t {fstype}: {os.strerror(e)}")


def deep(base, length, tail, source, fstype, data=None):
    # BASE/FILLER/TAIL, FILLER components of at most 200 bytes
    rest = int(length) - len(base) - len(tail) - 2
    if rest < 1:
        sys.exit(f"mount-helper: {length} bytes is too short for {base} and {tail}")
    names = []
    while rest > 200:
        take = min(200, rest - 2)
        names.append("d" * take)
        rest -= take + 1
    names.append("d" * rest)
    names += tail.split("/")
    os.chdir(base)
    for name in names[:-1]:
        os.makedirs(name, exist_ok=True)
        os.chdir(name)
    os.makedirs(names[-1], exist_ok=True)
    mount(source, names[-1], fstype, data)


def fuse(source, target, ready):
    fd = os.open("/dev/fuse", os.O_RDWR)
    mount(source, target, "fuse",
          f"fd={fd},rootmode=40000,user_id=0,group_id=0,allow_other")
    open(ready, "w").close()
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"deep": deep, "fuse": fuse, "mount": mount}[cmd](*args)
