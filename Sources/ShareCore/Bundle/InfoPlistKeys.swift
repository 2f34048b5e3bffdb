/// The Info.plist keys xdg-share reads, in one table: Apple's, and the Linux additions.
public enum InfoPlistKey {
  public static let identifier = "CFBundleIdentifier"
  public static let displayName = "CFBundleDisplayName"
  public static let name = "CFBundleName"
  public static let executable = "CFBundleExecutable"
  public static let shortVersion = "CFBundleShortVersionString"
  public static let iconName = "CFBundleIconName"
  public static let iconFile = "CFBundleIconFile"
  public static let extensionDictionary = "NSExtension"
  public static let extensionPoint = "NSExtensionPointIdentifier"
  public static let extensionAttributes = "NSExtensionAttributes"
  public static let activationRule = "NSExtensionActivationRule"
  /// Accepted and ignored, as is ``mainStoryboard``: the class or storyboard iOS instantiates.
  /// xdg-share runs the bundle's ``executable`` instead (in Swift, its `@main` type conforming to
  /// ShareKit's `ShareExtension`, or `ShareExtensionRunner` choosing one by identifier).
  public static let principalClass = "NSExtensionPrincipalClass"
  public static let mainStoryboard = "NSExtensionMainStoryboard"

  /// Linux additions, all prefixed `XDGShare`.
  public static let description = "XDGShareDescription"
  public static let requiredPrograms = "XDGShareRequiredPrograms"
  public static let requiredBusNames = "XDGShareRequiredBusNames"
  public static let timeout = "XDGShareTimeout"
  public static let applicationGroups = "XDGShareApplicationGroups"
  /// The application the service belongs to, by its app id (a Flatpak's, its desktop entry's
  /// name): the share sheet leaves it out when that application itself asks to share.
  public static let application = "XDGShareApplication"
  /// The declarative compose sheet (``ComposeSheetDeclaration``), a dictionary of ``ComposeSheet`` keys.
  public static let composeSheet = "XDGShareComposeSheet"
  /// D-Bus match rules of signals after which the service's direct targets may have changed
  /// (a device paired, a chat used): the D-Bus service runs its program to publish them again
  /// (`XDG_SHARE_PUBLISH_TARGETS=1`) while it runs.
  public static let targetSignals = "XDGShareTargetSignals"

  /// The extension point of a share extension.
  public static let shareServicesExtensionPoint = "com.apple.share-services"
  /// The extension point of an action extension, which is loaded and run as a share extension is.
  public static let actionServicesExtensionPoint = "com.apple.ui-services"
  /// The extension points a service may declare, in the order messages name them.
  static let extensionPoints = [shareServicesExtensionPoint, actionServicesExtensionPoint]

  /// Keys of the top-level dictionary with a meaning here; others (Apple's many `CF…`/`LS…` keys)
  /// are ignored, and unknown `XDGShare…` keys are reported as likely typos.
  static let linuxKeys = [
    description, requiredPrograms, requiredBusNames, timeout, applicationGroups, composeSheet, application,
    targetSignals,
  ]

  /// The keys of `XDGShareComposeSheet` and of each of its `ConfigurationItems`.
  public enum ComposeSheet {
    public static let title = "Title"
    public static let postButtonTitle = "PostButtonTitle"
    public static let placeholder = "Placeholder"
    public static let maximumCharacters = "MaximumCharacters"
    public static let hasText = "HasText"
    public static let configurationItems = "ConfigurationItems"
    public static let identifier = "Identifier"
    public static let choices = "Choices"
    public static let defaultValue = "Default"
    public static let secure = "Secure"
    public static let kind = "Kind"

    static let all = [title, postButtonTitle, placeholder, maximumCharacters, hasText, configurationItems]
    static let itemKeys = [identifier, title, choices, defaultValue, secure, kind]
  }

  /// The keys of the dictionary form of `NSExtensionActivationRule`.
  public enum Rule {
    public static let maxAttachments = "NSExtensionActivationSupportsAttachmentsWithMaxCount"
    public static let minAttachments = "NSExtensionActivationSupportsAttachmentsWithMinCount"
    public static let maxFiles = "NSExtensionActivationSupportsFileWithMaxCount"
    public static let maxImages = "NSExtensionActivationSupportsImageWithMaxCount"
    public static let maxMovies = "NSExtensionActivationSupportsMovieWithMaxCount"
    public static let supportsText = "NSExtensionActivationSupportsText"
    public static let maxWebURLs = "NSExtensionActivationSupportsWebURLWithMaxCount"
    public static let maxWebPages = "NSExtensionActivationSupportsWebPageWithMaxCount"
    public static let version = "NSExtensionActivationDictionaryVersion"
    public static let strictMatching = "NSExtensionActivationUsesStrictMatching"

    static let all = [
      maxAttachments, minAttachments, maxFiles, maxImages, maxMovies, supportsText, maxWebURLs, maxWebPages,
      version, strictMatching,
    ]
  }
}
