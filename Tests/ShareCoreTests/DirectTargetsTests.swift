import Testing

@testable import ShareCore

/// A service's file of direct targets: what passes, what is skipped and why, and what a target
/// takes.
@Suite struct DirectTargetsTests {
  func parse(_ text: String) -> DirectTargetsFile {
    DirectTargetsFile(parsing: Array(text.utf8))
  }

  @Test func theDocumentedFileReadsBack() {
    let targets = [
      DirectTarget(
        id: "a1b2", title: "Pixel 7", subtitle: "Phone", icon: "phone", contentTypes: ["public.image"]),
      DirectTarget(id: "/home/me/Pictures", title: "Pictures"),
    ]
    let file = DirectTargetsFile(parsing: Array(DirectTargetsFile.encode(targets).utf8))
    #expect(file.targets == targets)
    #expect(file.problems.isEmpty)
  }

  @Test func hostileEntriesAreSkippedAndTheRestKept() {
    let file = parse(
      """
      {"targets": [
        {"id": "ok", "title": "Jana"},
        {"id": "newline", "title": "Jana\\nTrusted Bank"},
        {"id": "bidi", "title": "evil\\u202Egnp.exe"},
        {"id": "nel", "title": "a\\u0085b"},
        {"title": "no id"},
        {"id": "no title"},
        {"id": "ok", "title": "again"},
        {"id": "icon", "title": "x", "icon": "../../etc/passwd"},
        {"id": 7, "title": "number"},
        "not an object",
        {"id": "types", "title": "t", "contentTypes": ["public.image", 3]},
        {"id": "long", "title": "\(String(repeating: "x", count: 101))"},
        {"id": "fine", "title": "Pixel", "subtitle": "Phone", "contentTypes": ["image/*"]}
      ]}
      """)
    #expect(file.targets.map(\.id) == ["ok", "fine"])
    #expect(
      file.problems == [
        .init(entry: 1, reason: .unsafeCharacter("title")),
        .init(entry: 2, reason: .unsafeCharacter("title")),
        .init(entry: 3, reason: .unsafeCharacter("title")), .init(entry: 4, reason: .missing("id")),
        .init(entry: 5, reason: .missing("title")), .init(entry: 6, reason: .duplicateIdentifier("ok")),
        .init(entry: 7, reason: .invalidIcon), .init(entry: 8, reason: .wrongType("id")),
        .init(entry: 9, reason: .wrongType("target")), .init(entry: 10, reason: .wrongType("contentTypes")),
        .init(entry: 11, reason: .tooLong("title", maximum: 100)),
      ])
  }

  @Test func aFileThatIsNoFileOfTargetsIsOneProblem() {
    #expect(parse("not json").problems == [.init(entry: nil, reason: .notJSON)])
    #expect(parse("[1, 2]").problems == [.init(entry: nil, reason: .notAnObjectWithTargets)])
    #expect(parse("{}").problems == [.init(entry: nil, reason: .notAnObjectWithTargets)])
    let huge = Array(repeating: UInt8(ascii: " "), count: DirectTargetsFile.maximumSize + 1)
    #expect(
      DirectTargetsFile(parsing: huge).problems == [
        .init(entry: nil, reason: .tooLarge(maximum: DirectTargetsFile.maximumSize))
      ])
  }

  @Test func atMostThirtyTwoTargets() {
    let many = (0..<40).map { "{\"id\": \"t\($0)\", \"title\": \"T\($0)\"}" }.joined(separator: ",")
    let file = parse("{\"targets\": [\(many)]}")
    #expect(file.targets.count == 32)
    #expect(file.problems == [.init(entry: 32, reason: .tooMany(maximum: 32))])
  }

  @Test func aTargetTakesWhatConformsToItsTypes() {
    let types = TypeSystem(mime: MIMEHierarchy())
    let png = Attachment(item: .file(FilePath("/a.png")), typeIdentifiers: ["public.png", "image/png"])
    let pdf = Attachment(
      item: .file(FilePath("/b.pdf")), typeIdentifiers: ["com.adobe.pdf", "application/pdf"])
    let link = Attachment(item: .webURL("https://x/"), typeIdentifiers: ["public.url"])
    func takes(_ target: DirectTarget, _ attachments: [Attachment]) -> Bool {
      target.accepts(ActivationSelection(attachments: attachments, types: types))
    }
    let images = DirectTarget(id: "i", title: "Images", contentTypes: ["public.image"])
    #expect(takes(images, [png]))
    #expect(!takes(images, [png, pdf]))
    let anything = DirectTarget(id: "a", title: "Anything")
    #expect(takes(anything, [png, pdf, link]))
    let byMIME = DirectTarget(id: "m", title: "PDF or link", contentTypes: ["application/pdf", "public.url"])
    #expect(takes(byMIME, [pdf, link]))
    #expect(!takes(byMIME, [png]))
  }

  @Test func theAccessibleNameIsTheTitleThenTheSubtitle() {
    #expect(DirectTarget(id: "p", title: "Pixel 7", subtitle: "Phone").accessibleName == "Pixel 7 Phone")
    #expect(DirectTarget(id: "f", title: "Pictures").accessibleName == "Pictures")
  }

  @Test func signalRulesAreReadAndMatched() throws {
    let rule = try #require(
      SignalMatchRule(
        parsing:
          "type='signal',sender='org.kde.kdeconnect',interface='org.kde.kdeconnect.daemon',member='deviceAdded'"
      ))
    #expect(
      rule.matches(
        interface: "org.kde.kdeconnect.daemon", member: "deviceAdded", path: "/", firstArgument: nil))
    #expect(
      !rule.matches(
        interface: "org.kde.kdeconnect.daemon", member: "deviceRemoved", path: "/", firstArgument: nil))
    let namespace = try #require(
      SignalMatchRule(parsing: "type='signal',path_namespace='/modules/kdeconnect/devices'"))
    #expect(
      namespace.matches(
        interface: nil, member: nil, path: "/modules/kdeconnect/devices/abc", firstArgument: nil))
    #expect(!namespace.matches(interface: nil, member: nil, path: "/modules/kdeconnect", firstArgument: nil))
    for bad in [
      "type='method_call'", "interface='x'", "type='signal',eavesdrop='true'", "type='signal',member='a'b'",
      "type='signal',member='a\nb'", "type='signal',member=x",
    ] {
      #expect(SignalMatchRule(parsing: bad) == nil, "\(bad)")
    }
  }
}
