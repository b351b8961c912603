#!/usr/bin/env python3
"""Writes a seed for the pipeline fuzzer from an evemu recording's E: lines.

    Fuzz/make-pipeline-seed.py IN.evemu DEVICE TRANSITION OUT [MAX_EVENTS]

DEVICE and TRANSITION are the indices PipelineFuzz.swift reads from bytes 0 and 1
(devices: 0 touchpad, 1 touchscreen, 2 protocol-A touchscreen, 3 touchpad without resolution;
transitions: TransitionName.allCases order). The committed seeds under Fuzz/corpus/pipeline were
made with it; the fuzz run itself does not need Python."""
import struct
import sys

source, device, transition, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
limit = int(sys.argv[5]) if len(sys.argv) > 5 else 400
data = bytearray([device, transition, 0])
last = None
count = 0
for line in open(source):
    if not line.startswith("E:") or count >= limit:
        continue
    fields = line.split()
    seconds, micros = fields[1].split(".")
    t = int(seconds) * 1_000_000 + int(micros)
    step = 0 if last is None else max(0, min(t - last, 0xFFFFFE))
    last = t
    data += struct.pack("<BHi", int(fields[2], 16), int(fields[3], 16), int(fields[4]))
    data += step.to_bytes(3, "little")
    count += 1
open(out, "wb").write(data)
