import FuzzSupport
import ShareCore

/// A bundle's `<language>.lproj/InfoPlist.strings`, read as the loader reads it: old-style
/// strings (UTF-8 or UTF-16), or an XML or binary property list; what cannot be read is skipped.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStrings(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = inputBytes(data, size)
  write(bytes, to: bundle + "/fr.lproj/InfoPlist.strings")
  let strings = Localization.strings(inBundle: bundle, languages: ["fr"])
  // The same text read directly: the table is its string values, or empty when unreadable.
  if case .dictionary(let table)? = try? PropertyListReader.read(bytes).value {
    expect(
      strings.count == table.values.count(where: { if case .string = $0 { true } else { false } }),
      "lost strings")
  } else {
    expect(strings.isEmpty, "strings from an unreadable file")
  }
  return 0
}

let bundle: String = {
  let path = scratchFolder("Strings.shareext")
  _ = scratchFolder("Strings.shareext/fr.lproj")
  return path
}()
