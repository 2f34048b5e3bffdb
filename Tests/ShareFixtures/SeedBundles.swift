import Foundation

/// The `NSExtension` parts of the three documents xdg-share was designed from, copied verbatim
/// (the documents are kept outside the repository): ShareByMail, a Swift extension whose sheet
/// slides up (000_602a23b776f2218f.txt); Hoi, a custom friends list (002_c153c3252551c1e1.txt);
/// Apple's guide to share extensions (003_1e30362f45ac65f2.txt). Each prints only `NSExtension`;
/// ``infoPlist`` wraps it in the `CFBundle…` keys a build adds around it.
public struct SeedBundle: Sendable {
  public var id: String
  public var name: String
  public var executableName: String
  /// The document's text as printed, whitespace and all.
  public var printed: String

  /// ShareByMail's extension as Xcode's template makes it: a storyboard, no attributes.
  public static let shareByMailTemplate = SeedBundle(
    id: "com.martinnormark.ShareByMail.ShareExtension", name: "ShareByMail", executableName: "ShareExtension",
    printed: """
      <key>NSExtension</key>
          <dict>
              <key>NSExtensionMainStoryboard</key>
              <string>MainInterface</string>
              <key>NSExtensionPointIdentifier</key>
              <string>com.apple.share-services</string>
          </dict>
      </key>
      """)

  /// ShareByMail's extension as the document leaves it: a principal class, no attributes.
  public static let shareByMail = SeedBundle(
    id: "com.martinnormark.ShareByMail.ShareExtension", name: "ShareByMail", executableName: "ShareExtension",
    printed: """
      <key>NSExtension</key>
          <dict>
              <key>NSExtensionPrincipalClass</key>
              <string>EntryViewController</string>
              <key>NSExtensionPointIdentifier</key>
              <string>com.apple.share-services</string>
          </dict>
      </key>
      """)

  /// Hoi's `NSExtension` dictionary (the document prints the value alone, without its key): a rule
  /// dictionary holding Xcode's undocumented nested `NSExtensionActivationRule`.
  public static let hoi = SeedBundle(
    id: "ch.iphonso.hoi.share", name: "Hoi", executableName: "HoiShare",
    printed: """
      <dict>
      	<key>NSExtensionAttributes</key>
      	<dict>
      		<key>NSExtensionActivationRule</key>
      		<dict>
      			<key>NSExtensionActivationRule</key>
      			<string>TRUEPREDICATE</string>
      			<key>NSExtensionActivationSupportsFileWithMaxCount</key>
      			<integer>0</integer>
      			<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      			<integer>1</integer>
      			<key>NSExtensionActivationSupportsMovieWithMaxCount</key>
      			<integer>0</integer>
      			<key>NSExtensionActivationSupportsText</key>
      			<false/>
      			<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      			<integer>1</integer>
      		</dict>
      	</dict>
      	<key>NSExtensionMainStoryboard</key>
      	<string>MainInterface</string>
      	<key>NSExtensionPointIdentifier</key>
      	<string>com.apple.share-services</string>
      </dict>
      """)

  /// The `NSExtension` of Apple's Share template, as Apple's guide prints it.
  public static let appleTemplate = SeedBundle(
    id: "com.example.Sharing.ShareExtension", name: "Sharing", executableName: "ShareExtension",
    printed: """
      <key>NSExtension</key>
      <dict>
      <key>NSExtensionMainStoryboard</key>
      <string>MainInterface</string>
      <key>NSExtensionPointIdentifier</key>
      <string>com.apple.share-services</string>
      </dict>
      """)

  public static let all: [SeedBundle] = [shareByMailTemplate, shareByMail, hoi, appleTemplate]

  /// The printed text made a key and its value: ShareByMail's printing ends with a `</key>` it
  /// never opened, which no property-list reader accepts (Apple's neither), so it is left out;
  /// Hoi's is the value alone, so its key is put before it.
  public var nsExtension: String {
    var part = printed
    if part.hasSuffix("\n</key>") { part.removeLast("\n</key>".count) }
    if !part.hasPrefix("<key>NSExtension</key>") { part = "<key>NSExtension</key>\n" + part }
    return part
  }

  /// The Info.plist a build makes of `part` (``nsExtension`` unless given): the `CFBundle…` keys
  /// before it. `NSExtension` begins on line 10.
  public func infoPlist(part: String? = nil) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    <key>CFBundleIdentifier</key><string>\(id)</string>
    <key>CFBundleExecutable</key><string>\(executableName)</string>
    <key>CFBundleName</key><string>\(name)</string>
    <key>CFBundleShortVersionString</key><string>1.0</string>
    <key>CFBundleVersion</key><string>1</string>
    \(part ?? nsExtension)
    </dict>
    </plist>

    """
  }

  /// Writes the bundle as `directory/<folder>.shareext` (an Info.plist of `part`, and a program
  /// that completes every request) and returns its path.
  @discardableResult
  public func write(into directory: String, folder: String? = nil, part: String? = nil) throws -> String {
    let bundle = "\(directory)/\(folder ?? name).shareext"
    try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
    try infoPlist(part: part).write(toFile: "\(bundle)/Info.plist", atomically: true, encoding: .utf8)
    let executable = "\(bundle)/\(executableName)"
    try "#!/bin/sh\nexit 0\n".write(toFile: executable, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable)
    return bundle
  }
}
