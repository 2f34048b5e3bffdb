#!/usr/bin/python3
"""Drives a real browser with xdg-share's Web Share extension loaded, on a page served here.

Usage: web_driver.py chromium|firefox EXTENSION SITE STEP

Serves the folder SITE on 127.0.0.1, starts the browser (headless: the share sheet the host opens
is on DISPLAY) with the extension EXTENSION loaded unpacked and its profile where
`xdg-share register` wrote the host's manifest (Chromium: $XDG_CONFIG_HOME/chromium; Firefox:
$HOME/.mozilla, a profile of its own), loads the page and runs STEP:

  probe        prints `probe: {...}`: what the page found at start, canShare's answers, and
               navigator.share() called without a user's click
  click ID     clicks the button ID as a user does (a trusted click, which activates the page)
               and prints `outcome: {...}` once the page's promise settled (at most 120 s)

Chromium is driven by Selenium (python3-selenium) with chromedriver; Firefox, which Debian ships
without geckodriver, through its own WebDriver BiDi (websocket-client, which Selenium brings).
"""
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

BROWSER, EXTENSION, SITE, STEP = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
SETTLE = 120

PROBE = """
const answers = {};
const cases = {
  'empty': {}, 'nothing': undefined, 'url': {url: 'https://example.org/'}, 'relative url': {url: 'page?x=1'},
  'ftp url': {url: 'ftp://example.org/'}, 'javascript url': {url: 'javascript:alert(1)'},
  'bad url': {url: 'https://exa mple.org:99999/'}, 'title': {title: 'x'}, 'text': {text: 'x'},
  'no files': {files: []}, 'no files with text': {files: [], text: 'x'},
  'png': {files: [new File(['x'], 'a.png', {type: 'image/png'})]},
  'exe': {files: [new File(['x'], 'a.exe', {type: 'application/x-msdownload'})]},
  'unknown member': {colour: 'red'},
};
for (const [name, data] of Object.entries(cases)) answers[name] = navigator.canShare(data);
let thrown = null;
try { navigator.canShare({files: ['not a file']}); } catch (error) { thrown = error.name; }
return {
  foundAtStart: window.foundAtStart, share: typeof navigator.share, canShare: answers,
  filesNotFiles: thrown, onPrototype: Object.getOwnPropertyNames(Navigator.prototype).includes('share'),
};
"""
# A promise of how navigator.share() ends when no user activated the page.
WITHOUT_CLICK = "navigator.share({url: 'https://example.org/'}).then(() => 'resolved', (e) => e.name)"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass


def serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=SITE))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


def chromium(url):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    profile = os.path.join(os.environ["XDG_CONFIG_HOME"], "chromium")
    # --no-sandbox: the tests may run as root, where Chromium refuses its sandbox.
    for argument in ["--headless=new", "--no-sandbox", f"--user-data-dir={profile}", f"--load-extension={EXTENSION}",
                     "--no-first-run", "--disable-gpu"]:
        options.add_argument(argument)
    browser = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver", env=dict(os.environ)))
    try:
        browser.get(url)
        evaluate = browser.execute_script
        if STEP[0] == "probe":
            result = evaluate(PROBE)
            result["withoutClick"] = browser.execute_async_script(
                f"const done = arguments[arguments.length - 1]; ({WITHOUT_CLICK}).then(done);")
            print("probe: " + json.dumps(result), flush=True)
        elif STEP[0] == "click":
            browser.find_element("id", STEP[1]).click()
            wait_outcome(lambda: evaluate("return window.outcome"))
    finally:
        browser.quit()


class BiDi:
    """Firefox's WebDriver BiDi, over its websocket."""

    def __init__(self, address):
        import websocket
        self.socket = websocket.create_connection(address, suppress_origin=True, timeout=SETTLE)
        self.next = 0

    def call(self, method, **params):
        self.next += 1
        self.socket.send(json.dumps({"id": self.next, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next:
                if message.get("type") == "error":
                    raise RuntimeError(f"{method}: {message.get('error')}: {message.get('message')}")
                return message["result"]


def firefox(url):
    profile = tempfile.mkdtemp(prefix="web-driver-firefox-")
    with open(os.path.join(profile, "user.js"), "w") as prefs:
        for name, value in [("browser.shell.checkDefaultBrowser", "false"), ("datareporting.policy.dataSubmissionEnabled", "false"),
                            ("toolkit.telemetry.reportingpolicy.firstRun", "false"), ("app.update.enabled", "false"),
                            ("extensions.autoDisableScopes", "0")]:
            prefs.write(f'user_pref("{name}", {value});\n')
    process = subprocess.Popen(
        ["firefox-esr", "--headless", "--no-remote", "--profile", profile, "--remote-debugging-port=0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    address = None
    deadline = time.time() + 60
    while address is None and time.time() < deadline:
        line = process.stderr.readline()
        found = re.search(r"WebDriver BiDi listening on (ws://\S+)", line)
        if found:
            address = found.group(1)
    if address is None:
        process.kill()
        raise RuntimeError("Firefox did not offer WebDriver BiDi")
    # Firefox must keep writing: a full pipe would stop it.
    threading.Thread(target=lambda: process.stderr.read(), daemon=True).start()
    try:
        bidi = BiDi(address.rstrip("/") + "/session")
        bidi.call("session.new", capabilities={})
        bidi.call("webExtension.install", extensionData={"type": "path", "path": EXTENSION})
        context = bidi.call("browsingContext.getTree")["contexts"][0]["context"]
        bidi.call("browsingContext.navigate", context=context, url=url, wait="complete")

        def evaluate(expression):
            answer = bidi.call("script.evaluate", expression=expression, target={"context": context}, awaitPromise=True)
            return from_bidi(answer.get("result", {}))

        if STEP[0] == "probe":
            result = evaluate(f"(() => {{ {PROBE} }})()")
            result["withoutClick"] = evaluate(WITHOUT_CLICK)
            print("probe: " + json.dumps(result), flush=True)
        elif STEP[0] == "click":
            element = bidi.call("script.evaluate", expression=f"document.getElementById({json.dumps(STEP[1])})",
                                target={"context": context}, awaitPromise=False)["result"]
            bidi.call("input.performActions", context=context, actions=[{
                "type": "pointer", "id": "mouse", "actions": [
                    {"type": "pointerMove", "x": 0, "y": 0, "origin": {"type": "element", "element": {"sharedId": element["sharedId"]}}},
                    {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}])
            wait_outcome(lambda: evaluate("window.outcome"))
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(profile, ignore_errors=True)


def from_bidi(value):
    """A BiDi remote value as plain Python."""
    kind = value.get("type")
    if kind == "object":
        return {key: from_bidi(item) for key, item in value.get("value", [])}
    if kind == "array":
        return [from_bidi(item) for item in value.get("value", [])]
    if kind in ("undefined", "null"):
        return None
    return value.get("value")


def wait_outcome(read):
    deadline = time.time() + SETTLE
    while time.time() < deadline:
        outcome = read()
        if outcome:
            print("outcome: " + json.dumps(outcome), flush=True)
            return
        time.sleep(0.1)
    print("outcome: null", flush=True)


url = serve()
(chromium if BROWSER == "chromium" else firefox)(url)
