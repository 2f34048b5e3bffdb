/// An installed share service: a loaded, valid `*.shareext` bundle.
public struct ShareService: Sendable, Identifiable, Equatable {
  /// `CFBundleIdentifier`, e.g. `org.xdgshare.save-to-folder`.
  public var id: String
  /// The display name in the user's language.
  public var name: String
  /// A freedesktop icon name, or the absolute path of an image file in the bundle.
  public var icon: String
  /// A one-line description in the user's language, when the bundle gives one.
  public var description: String?
  /// `CFBundleShortVersionString`.
  public var version: String?
  /// The bundle directory, byte for byte: what the program runs in and is told of.
  public var bundleLocation: FilePath
  /// The absolute path of the program to run, byte for byte.
  public var executableLocation: FilePath
  /// The bundle directory as text (``FilePath/text``: escaped when it is not UTF-8).
  public var bundlePath: String {
    get { bundleLocation.text }
    set { bundleLocation = FilePath(newValue) }
  }
  /// The program's path as text (``FilePath/text``).
  public var executablePath: String {
    get { executableLocation.text }
    set { executableLocation = FilePath(newValue) }
  }
  public var rule: ActivationRule
  /// What must be present for the service to be offered.
  public var requirements: Requirements
  /// How long a request may run, in seconds, when the bundle sets it.
  public var timeout: Double?
  /// The App Groups whose shared containers the service may use: `XDGShareApplicationGroups` of
  /// its Info.plist, then those of `com.apple.security.application-groups` in its
  /// Entitlements.plist, which mean the same. One list with ``entitlements``' own.
  public var applicationGroups: [String] {
    get { entitlements.applicationGroups }
    set { entitlements.applicationGroups = newValue }
  }
  /// A share or an action extension, from `NSExtensionPointIdentifier`.
  public var kind: Kind
  /// `XDGShareApplication`: the app id of the application the service belongs to.
  public var application: String?
  /// `XDGShareTargetSignals`: match rules of the signals after which its direct targets are
  /// published again.
  public var targetSignals: [String] = []
  /// `XDGShareComposeSheet`: the sheet the host shows before it runs the program; `nil` when the
  /// bundle declares none (the program runs at once, and the request has no `compose`).
  public var composeSheet: ComposeSheetDeclaration?
  /// What the service may reach in its sandbox (`Entitlements.plist`); none when the bundle has
  /// no such file. Its ``Entitlements/applicationGroups`` are ``applicationGroups``.
  public var entitlements: Entitlements = .none

  /// What an extension declares itself to be. Both kinds are loaded, matched and run alike; the
  /// kind only says which of Apple's extension points the bundle was written for.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `com.apple.share-services`: a share extension.
    case share
    /// `com.apple.ui-services`: an action extension.
    case action

    /// The kind an `NSExtensionPointIdentifier` declares; `nil` for any other extension point.
    public init?(extensionPoint: String) {
      switch extensionPoint {
      case InfoPlistKey.shareServicesExtensionPoint: self = .share
      case InfoPlistKey.actionServicesExtensionPoint: self = .action
      default: return nil
      }
    }

    /// The `NSExtensionPointIdentifier` of this kind.
    public var extensionPoint: String {
      switch self {
      case .share: InfoPlistKey.shareServicesExtensionPoint
      case .action: InfoPlistKey.actionServicesExtensionPoint
      }
    }
  }

  /// The icon name used when a bundle names none.
  public static let defaultIcon = "document-send"

  public init(
    id: String, name: String, icon: String = ShareService.defaultIcon, description: String? = nil,
    version: String? = nil, bundlePath: String, executablePath: String, rule: ActivationRule,
    requirements: Requirements = Requirements(), timeout: Double? = nil, applicationGroups: [String] = [],
    kind: Kind = .share, composeSheet: ComposeSheetDeclaration? = nil
  ) {
    self.init(
      id: id, name: name, icon: icon, description: description, version: version,
      bundleLocation: FilePath(bundlePath), executableLocation: FilePath(executablePath), rule: rule,
      requirements: requirements, timeout: timeout, applicationGroups: applicationGroups, kind: kind,
      composeSheet: composeSheet)
  }

  /// A service whose bundle and program are named by byte paths.
  public init(
    id: String, name: String, icon: String = ShareService.defaultIcon, description: String? = nil,
    version: String? = nil, bundleLocation: FilePath, executableLocation: FilePath, rule: ActivationRule,
    requirements: Requirements = Requirements(), timeout: Double? = nil, applicationGroups: [String] = [],
    kind: Kind = .share, composeSheet: ComposeSheetDeclaration? = nil
  ) {
    self.id = id
    self.name = name
    self.icon = icon
    self.description = description
    self.version = version
    self.bundleLocation = bundleLocation
    self.executableLocation = executableLocation
    self.rule = rule
    self.requirements = requirements
    self.timeout = timeout
    self.kind = kind
    self.composeSheet = composeSheet
    self.applicationGroups = applicationGroups
  }
}

extension ShareService {
  /// Takes the entitlements its Entitlements.plist declares; the groups of Info.plist's
  /// `XDGShareApplicationGroups` stay, first, and the file's are added after them.
  mutating func declare(_ declared: Entitlements) {
    let groups = applicationGroups
    entitlements = declared
    entitlements.applicationGroups = groups + declared.applicationGroups.filter { !groups.contains($0) }
  }
}

/// What a service needs in order to be shown (the Linux additions to Info.plist).
public struct Requirements: Sendable, Equatable {
  /// `XDGShareRequiredPrograms`: programs that must be on `PATH`. A list of alternatives
  /// separated by `|` (`wl-copy|xclip|xsel`) is met when any one is there.
  public var programs: [String]
  /// `XDGShareRequiredBusNames`: names that must be owned or activatable on the session bus.
  public var busNames: [String]

  public init(programs: [String] = [], busNames: [String] = []) {
    self.programs = programs
    self.busNames = busNames
  }

  public var isEmpty: Bool { programs.isEmpty && busNames.isEmpty }
}

/// Answers whether a service's requirements are met on this desktop.
///
/// The seam between the registry and the live system: the command line checks `PATH` and the
/// session bus, tests answer from a table.
public protocol RequirementChecker: Sendable {
  func isProgramAvailable(_ name: String) -> Bool
  func isBusNameAvailable(_ name: String) -> Bool
}

extension RequirementChecker {
  /// Whether every requirement is met; a `|`-separated alternative needs any one program.
  public func satisfies(_ requirements: Requirements) -> Bool {
    unmet(requirements).isEmpty
  }

  /// What is missing of `requirements`: each program (or list of alternatives, `wl-copy|xclip`)
  /// none of which is on `PATH`, then each bus name nobody owns or can start.
  public func unmet(_ requirements: Requirements) -> [String] {
    requirements.programs.filter { alternatives in
      !alternatives.split(separator: "|").contains { isProgramAvailable(String($0)) }
    } + requirements.busNames.filter { !isBusNameAvailable($0) }
  }
}
