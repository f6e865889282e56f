#!/usr/bin/env python3
"""Loads web pages in headless Chromium through chromedriver (WebDriver over
HTTP, python3 standard library only), checks what each page shows and saves
screenshots. Driven by tests/web/browser_test.cc, which starts the cluster.

Usage: browser_check.py SPEC.json

SPEC: {"chromium": path, "chromedriver": path, "out_dir": dir,
       "pages": [{"name": str, "url": str, "expect": [str, ...],
                  "reject": [str, ...], "title": str (substring),
                  "screenshot": bool}, ...]}

Each expected string must appear in the rendered page text (what a user
sees, via the body's innerText) or, if it starts with "html:", in the DOM
source; each rejected one must not appear in the text. Screenshots and the
DOM source of every page land in out_dir (<name>.png, <name>.html).
Prints one line per page; exits 1 if any check failed, 2 on setup errors.
"""

import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


class Driver:
    """A chromedriver process and one headless Chromium session."""

    def __init__(self, chromedriver, chromium, profile_dir):
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        sock.close()
        self.proc = subprocess.Popen(
            [chromedriver, "--port=%d" % self.port],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.session = None
        deadline = time.time() + 30
        while True:
            try:
                self.call("GET", "/status")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.time() > deadline or self.proc.poll() is not None:
                    raise RuntimeError("chromedriver did not start")
                time.sleep(0.1)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--window-size=1280,1400",
                "--user-data-dir=" + profile_dir]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args}}}}
        value = self.call("POST", "/session", caps)
        self.session = value["sessionId"]

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            "http://127.0.0.1:%d%s" % (self.port, path), data=data,
            method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as resp:
                return json.load(resp).get("value")
        except urllib.error.HTTPError as e:
            detail = e.read().decode("utf-8", "replace")
            raise RuntimeError("WebDriver %s %s: HTTP %d %s" % (method, path, e.code, detail))

    def s(self, path):
        return "/session/%s%s" % (self.session, path)

    def load(self, url):
        self.call("POST", self.s("/url"), {"url": url})
        source = self.call("GET", self.s("/source"))
        title = self.call("GET", self.s("/title"))
        text = self.call("POST", self.s("/execute/sync"),
                         {"script": "return document.body ? document.body.innerText : '';",
                          "args": []})
        return source, title, text or ""

    def screenshot(self, path):
        png = base64.b64decode(self.call("GET", self.s("/screenshot")))
        with open(path, "wb") as f:
            f.write(png)

    def close(self):
        try:
            if self.session:
                self.call("DELETE", self.s(""))
        finally:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    out_dir = spec["out_dir"]
    os.makedirs(out_dir, exist_ok=True)
    # No desktop session here: keep Chromium from waiting on D-Bus.
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ics-chromium-") as profile:
        try:
            driver = Driver(spec["chromedriver"], spec["chromium"], profile)
        except Exception as e:  # noqa: BLE001 - report any setup failure
            print("SETUP FAILED: %s" % e)
            return 2
        try:
            for page in spec["pages"]:
                name = page["name"]
                try:
                    source, title, text = driver.load(page["url"])
                except Exception as e:  # noqa: BLE001
                    print("FAIL %s %s: %s" % (name, page["url"], e))
                    failures += 1
                    continue
                with open(os.path.join(out_dir, name + ".html"), "w") as f:
                    f.write(source)
                problems = []
                if "title" in page and page["title"] not in title:
                    problems.append("title %r lacks %r" % (title, page["title"]))
                for want in page.get("expect", []):
                    if want.startswith("html:"):
                        if want[5:] not in source:
                            problems.append("DOM lacks %r" % want[5:])
                    elif want not in text:
                        problems.append("page text lacks %r" % want)
                for bad in page.get("reject", []):
                    if bad in text:
                        problems.append("page text has %r" % bad)
                shot = ""
                if page.get("screenshot"):
                    shot = os.path.join(out_dir, name + ".png")
                    driver.screenshot(shot)
                if problems:
                    failures += 1
                    print("FAIL %s %s: %s" % (name, page["url"], "; ".join(problems)))
                    print("  page text: %s" % text[:2000].replace("\n", " | "))
                else:
                    print("PASS %s %s (title %r, %d chars)%s" % (
                        name, page["url"], title, len(text),
                        (" screenshot " + shot) if shot else ""))
        finally:
            driver.close()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
