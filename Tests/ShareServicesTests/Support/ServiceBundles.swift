import Foundation
import ShareTestSupport

/// The bundled services as install.sh installs them: each `data/extensions/<id>.shareext` copied,
/// with its `share` executable a symbolic link to the built `xdg-share-services`.
enum ServiceBundles {
  static let mail = "org.xdgshare.mail"
  static let saveToFolder = "org.xdgshare.save-to-folder"
  static let clipboard = "org.xdgshare.clipboard"
  static let webDAV = "org.xdgshare.webdav"
  static let kdeConnect = "org.xdgshare.kdeconnect"
  static let qrCode = "org.xdgshare.qr-code"
  static let all = [mail, saveToFolder, clipboard, webDAV, kdeConnect, qrCode]

  /// The repository's `data/extensions`.
  static var source: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/extensions").path
  }

  /// The built `xdg-share-services` next to the test bundle, or `XDG_SHARE_SERVICES_BINARY`.
  static var binary: String {
    if let override = ProcessInfo.processInfo.environment["XDG_SHARE_SERVICES_BINARY"] { return override }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while !FileManager.default.fileExists(
      atPath: directory.appendingPathComponent("xdg-share-services").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("xdg-share-services").path
  }

  /// Assembles the bundles `ids` in `folder`; returns their paths by identifier.
  @discardableResult
  static func install(_ ids: [String] = all, into folder: String) throws -> [String: String] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var paths: [String: String] = [:]
    for id in ids {
      let bundle = "\(folder)/\(id).shareext"
      try FileManager.default.copyItem(atPath: "\(source)/\(id).shareext", toPath: bundle)
      try FileManager.default.createSymbolicLink(atPath: "\(bundle)/share", withDestinationPath: binary)
      paths[id] = bundle
    }
    return paths
  }
}

extension TemporaryDesktop {
  /// Installs the bundled services `ids` as the user's.
  @discardableResult
  func installServices(_ ids: [String] = ServiceBundles.all) throws -> [String: String] {
    try ServiceBundles.install(ids, into: userExtensions)
  }

  /// Where a service's bundle is once installed.
  func bundle(_ id: String) -> String {
    "\(userExtensions)/\(id).shareext"
  }
}
