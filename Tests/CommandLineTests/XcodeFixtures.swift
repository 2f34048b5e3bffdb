import Testing

/// A share extension's source Info.plist from an Xcode project, in the shapes public apps ship.
struct XcodeFixture: CustomTestStringConvertible, Sendable {
  var name: String
  /// The `<dict>` of the plist, as Xcode writes it.
  var dictionary: String
  var defines: [String] = []
  /// The identifier the port ends up with (for NAME `Share`).
  var identifier: String
  /// Variables left in keys xdg-share ignores: a warning each.
  var warnings: [String] = []

  var testDescription: String { name }

  var xml: String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    \(dictionary)
    </plist>

    """
  }

  /// Build variables in every key, a dictionary rule, the principal class in the module
  /// (Mastodon clients, Ice Cubes).
  static let mastodon = XcodeFixture(
    name: "mastodon",
    dictionary: """
      <dict>
      \t<key>CFBundleDevelopmentRegion</key>
      \t<string>$(DEVELOPMENT_LANGUAGE)</string>
      \t<key>CFBundleDisplayName</key>
      \t<string>Share to Mastodon</string>
      \t<key>CFBundleExecutable</key>
      \t<string>$(EXECUTABLE_NAME)</string>
      \t<key>CFBundleIdentifier</key>
      \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
      \t<key>CFBundleInfoDictionaryVersion</key>
      \t<string>6.0</string>
      \t<key>CFBundleName</key>
      \t<string>$(PRODUCT_NAME)</string>
      \t<key>CFBundlePackageType</key>
      \t<string>$(PRODUCT_BUNDLE_PACKAGE_TYPE)</string>
      \t<key>CFBundleShortVersionString</key>
      \t<string>$(MARKETING_VERSION)</string>
      \t<key>CFBundleVersion</key>
      \t<string>$(CURRENT_PROJECT_VERSION)</string>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<dict>
      \t\t\t\t<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      \t\t\t\t<integer>4</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsMovieWithMaxCount</key>
      \t\t\t\t<integer>1</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsText</key>
      \t\t\t\t<true/>
      \t\t\t\t<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      \t\t\t\t<integer>1</integer>
      \t\t\t</dict>
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t\t<key>NSExtensionPrincipalClass</key>
      \t\t<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>
      \t</dict>
      </dict>
      """, identifier: "local.share")

  /// A predicate rule, fixed versions and extra dictionaries (Signal, Telegram).
  static let signal = XcodeFixture(
    name: "signal",
    dictionary: """
      <dict>
      \t<key>BuildDetails</key>
      \t<dict>
      \t\t<key>CarthageVersion</key>
      \t\t<string>0.36.0</string>
      \t</dict>
      \t<key>CFBundleDevelopmentRegion</key>
      \t<string>en</string>
      \t<key>CFBundleDisplayName</key>
      \t<string>Signal</string>
      \t<key>CFBundleExecutable</key>
      \t<string>$(EXECUTABLE_NAME)</string>
      \t<key>CFBundleIdentifier</key>
      \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
      \t<key>CFBundleName</key>
      \t<string>$(PRODUCT_NAME)</string>
      \t<key>CFBundlePackageType</key>
      \t<string>XPC!</string>
      \t<key>CFBundleShortVersionString</key>
      \t<string>7.50</string>
      \t<key>CFBundleVersion</key>
      \t<string>7.50.0.3</string>
      \t<key>NSAppTransportSecurity</key>
      \t<dict>
      \t\t<key>NSAllowsArbitraryLoads</key>
      \t\t<false/>
      \t</dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<string>SUBQUERY (extensionItems, $extensionItem, SUBQUERY ($extensionItem.attachments, $attachment, ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data" || ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count &gt;= 1).@count == 1</string>
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t\t<key>NSExtensionPrincipalClass</key>
      \t\t<string>ShareViewController</string>
      \t</dict>
      </dict>
      """, defines: ["--identifier", "org.whispersystems.signal.shareextension"],
    identifier: "org.whispersystems.signal.shareextension")

  /// A storyboard instead of a principal class, the display name from the product's, an App
  /// Group from a variable the project defines (Nextcloud).
  static let nextcloud = XcodeFixture(
    name: "nextcloud",
    dictionary: """
      <dict>
      \t<key>CFBundleDisplayName</key>
      \t<string>$(PRODUCT_NAME)</string>
      \t<key>CFBundleExecutable</key>
      \t<string>$(EXECUTABLE_NAME)</string>
      \t<key>CFBundleIdentifier</key>
      \t<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>
      \t<key>CFBundleShortVersionString</key>
      \t<string>$(MARKETING_VERSION)</string>
      \t<key>AppIdentifierPrefix</key>
      \t<string>$(AppIdentifierPrefix)</string>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<dict>
      \t\t\t\t<key>NSExtensionActivationSupportsFileWithMaxCount</key>
      \t\t\t\t<integer>100</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      \t\t\t\t<integer>100</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsMovieWithMaxCount</key>
      \t\t\t\t<integer>100</integer>
      \t\t\t\t<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      \t\t\t\t<integer>1</integer>
      \t\t\t</dict>
      \t\t</dict>
      \t\t<key>NSExtensionMainStoryboard</key>
      \t\t<string>MainInterface</string>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t</dict>
      \t<key>XDGShareApplicationGroups</key>
      \t<array>
      \t\t<string>group.$(APP_GROUP)</string>
      \t</array>
      </dict>
      """, defines: ["--define", "APP_GROUP=it.twsweb.Crypto-Cloud"], identifier: "local.share",
    warnings: ["AppIdentifierPrefix: warning: $(AppIdentifierPrefix)"])

  /// A generated Info.plist's source (GENERATE_INFOPLIST_FILE): NSExtension alone; Xcode adds
  /// the rest.
  static let generated = XcodeFixture(
    name: "generated",
    dictionary: """
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<string>TRUEPREDICATE</string>
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t\t<key>NSExtensionPrincipalClass</key>
      \t\t<string>$(PRODUCT_MODULE_NAME).ShareViewController</string>
      \t</dict>
      </dict>
      """, identifier: "local.share")

  /// The identifier from a variable of the project's, an unknown team variable, JavaScript
  /// preprocessing (Firefox).
  static let firefox = XcodeFixture(
    name: "firefox",
    dictionary: """
      <dict>
      \t<key>CFBundleDisplayName</key>
      \t<string>Firefox</string>
      \t<key>CFBundleExecutable</key>
      \t<string>${EXECUTABLE_NAME}</string>
      \t<key>CFBundleIdentifier</key>
      \t<string>$(MOZ_BUNDLE_ID).ShareTo</string>
      \t<key>CFBundleShortVersionString</key>
      \t<string>$(MOZ_BUNDLE_VERSION:default=1.0)</string>
      \t<key>MozDevelopmentTeam</key>
      \t<string>$(DEVELOPMENT_TEAM)</string>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<dict>
      \t\t\t\t<key>NSExtensionActivationSupportsText</key>
      \t\t\t\t<true/>
      \t\t\t\t<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      \t\t\t\t<integer>1</integer>
      \t\t\t</dict>
      \t\t\t<key>NSExtensionJavaScriptPreprocessingFile</key>
      \t\t\t<string>ShareTo</string>
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t\t<key>NSExtensionPrincipalClass</key>
      \t\t<string>$(PRODUCT_MODULE_NAME).InitialViewController</string>
      \t</dict>
      </dict>
      """, defines: ["--define", "MOZ_BUNDLE_ID=org.mozilla.ios.Firefox"],
    identifier: "org.mozilla.ios.Firefox.ShareTo",
    warnings: ["MozDevelopmentTeam: warning: $(DEVELOPMENT_TEAM)"])

  static let all = [mastodon, signal, nextcloud, generated, firefox]
}
