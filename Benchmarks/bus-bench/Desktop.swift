import Foundation
import Glibc
import ShareFixtures

/// The bench's throw-away home and XDG tree (ShareFixtures' ``TemporaryDesktop``), filled with
/// generated share bundles (``BundleFixture/generated(index:id:)``) and files.
final class BenchDesktop {
  let desktop: TemporaryDesktop
  /// Where the generated bundles go (`$XDG_DATA_HOME/xdg-share/extensions`).
  var extensions: String { desktop.userExtensions }
  /// Complete bundles are made here, then renamed into ``extensions`` (same file system).
  let staging: String
  private(set) var bundleCount = 0

  init() throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-bus-bench")
    staging = "\(desktop.root)/staging"
    try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: desktop.userExtensions, withIntermediateDirectories: true)
  }

  var root: String { desktop.root }

  /// The environment of the bus and the service: only the temporary tree, never the user's.
  func environment(busAddress: String?) -> [String: String] {
    desktop.environment(busAddress: busAddress)
  }

  // MARK: Bundles

  /// Adds generated bundles to the extensions folder until there are `count`.
  func fillBundles(upTo count: Int) throws {
    while bundleCount < count {
      try BundleFixture.generated(index: bundleCount).write(into: extensions)
      bundleCount += 1
    }
  }

  /// Makes a complete bundle in the staging folder and returns its path, ready to be renamed in.
  func stageBundle(named name: String, index: Int) throws -> String {
    try BundleFixture.generated(index: index, id: "org.bench.late.\(name)").write(into: staging, folder: name)
  }

  // MARK: Files

  /// A real PNG on disk.
  func writePNG(named name: String) throws -> String {
    String(decoding: try desktop.writeFile(named: Array(name.utf8), contents: tinyPNG), as: UTF8.self)
  }

  /// `count` files of a photo-and-documents folder: PNG, JPEG, PDF and plain text, with real
  /// leading bytes, in the order 6:2:1:1.
  func writeMixedFiles(count: Int) throws -> [String] {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.files)/mixed", withIntermediateDirectories: true)
    return try (0..<count).map { index in
      let (suffix, contents): (String, [UInt8])
      switch index % 10 {
      case 0...5: (suffix, contents) = ("png", tinyPNG)
      case 6...7:
        (suffix, contents) = (
          "jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [0xFF, 0xD9]
        )
      case 8: (suffix, contents) = ("pdf", Array("%PDF-1.4\n%%EOF\n".utf8))
      default: (suffix, contents) = ("txt", Array("notes \(index)\n".utf8))
      }
      let path = try desktop.writeFile(named: Array("mixed/file-\(index).\(suffix)".utf8), contents: contents)
      return String(decoding: path, as: UTF8.self)
    }
  }
}

struct BenchError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
