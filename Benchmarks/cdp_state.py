#!/usr/bin/env python3
"""Prints window.pinchlab.state() of a page after SECONDS of real time, as JSON.

    Benchmarks/cdp_state.py URL SECONDS

Headless chromium's --dump-dom cannot wait for a live page without virtual time, and virtual time
stops the page's clock while its event stream is open; so this drives chromium over the DevTools
protocol on --remote-debugging-pipe (file descriptors 3 and 4, NUL-separated JSON), with the
standard library only.
"""
import json, os, subprocess, sys, tempfile, time

url, seconds = sys.argv[1], float(sys.argv[2])
profile = tempfile.mkdtemp(prefix="pinchlab-cdp-")
to_chromium_r, to_chromium_w = os.pipe()
from_chromium_r, from_chromium_w = os.pipe()


def wire_pipes():
    os.dup2(to_chromium_r, 3)
    os.dup2(from_chromium_w, 4)


browser = subprocess.Popen(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
     "--user-data-dir=" + profile, url],
    pass_fds=(3, 4), preexec_fn=wire_pipes, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.close(to_chromium_r)
os.close(from_chromium_w)
pending = b""


def send(message):
    os.write(to_chromium_w, json.dumps(message).encode() + b"\0")


def reply(message_id, deadline=time.time() + 60):
    global pending
    while time.time() < deadline:
        while b"\0" in pending:
            raw, pending = pending.split(b"\0", 1)
            message = json.loads(raw)
            if message.get("id") == message_id:
                return message
        chunk = os.read(from_chromium_r, 1 << 20)
        if not chunk:
            sys.exit("chromium closed the pipe")
        pending += chunk
    sys.exit("no reply from chromium")


try:
    send({"id": 1, "method": "Target.getTargets"})
    page = [t for t in reply(1)["result"]["targetInfos"] if t["type"] == "page"][0]
    send({"id": 2, "method": "Target.attachToTarget", "params": {"targetId": page["targetId"], "flatten": True}})
    session = reply(2)["result"]["sessionId"]
    time.sleep(seconds)
    send({"id": 3, "sessionId": session, "method": "Runtime.evaluate",
          "params": {"expression": "JSON.stringify(window.pinchlab.state())", "returnByValue": True}})
    print(reply(3)["result"]["result"]["value"])
finally:
    browser.terminate()
    browser.wait(timeout=10)
    subprocess.run(["rm", "-rf", profile])
