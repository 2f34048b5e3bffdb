import Foundation

/// Writes share-extension bundles for tests.
public struct BundleFixture {
  public var id: String
  public var name: String
  /// The activation rule as plist XML: a `<dict>…</dict>` or `<string>…</string>`.
  public var ruleXML: String
  /// More top-level keys, as plist XML.
  public var extraXML: String = ""
  /// The program's text (a script); written as the bundle's executable.
  public var program: String = "#!/bin/sh\nexit 0\n"
  public var executableName = "share"
  /// `com.apple.share-services`, or `com.apple.ui-services` for an action extension.
  public var extensionPoint = "com.apple.share-services"
  /// The bundle's `Entitlements.plist`, with Apple's keys; nil writes none (a service that
  /// declares nothing runs sandboxed with nothing).
  public var entitlements: [Entitlement]?

  /// One entry of `Entitlements.plist`.
  public enum Entitlement: Sendable {
    /// A key set to true: `com.apple.security.network.client`, `org.xdgshare.unconfined`, ….
    case granted(String)
    /// A key holding strings: `com.apple.security.application-groups`, `org.xdgshare.session-bus.talk`.
    case strings(String, [String])

    /// `org.xdgshare.unconfined`: for a fake service that records into the test's own tree, which
    /// a sandbox does not show it.
    public static let unconfined = Entitlement.granted("org.xdgshare.unconfined")
  }

  public init(id: String, name: String, ruleXML: String, extraXML: String = "", program: String? = nil) {
    self.id = id
    self.name = name
    self.ruleXML = ruleXML
    self.extraXML = extraXML
    if let program { self.program = program }
  }

  /// A bundle that declares `entitlements` in its `Entitlements.plist`.
  public init(
    id: String, name: String, ruleXML: String, extraXML: String = "", program: String? = nil,
    entitlements: [Entitlement]
  ) {
    self.init(id: id, name: name, ruleXML: ruleXML, extraXML: extraXML, program: program)
    self.entitlements = entitlements
  }

  /// `Entitlements.plist`'s text, when the bundle has one.
  public var entitlementsPlist: String? {
    guard let entitlements else { return nil }
    let entries = entitlements.map { entry in
      switch entry {
      case .granted(let key): "  <key>\(Self.escape(key))</key><true/>"
      case .strings(let key, let values):
        "  <key>\(Self.escape(key))</key><array>"
          + values.map { "<string>\(Self.escape($0))</string>" }.joined() + "</array>"
      }
    }
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \(entries.joined(separator: "\n"))
      </dict>
      </plist>

      """
  }

  /// A predicate rule, escaped for XML.
  public static func predicate(_ source: String) -> String {
    "<string>\(escape(source))</string>"
  }

  /// A dictionary rule from `key: integer-or-bool` pairs.
  public static func dictionary(_ entries: [(String, String)]) -> String {
    "<dict>" + entries.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict>"
  }

  public var infoPlist: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
      <key>CFBundleIdentifier</key><string>\(Self.escape(id))</string>
      <key>CFBundleDisplayName</key><string>\(Self.escape(name))</string>
      <key>CFBundleExecutable</key><string>\(executableName)</string>
      \(extraXML)
      <key>NSExtension</key>
      <dict>
        <key>NSExtensionPointIdentifier</key><string>\(extensionPoint)</string>
        <key>NSExtensionAttributes</key>
        <dict><key>NSExtensionActivationRule</key>\(ruleXML)</dict>
      </dict>
    </dict>
    </plist>
    """
  }

  /// Writes the bundle as `directory/<folder>.shareext` and returns its path.
  @discardableResult
  public func write(into directory: String, folder: String? = nil) throws -> String {
    let bundle = "\(directory)/\(folder ?? id).shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    try infoPlist.write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    if let entitlementsPlist {
      try entitlementsPlist.write(toFile: "\(bundle)/Entitlements.plist", atomically: true, encoding: .utf8)
    }
    let executable = "\(bundle)/\(executableName)"
    try program.write(toFile: executable, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
    return bundle
  }

  public static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
