#!/usr/bin/env python3
"""Checks that every target imports exactly the package's modules it declares, and that the module
table of docs/architecture.md says the same: a module imported but not declared builds only while
something else pulls it in; one declared but not imported is a dependency for nothing.

    Tests/Scripts/check-imports.py      (run by ./install.sh --test)

System modules (Glibc, Foundation, Testing, Synchronization, Dispatch) are not the package's and are
not checked. Exit status 1 lists every mismatch."""
import json
import os
import re
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
manifest = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True).stdout)
default_folder = {"regular": "Sources", "executable": "Sources", "system": "Sources", "test": "Tests"}


def module_name(target):
    return target["name"].replace("-", "_")


targets = {t["name"]: t for t in manifest["targets"]}
modules = {module_name(t): t["name"] for t in manifest["targets"]}
import_line = re.compile(r"^\s*(?:@\w+\s+)*(?:public |package |internal |private |fileprivate )?import\s+(?:\w+\s+)?(\w+)")

problems = []
imports_of = {}
for name, target in targets.items():
    if target["type"] in ("system", "plugin", "binary"):
        continue
    folder = os.path.join(root, target.get("path") or os.path.join(default_folder[target["type"]], name))
    excluded = [os.path.join(folder, e) for e in target.get("exclude", [])]
    found = set()
    for directory, _, files in os.walk(folder):
        if any(directory.startswith(e) for e in excluded):
            continue
        for file in files:
            if not file.endswith(".swift"):
                continue
            with open(os.path.join(directory, file), encoding="utf-8") as source:
                in_string = False
                for line in source:
                    # Imports inside a multi-line string literal are text (a template, a test's input).
                    if line.count('"""') % 2 == 1:
                        in_string = not in_string
                        continue
                    match = None if in_string else import_line.match(line)
                    if match and match.group(1) in modules:
                        found.add(modules[match.group(1)])
    found.discard(name)
    imports_of[name] = found
    declared = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        declared.add(value[0])
    for module in sorted(found - declared):
        problems.append(f"{name} imports {module} but does not declare it in Package.swift")
    for module in sorted(declared - found):
        problems.append(f"{name} declares {module} in Package.swift but imports it nowhere")

# The architecture table: | `Module` | what | imports |
with open(os.path.join(root, "docs/architecture.md"), encoding="utf-8") as doc:
    for row in doc:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        names = re.findall(r"`([\w-]+)`", cells[0])
        # What a row says in parentheses explains; the list is the rest.
        listed = set(re.findall(r"\b(Share\w+|C[A-Z]\w+)\b", re.sub(r"\([^)]*\)", "", cells[2])))
        for name in names:
            if name not in imports_of or not listed:
                continue
            actual = {m for m in imports_of[name]} | {d for d in targets[name]["dependencies"] and
                      [next(iter(x.values()))[0] for x in targets[name]["dependencies"]] if d.startswith("C")}
            for module in sorted(actual - listed):
                problems.append(f"docs/architecture.md: {name} imports {module}, which its row does not list")
            for module in sorted(listed - actual - {name}):
                if module in targets:
                    problems.append(f"docs/architecture.md: {name}'s row lists {module}, which it does not import")

for problem in problems:
    print(problem)
sys.exit(1 if problems else 0)
