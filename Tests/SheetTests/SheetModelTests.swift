import Foundation
import ShareCore
import ShareHost
import ShareProtocol
import Testing

@testable import ShareSheet

/// What the picker lists, says and reports, without a display.
@Suite struct SheetModelTests {
  let english = SheetText(language: .english)

  func service(_ id: String, _ name: String) -> ShareService {
    ShareService(
      id: id, name: name, bundlePath: "/x", executablePath: "/x/share", rule: .dictionary(DictionaryRule()))
  }

  @Test func hiddenServicesAreListedOnlyInEditMode() {
    let model = PickerModel(
      accepting: [service("a", "Alpha"), service("b", "Bravo"), service("c", "Charlie")],
      settings: UserSettings(hiddenServices: ["a"], pinnedServices: ["c"]), kinds: [.image], uses: [],
      now: Date())
    #expect(model.rows(editing: false).map(\.service.id) == ["c", "b"])
    let editing = model.rows(editing: true)
    #expect(editing.map(\.service.id) == ["c", "a", "b"])
    #expect(editing.map(\.isHidden) == [false, true, false])
    #expect(editing.map(\.isPinned) == [true, false, false])
  }

  /// A target's icon: symbolic first, then shorter names, as themes fall back.
  @Test @MainActor func targetIconsFallBackSymbolicFirst() {
    #expect(
      TargetsRow.fallbacks("computer-laptop") == [
        "computer-laptop-symbolic", "computer-laptop", "computer-symbolic", "computer",
      ])
    #expect(TargetsRow.fallbacks("phone-symbolic") == ["phone-symbolic", "phone"])
    #expect(TargetsRow.fallbacks("folder") == ["folder-symbolic", "folder"])
  }

  @Test func searchFindsEveryWordInTheNameOrIdentifier() {
    let mail = service("org.xdgshare.mail", "Mail")
    #expect(PickerModel.matches(mail, query: ""))
    #expect(PickerModel.matches(mail, query: "MAI"))
    #expect(PickerModel.matches(mail, query: "xdgshare ma"))
    #expect(!PickerModel.matches(mail, query: "mail upload"))
    #expect(!PickerModel.matches(mail, query: "z"))
  }

  @Test func togglesPinLastAndHide() {
    var settings = UserSettings(pinnedServices: ["a"])
    PickerModel.togglePin("b", in: &settings)
    #expect(settings.pinnedServices == ["a", "b"])
    PickerModel.togglePin("a", in: &settings)
    #expect(settings.pinnedServices == ["b"])
    PickerModel.toggleHidden("x", in: &settings)
    #expect(settings.hiddenServices == ["x"])
    PickerModel.toggleHidden("x", in: &settings)
    #expect(settings.hiddenServices.isEmpty)
  }

  // MARK: Summary

  func file(_ name: String, _ type: String) -> ShareCore.Attachment {
    ShareCore.Attachment(
      item: .file(FilePath("/home/u/\(name)")),
      typeIdentifiers: type.hasPrefix("image/") ? ["public.png", type] : [type],
      file: FileFacts(contentType: type, size: 1, isDirectory: false))
  }

  func summary(_ attachments: [ShareCore.Attachment]) -> SelectionSummary {
    SelectionSummary(attachments: attachments, text: english, describe: { "\($0) file" })
  }

  @Test func oneImageShowsItsThumbnailNameAndType() {
    let result = summary([file("photo.png", "image/png")])
    #expect(
      result
        == SelectionSummary(
          picture: .thumbnail(FilePath("/home/u/photo.png")), title: "photo.png", subtitle: "image/png file"))
  }

  @Test func severalFilesAreCountedAndTheFirstImageShown() {
    let result = summary([
      file("a.pdf", "application/pdf"), file("b.png", "image/png"), file("c.txt", "text/plain"),
    ])
    #expect(result.title == "3 files")
    #expect(result.subtitle == "a.pdf, b.png, c.txt")
    #expect(result.picture == SelectionSummary.Picture.thumbnail(FilePath("/home/u/b.png")))
    #expect(
      summary([file("a.pdf", "application/pdf")]).picture
        == SelectionSummary.Picture.contentType("application/pdf"))
  }

  @Test func aLinkShowsItsHostAndATitleWhenGiven() {
    let link = ShareCore.Attachment(
      item: .webURL("https://www.Example.org:8080/page?q=1"), typeIdentifiers: ["public.url"])
    #expect(summary([link]).title == "example.org")
    #expect(summary([link]).subtitle == "https://www.Example.org:8080/page?q=1")
    let titled = summary([link, ShareCore.Attachment(item: .text("  The Page\nmore"), typeIdentifiers: [])])
    #expect(titled.title == "The Page")
    #expect(titled.subtitle == "example.org")
    #expect(titled.picture == SelectionSummary.Picture.icons(SelectionSummary.linkIcons))
  }

  @Test func aTextShowsItsFirstLine() {
    let result = summary([
      ShareCore.Attachment(item: .text("\n\n  Hello there  \nsecond"), typeIdentifiers: [])
    ])
    #expect(result.title == "Hello there")
    #expect(result.subtitle == "Text")
    let long = summary([
      ShareCore.Attachment(item: .text(String(repeating: "x", count: 200)), typeIdentifiers: [])
    ])
    #expect(long.title.count == 80)
  }

  @Test func mixedItemsAreCounted() {
    let result = summary([
      file("a.pdf", "application/pdf"),
      ShareCore.Attachment(item: .webURL("https://x.org/"), typeIdentifiers: []),
    ])
    #expect(result.title == "2 items")
    #expect(result.subtitle == "a.pdf, x.org")
  }

  @Test(arguments: [
    ("https://user:pw@host.example:80/x", "host.example"), ("http://[::1]:8080/", "[::1]"),
    ("https://WWW.A.B#frag", "a.b"), ("mailto:someone@example.org", nil),
  ])
  func hosts(url: String, host: String?) {
    #expect(SelectionSummary.host(of: url) == host)
  }

  // MARK: Words

  @Test func languageFollowsTheEnvironmentAsServiceNamesDo() {
    #expect(SheetText(environment: ["LANG": "de_CH.UTF-8"]).language == .german)
    #expect(SheetText(environment: ["LANG": "de_DE.UTF-8", "LANGUAGE": "fr:de"]).language == .french)
    #expect(SheetText(environment: ["LANG": "C.UTF-8", "LANGUAGE": "fr"]).language == .english)
    #expect(SheetText(environment: ["LANG": "it_IT.UTF-8", "LANGUAGE": "it:fr"]).language == .french)
    #expect(SheetText(environment: ["LANG": "ja_JP.UTF-8"]).language == .english)
  }

  @Test func everyTableTranslatesTheSameTextsAndKeepsThePlaceholders() throws {
    let german = try #require(SheetText.tables[.german])
    let french = try #require(SheetText.tables[.french])
    #expect(Set(german.keys) == Set(french.keys))
    func placeholders(_ text: String) -> Set<Substring> {
      Set(
        text.split(separator: "{", omittingEmptySubsequences: false).dropFirst().compactMap {
          $0.split(separator: "}").first
        })
    }
    for (english, translation) in Array(german) + Array(french) {
      #expect(placeholders(english) == placeholders(translation), "\(english) → \(translation)")
    }
    #expect(placeholders("{service} failed") == ["service"])
    let text = SheetText(language: .german)
    #expect(text("Pin {service}", ["service": "Mail"]) == "Mail anheften")
    #expect(text("not in any table") == "not in any table")
  }

  // MARK: Result

  func json(_ result: SheetResult) throws -> [String: Any] {
    let line = result.line
    #expect(line.last == UInt8(ascii: "\n"))
    #expect(!line.dropLast().contains(UInt8(ascii: "\n")))
    return try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
  }

  @Test func closedBeforeAChoiceIsCancelled() throws {
    let object = try json(SheetResult(.notChosen(.declined)))
    #expect(object["exit-status"] as? Int == 3)
    #expect(object["response"] as? Int == 1)
    #expect((object["results"] as? [String: Any])?["service-id"] == nil)
  }

  @Test func completedCarriesWhatTheServiceReturned() throws {
    let items = [
      ItemPayload(attachments: [AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://x.org/a/b")])
    ]
    let object = try json(
      SheetResult(.finished(.completed(returningItems: items), requestID: "r1"), serviceID: "org.s"))
    #expect(object["exit-status"] as? Int == 0)
    #expect(object["response"] as? Int == 0)
    let results = try #require(object["results"] as? [String: Any])
    #expect(results["service-id"] as? String == "org.s")
    #expect(results["request-id"] as? String == "r1")
    let returned = try #require(results["returned-items"] as? [[String: Any]])
    #expect(returned.first?["url"] as? String == "https://x.org/a/b")
  }

  @Test func exitStatusesAreTheCommandLines() {
    func result(_ outcome: ShareOutcome) -> SheetResult {
      SheetResult(.finished(outcome, requestID: "r"), serviceID: "s")
    }
    #expect(result(.cancelled(code: 1, message: "no")).exitStatus == 3)
    #expect(result(.failed(.exitStatus(2))).exitStatus == 4)
    #expect(result(.failed(.exitStatus(2))).response == 2)
    #expect(result(.timedOut(seconds: 3)).exitStatus == 5)
    #expect(SheetResult(.noServiceAccepts(itemCount: 1)).exitStatus == 7)
    #expect(SheetResult(.refused(.noSuchService("x")), serviceID: "x").exitStatus == 6)
  }

  /// Rows draw a service's icon symbolic first, as GNOME draws rows and as the suggestions are;
  /// the full-colour icon only where the theme has no symbolic one.
  @Test func serviceIconsAreSymbolicFirst() {
    #expect(
      ServiceRowView.iconNames(for: "mail-send")
        == ["mail-send-symbolic", "mail-send", ShareService.defaultIcon + "-symbolic"])
    #expect(ServiceRowView.iconNames(for: "phone-symbolic").first == "phone-symbolic")
    #expect(
      ServiceRowView.iconNames(for: "phone-symbolic").count
        == Set(ServiceRowView.iconNames(for: "phone-symbolic")).count)
  }
}
