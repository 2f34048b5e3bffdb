#!/usr/bin/python3
"""Seeds Fuzz/corpus/<target>/ from the tests and data/: the bundled Info.plists (also as binary
and old-style property lists), InfoPlist.strings files, the activation rules and plugin events
the tests use, D-Bus calls of the service's interface (marshalled with GIO), and names with the
characters the desktop generators must escape. Run from anywhere; rerun when tests add cases.
Needs /usr/bin/python3 with python3-gi (installed for the tests)."""

import hashlib
import pathlib
import plistlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Fuzz" / "corpus"


def seed(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def old_style(value, indent=""):
    """A property list value as OpenStep text, for the old-style parser."""
    if isinstance(value, dict):
        inner = "".join(f'{indent}  "{k}" = {old_style(v, indent + "  ")};\n' for k, v in value.items())
        return "{\n" + inner + indent + "}"
    if isinstance(value, list):
        return "(" + ", ".join(old_style(v, indent) for v in value) + ")"
    if isinstance(value, bool):
        return "YES" if value else "NO"
    if isinstance(value, bytes):
        return "<" + value.hex() + ">"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def swift_strings(pattern):
    """Swift string literals of the test sources that match `pattern`."""
    found = set()
    for source in (ROOT / "Tests").rglob("*.swift"):
        text = source.read_text(errors="replace")
        for literal in re.findall(r'(?<!#)"((?:[^"\\\n]|\\.)*)"', text):
            if re.search(pattern, literal):
                found.add(literal.replace('\\"', '"').replace("\\\\", "\\"))
        for literal in re.findall(r'#"(.*?)"#', text):
            if re.search(pattern, literal):
                found.add(literal)
    return sorted(found)


# Property lists: the bundled services' Info.plists in all three formats.
rules = set()
for path in sorted((ROOT / "data").rglob("Info.plist")):
    data = path.read_bytes()
    value = plistlib.loads(data)
    for target in ("plist", "info-plist"):
        seed(target, data)
        seed(target, plistlib.dumps(value, fmt=plistlib.FMT_BINARY))
        seed(target, old_style(value))
    rule = value.get("NSExtension", {}).get("NSExtensionAttributes", {}).get("NSExtensionActivationRule")
    if isinstance(rule, str):
        rules.add(rule)
seed("plist", plistlib.dumps({"a": [1, 2.5, True, b"\0\1", "x"], "d": {}}, fmt=plistlib.FMT_BINARY))
seed("plist", '<?xml version="1.0" encoding="ISO-8859-1"?><plist><string>caf\xe9</string></plist>'.encode("latin-1"))
seed("plist", "\ufeff{ a = (1, <0fa0>); }".encode("utf-16"))

# InfoPlist.strings.
for path in sorted((ROOT / "data").rglob("*.strings")) + sorted((ROOT / "Tests").rglob("*.strings")):
    seed("strings", path.read_bytes())
seed("strings", '/* c */ "CFBundleDisplayName" = "Teilen \\U00e9\\n";\n'.encode("utf-16"))
seed("strings", plistlib.dumps({"CFBundleDisplayName": "Partager"}, fmt=plistlib.FMT_BINARY))

# Activation rules: the bundled ones and those of the tests.
for rule in sorted(rules) + swift_strings(r"SUBQUERY|TRUEPREDICATE|UTI-CONFORMS-TO|@count"):
    seed("predicate", rule)

# Dictionary rules and D-Bus items take structured bytes: a few spread-out starts.
for n in range(8):
    seed("dictionary-rule", bytes((n * 37 + i * 11) % 256 for i in range(48)))
    seed("dbus-items", bytes((n * 53 + i * 7) % 256 for i in range(96)))

# Plugin events: the lines the tests and the protocol's documentation write.
events = swift_strings(r'^\{\s*"(progress|posted|complete|cancel|message)"')
for doc in (ROOT / "docs" / "plugin-protocol.md",):
    events += re.findall(r'^\s*(\{"(?:progress|posted|complete|cancel|message)".*\})\s*$', doc.read_text(), re.M)
for index, line in enumerate(sorted(set(events))):
    seed("plugin-events", bytes([index % 64]) + (line + "\n").encode())
seed("plugin-events", b"\x03" + "\n".join(sorted(set(events))[:6]).encode() + b"\n  \n{\"progress\": 0.5")

# D-Bus calls of org.xdgshare.Share1, as a client sends them.
import gi  # noqa: E402

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402


def call(member, signature, body):
    message = Gio.DBusMessage.new_method_call("org.xdgshare.Share", "/org/xdgshare/Share", "org.xdgshare.Share1", member)
    message.set_body(GLib.Variant(signature, body))
    message.set_serial(7)
    seed("dbus-message", bytes(message.to_blob(Gio.DBusCapabilityFlags.NONE)))


items = [
    {"path": GLib.Variant("ay", b"/home/user/photo.png\0"), "mime-type": GLib.Variant("s", "image/png")},
    {"url": GLib.Variant("s", "https://example.org/")},
    {"url": GLib.Variant("s", "file:///tmp/a%20b.txt")},
    {"text": GLib.Variant("s", "Hello"), "x-later": GLib.Variant("u", 3)},
]
call("QueryItems", "(aa{sv}a{sv})", (items, {}))
call("QueryItems", "(aa{sv}a{sv})", ([{"path": GLib.Variant("s", "relative")}], {"fields": GLib.Variant("as", ["name"])}))
call("Share", "(saa{sv}a{sv})", ("org.xdgshare.clipboard", items[3:], {"handle_token": GLib.Variant("s", "t1")}))
call("ShowPicker", "(saa{sv}a{sv})", ("x11:1a", items[:2], {}))
call("ListServices", "()", ())

# Names the desktop generators must escape.
for name in ["Share…", " leading space", "tab\there", "new\nline", "semi;colon", "back\\slash", "100% done",
             "quote\"d 'single' $HOME `cmd`", "#comment", "~tilde", "émoji 📤", "\x01control\x7f"]:
    data = name.encode()
    seed("desktop-entry", bytes([len(data), 2, 5, 4, 6, 3]) + data + b"a;b" + bytes([9]) + data)
    seed("nautilus", data)
