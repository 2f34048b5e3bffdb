import FoundationEssentials
import FuzzSupport
import ShareCore

/// The whole Info.plist loader: the input is a bundle's Info.plist (XML, binary or old-style),
/// read with every key check, the activation rule parsed, and every problem worded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInfoPlist(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  write(inputBytes(data, size), to: bundle + "/Info.plist")
  let outcome = BundleLoader(languages: ["de"]).load(bundleAt: bundle)
  let lines = outcome.problems.map(Diagnostics.line)
  expect(
    outcome.service == nil || !outcome.problems.contains { $0.severity == .error },
    "a service loaded despite an error: \(lines)")
  return 0
}

/// A bundle with a program to run and a German InfoPlist.strings.
let bundle: String = {
  let path = scratchFolder("Fuzz.shareext")
  _ = FileManager.default.createFile(
    atPath: path + "/share", contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
  try? FileManager.default.createDirectory(atPath: path + "/de.lproj", withIntermediateDirectories: true)
  write(Array("\"CFBundleDisplayName\" = \"Teilen\";\n".utf8), to: path + "/de.lproj/InfoPlist.strings")
  return path
}()
