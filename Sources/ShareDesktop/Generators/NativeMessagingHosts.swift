import ShareProtocol

/// The browsers' native-messaging host manifests of `org.xdgshare.webshare`, the program the
/// Web Share extension (`data/browser-extension/`) talks to: one for Chromium, one for Google
/// Chrome and one for Firefox, each where that browser looks for them (Chromium's and Chrome's
/// user folders follow `$XDG_CONFIG_HOME`, Firefox's `$HOME`), naming the extension that may
/// start the host by its pinned id.
public enum NativeMessagingHosts {
  /// The host's name, as the extension asks for it (`runtime.connectNative`).
  public static let hostName = "org.xdgshare.webshare"
  /// The host program: beside `xdg-share` in a build, in `../libexec/xdg-share/` installed.
  public static let program = "xdg-share-webshare"
  /// The extension's id in Chromium and Chrome, fixed by the public key in its manifest.
  public static let chromiumExtensionID = "onbdopmibkhlpdgfehacjgodmadpnekp"
  /// The extension's id in Firefox (`browser_specific_settings.gecko.id`).
  public static let firefoxExtensionID = "webshare@xdgshare.org"

  /// A browser the host is registered for.
  public enum Browser: String, CaseIterable, Sendable {
    case chromium, googleChrome = "google-chrome", firefox

    public var name: String {
      switch self {
      case .chromium: "Chromium"
      case .googleChrome: "Google Chrome"
      case .firefox: "Firefox"
      }
    }

    /// Where the browser looks for host manifests, as a location key (``FileManagerIntegration/Location``).
    func folder(for scope: FileManagerIntegration.Scope) -> String {
      switch (self, scope) {
      case (.chromium, .user): "@config/chromium/NativeMessagingHosts"
      case (.googleChrome, .user): "@config/google-chrome/NativeMessagingHosts"
      case (.firefox, .user): "@home/.mozilla/native-messaging-hosts"
      case (.chromium, .system): "@root/etc/chromium/native-messaging-hosts"
      case (.googleChrome, .system): "@root/etc/opt/chrome/native-messaging-hosts"
      case (.firefox, .system): "@root/usr/lib/mozilla/native-messaging-hosts"
      }
    }
  }

  /// The manifests for `scope`, each naming `program` (absolute).
  static func files(program: String, scope: FileManagerIntegration.Scope) -> [GeneratedFile] {
    Browser.allCases.map { browser in
      var members: [String: JSONValue] = [
        "name": .string(hostName),
        "description": .string("xdg-share: navigator.share() through the desktop's share sheet"),
        "path": .string(program), "type": .string("stdio"),
      ]
      switch browser {
      case .chromium, .googleChrome:
        members["allowed_origins"] = .array([.string("chrome-extension://\(chromiumExtensionID)/")])
      case .firefox:
        members["allowed_extensions"] = .array([.string(firefoxExtensionID)])
      }
      return GeneratedFile(
        path: "\(browser.folder(for: scope))/\(hostName).json",
        contents: JSONValue.object(members).text(.file(keyOrder: ["name", "description", "path", "type"])),
        family: .browsers)
    }
  }
}
