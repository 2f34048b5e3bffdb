import Testing

@testable import ShareCore

@Suite struct FilePathTests {
  @Test func fileURLEncodesEveryByteAndRoundTrips() {
    let path = FilePath(bytes: Array("/tmp/a b\n%".utf8) + [0xE9])
    #expect(path.fileURL == "file:///tmp/a%20b%0A%25%E9")
    #expect(FilePath(fileURL: path.fileURL) == path)
    #expect(path.string == nil)
    #expect(path.displayString == "/tmp/a b\\n%\\xe9")
  }

  /// C-style escapes: one line, nothing that acts on a terminal, and no two names shown alike.
  @Test func displayStringIsUnambiguous() {
    let cases: [([UInt8], String)] = [
      (Array("café ☕.png".utf8), "café ☕.png"),
      (Array("a\\nb".utf8), "a\\\\nb"),
      (Array("a\nb".utf8), "a\\nb"),
      ([0x61, 0x1B, 0x7F, 0x09], "a\\x1b\\x7f\\t"),
      ([0xFF, 0xFE, 0x2E], "\\xff\\xfe."),
      ([0xE2, 0x98], "\\xe2\\x98"),
      ([0xC3, 0xA9, 0xC3], "é\\xc3"),
      // NEL, the line separator and a right-to-left override: none may act on the terminal.
      (Array("a\u{85}b\u{2028}c\u{202E}gnp.exe".utf8), "a\\xc2\\x85b\\xe2\\x80\\xa8c\\xe2\\x80\\xaegnp.exe"),
      // A joiner inside an emoji is left alone.
      (Array("👩\u{200D}💻.png".utf8), "👩\u{200D}💻.png"),
    ]
    for (bytes, shown) in cases {
      #expect(FilePath(bytes: bytes).displayString == shown, "\(bytes)")
    }
  }

  @Test func fileURLParsing() {
    #expect(FilePath(fileURL: "file://localhost/x%2Fy") == FilePath("/x/y"))
    #expect(FilePath(fileURL: "https://x/") == nil)
    #expect(FilePath(fileURL: "file:///bad%zz") == nil)
    #expect(FilePath(fileURL: "file:///nul%00") == nil)
  }

  @Test func componentsAndAbsolutePaths() {
    #expect(FilePath("/a/b/").lastComponent == Array("b".utf8))
    #expect(FilePath("x").absolute(in: FilePath("/home/u")) == FilePath("/home/u/x"))
    #expect(FilePath("/x").absolute(in: FilePath("/home/u")) == FilePath("/x"))
  }
}

@Suite struct SearchPathsTests {
  @Test func defaultsFollowTheSpecification() {
    let paths = SearchPaths(environment: ["HOME": "/home/u"])
    #expect(
      paths.extensionDirectories == [
        "/home/u/.local/share/xdg-share/extensions", "/usr/local/share/xdg-share/extensions",
        "/usr/share/xdg-share/extensions",
      ])
    #expect(paths.settingsFile == "/home/u/.config/xdg-share/settings.ini")
    #expect(paths.stateHome == "/home/u/.local/state")
  }

  @Test func relativeValuesAreIgnored() {
    let paths = SearchPaths(environment: [
      "HOME": "/h", "XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": "rel:/opt/share/:",
      "XDG_CONFIG_HOME": "/c/",
    ])
    #expect(paths.dataHome == "/h/.local/share")
    #expect(paths.dataDirectories == ["/opt/share"])
    #expect(paths.configHome == "/c")
  }
}

@Suite struct KeyFileTests {
  @Test func groupsKeysEscapesAndLists() {
    let file = KeyFile(parsing: "# comment\n[Services]\nHidden = a;b;\nName=x\\sy\\n\n[Other]\nName=z\n")
    #expect(file.list("Hidden", in: "Services") == ["a", "b"])
    #expect(file.value("Name", in: "Services") == "x y\n")
    #expect(file.value("Name", in: "Other") == "z")
    #expect(file.value("Missing", in: "Other") == nil)
    #expect(UserSettings(parsing: "[Services]\nHidden=q;\n").hiddenServices == ["q"])
  }
}

@Suite struct LocalizationTests {
  @Test func gettextOrder() {
    #expect(
      Localization.preferredLanguages(environment: ["LANG": "de_CH.UTF-8"]) == [
        "de_CH", "de-CH", "de", "German",
      ])
    #expect(
      Localization.preferredLanguages(environment: ["LANG": "en_US.UTF-8", "LANGUAGE": "pt_BR:fr"]) == [
        "pt_BR", "pt-BR", "pt", "fr", "French",
      ])
    #expect(Localization.preferredLanguages(environment: ["LANG": "C", "LANGUAGE": "de"]) == [])
    #expect(
      Localization.preferredLanguages(environment: ["LC_ALL": "fr_FR", "LC_MESSAGES": "de_DE"]).first
        == "fr_FR")
    #expect(Localization.preferredLanguages(environment: ["LC_MESSAGES": "zh_TW.UTF-8"]).first == "zh-Hant")
    #expect(Localization.preferredLanguages(environment: [:]) == [])
  }
}

@Suite struct DiagnosticsTests {
  @Test func linesNameFileKeyExpectedAndFound() {
    let problem = BundleProblem(
      file: "x.shareext/Info.plist", key: "NSExtensionActivationSupportsImageWithMaxCount",
      kind: .unexpectedValue(expected: .nonNegativeInteger, found: .string("three")))
    #expect(
      Diagnostics.line(for: problem)
        == "x.shareext/Info.plist: NSExtensionActivationSupportsImageWithMaxCount: expected a non-negative integer, found the string \"three\""
    )
  }

  @Test func quotedValuesCannotBreakTheLine() {
    #expect(Diagnostics.quoted("a\"b\nc") == "\"a\\\"b\\nc\"")
  }

  @Test func suggestions() {
    #expect(Suggestion.nearest(to: "XDGShareTimout", in: InfoPlistKey.linuxKeys) == "XDGShareTimeout")
    #expect(Suggestion.nearest(to: "Completely", in: InfoPlistKey.linuxKeys) == nil)
  }
}

/// The identifier forms, checked by bytes, answer as the character-by-character definitions do.
@Suite struct InfoPlistFormTests {
  static let candidates = [
    "", ".", "a", "a.", ".a", "a..b", "org.example.share", "org.example.Share-2", "org.example.share_x",
    "org.ex ample", "org.exämple", "org.e\u{301}xample", "org.example\r\n.x", "org.example.\u{FF21}",
    "org.example/x", "1.2.3", "-.-", "a_b.c", String(repeating: "a", count: 255),
    String(repeating: "a", count: 256), "org.example.\u{0}",
  ]

  @Test(arguments: candidates)
  func bundleIdentifiers(id: String) {
    let expected =
      !id.isEmpty && id.utf8.count <= 255
      && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
      && !id.split(separator: ".", omittingEmptySubsequences: false).contains { $0.isEmpty }
    #expect(InfoPlistForm.isBundleIdentifier(id) == expected)
  }

  @Test(arguments: candidates)
  func configurationIdentifiers(id: String) {
    let expected =
      !id.isEmpty && id.utf8.count <= 255
      && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    #expect(InfoPlistForm.isConfigurationIdentifier(id) == expected)
  }
}
