import FuzzSupport
import ShareCore

/// shared-mime-info's compiled `mime.cache`, as `MIMEHierarchy.add(cache:)` reads it: a file any
/// user can write (`~/.local/share/mime`). Refused or read, never a crash, and what is read
/// answers consistently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIMECache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = inputBytes(data, size)
  var hierarchy = MIMEHierarchy()
  guard hierarchy.add(cache: bytes) else { return 0 }
  let asked = ["image/png", "application/octet-stream", "text/plain", "inode/directory"] + names(in: bytes)
  // A first pass's answers (the first lookups scan the cache's lists), asked again at the end,
  // when, after more lookups than `MIMECache.scansBeforeTable`, the hash tables answer.
  var first: [String: (canonical: String, aliases: [String], parents: [String])] = [:]
  for name in asked where first[name] == nil {
    first[name] = (
      hierarchy.canonical(name), hierarchy.aliases(of: name), hierarchy.declaredParents(of: name)
    )
  }
  for name in asked {
    let canonical = hierarchy.canonical(name)
    expect(
      !canonical.utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) },
      "\(canonical) not lowercase")
    for alias in hierarchy.aliases(of: canonical) {
      expect(
        hierarchy.canonical(alias) == canonical, "\(alias), an alias of \(canonical), resolves elsewhere")
    }
    let ancestors = hierarchy.ancestors(of: name)
    expect(ancestors.first == canonical, "the ancestors of \(name) do not start with \(canonical)")
    expect(Set(ancestors).count == ancestors.count, "an ancestor of \(name) twice")
    // Resolved once, as GIO resolves an alias: in a chain (a → b → c, which no database ships)
    // the parents of `a` are those of `b`, while the walk goes on from `c`.
    guard hierarchy.canonical(canonical) == canonical else { continue }
    for parent in hierarchy.declaredParents(of: name) {
      expect(ancestors.contains(parent), "\(parent), a parent of \(name), is not among its ancestors")
    }
  }
  for (name, answer) in first {
    expect(hierarchy.canonical(name) == answer.canonical, "\(name)'s canonical type changed")
    expect(hierarchy.aliases(of: name) == answer.aliases, "\(name)'s aliases changed")
    expect(hierarchy.declaredParents(of: name) == answer.parents, "\(name)'s parents changed")
  }
  return 0
}

/// The NUL-terminated runs of printable ASCII in the file, as the cache's names are: the names it
/// holds, whatever offsets point to them, and some it does not.
private func names(in bytes: [UInt8]) -> [String] {
  bytes.split(separator: 0).lazy.filter { $0.count <= 128 && $0.allSatisfy { (0x21...0x7E).contains($0) } }
    .prefix(64).map { String(decoding: $0, as: UTF8.self) }
}
