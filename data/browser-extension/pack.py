#!/usr/bin/env python3
"""Packs the Web Share extension into one archive for both browsers: a ZIP with manifest.json at
its root, which Firefox installs as an .xpi and the Chrome Web Store takes as an upload. Made the
same byte for byte on every run (entries sorted, fixed dates and modes), so that it can be checked.

    data/browser-extension/pack.py [OUTPUT]     (default: xdg-share-webshare-VERSION.zip here)
"""
import json
import os
import sys
import zipfile

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "manifest.json"), encoding="utf-8") as manifest:
    version = json.load(manifest)["version"]
output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.getcwd(), f"xdg-share-webshare-{version}.zip")
files = sorted(name for name in os.listdir(here) if name == "manifest.json" or name.endswith(".js"))
with zipfile.ZipFile(output + ".new", "w", compression=zipfile.ZIP_DEFLATED) as archive:
    for name in files:
        entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        entry.external_attr = 0o644 << 16
        entry.compress_type = zipfile.ZIP_DEFLATED
        with open(os.path.join(here, name), "rb") as source:
            archive.writestr(entry, source.read())
os.replace(output + ".new", output)
print(output)
