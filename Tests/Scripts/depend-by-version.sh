#!/usr/bin/env bash
# Builds a share extension in a throw-away package that depends on this repository by version,
# through a file:// git URL and a tag, as a plugin author's package does. SwiftPM refuses a
# package with unsafe flags when it is depended on by version, so this is what keeps ShareKit
# usable from other packages.
#
#   Tests/Scripts/depend-by-version.sh     uses the committed HEAD of this repository
set -euo pipefail
repository=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A clone, tagged there, so the repository's own tags are left alone.
git clone --quiet "$repository" "$work/xdg-share"
git -C "$work/xdg-share" -c user.name=test -c user.email=test@localhost tag --no-sign 99.0.0

mkdir -p "$work/hello/Sources/hello"
cat >"$work/hello/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "hello",
  dependencies: [.package(url: "file://$work/xdg-share", from: "99.0.0")],
  targets: [
    .executableTarget(name: "hello", dependencies: [.product(name: "ShareKit", package: "xdg-share")])
  ]
)
SWIFT
cat >"$work/hello/Sources/hello/Hello.swift" <<'SWIFT'
import ShareKit

@main
struct Hello: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    let names = context.inputItems.flatMap(\.attachments).map(\.registeredTypeIdentifiers)
    print("shared: \(names)")
  }
}
SWIFT
swift build --package-path "$work/hello" -Xswiftc -warnings-as-errors 2>&1 | tail -n 3
test -x "$work/hello/.build/debug/hello"
echo "depend-by-version: a package depending on xdg-share 99.0.0 by a file:// URL builds a ShareKit extension"
