import ShareCore
import ShareHost
import ShareProtocol
import Testing

@testable import ShareSheet

/// How the sheet tells an end, on its status page and in the notification of a window closed:
/// one description for both, its detail in ShareEnd's words.
@Suite struct EndTellingTests {
  let service = ShareService(
    id: "org.example.up", name: "Upload", bundlePath: "/x", executablePath: "/x/share",
    rule: .dictionary(DictionaryRule()))

  @MainActor func told(_ end: ShareEnd, _ language: SheetText.Language = .english) -> PickerWindow.EndTelling
  {
    PickerWindow.telling(end, service: service, text: SheetText(language: language))
  }

  @Test @MainActor func theTimeLimitInTheRightNumber() {
    #expect(told(.finished(.timedOut(seconds: 1), requestID: "r")).detail == "Stopped after 1 second")
    #expect(told(.finished(.timedOut(seconds: 2), requestID: "r")).detail == "Stopped after 2 seconds")
    #expect(
      told(.finished(.timedOut(seconds: 1), requestID: "r"), .german).detail == "Nach 1 Sekunde angehalten")
    #expect(
      told(.finished(.timedOut(seconds: 4), requestID: "r"), .french).detail == "Arrêté après 4 secondes")
    let timedOut = told(.finished(.timedOut(seconds: 1), requestID: "r"))
    #expect(timedOut.title == "Upload took too long")
    #expect(timedOut.retries && timedOut.critical)
  }

  @Test @MainActor func eachEndsTitleDetailAndUrgency() {
    let failed = told(.finished(.failed(.signal(name: "SIGSEGV")), requestID: "r"))
    #expect(failed.title == "Upload failed")
    #expect(failed.detail == "it was killed by SIGSEGV")
    #expect(failed.style == "error" && failed.retries && failed.critical)
    let cancelled = told(.finished(.cancelled(code: 1, message: "not signed in"), requestID: "r"))
    #expect(cancelled.title == "Upload cancelled")
    #expect(cancelled.detail == "not signed in")
    #expect(!cancelled.retries && !cancelled.critical)
    let returned = [
      ItemPayload(attachments: [
        AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/up")
      ])
    ]
    let completed = told(.finished(.completed(returningItems: returned), requestID: "r"))
    #expect(completed.title == "Shared with Upload")
    #expect(completed.detail == "https://example.org/up")
    #expect(completed.icon == ["emblem-ok-symbolic", "object-select-symbolic"])
    #expect(!completed.critical)
    let refused = told(.refused(.noSuchService("x")))
    #expect(refused.title == "Cannot share with Upload")
    #expect(refused.detail == "no share service 'x'")
    #expect(!refused.retries && refused.critical)
    #expect(told(.composeCancelled).detail.isEmpty)
    #expect(told(.noServiceAccepts(itemCount: 1)).detail == "no installed service accepts this item")
  }
}
