import Foundation
import ShareProtocol
import Testing

@testable import ShareKit

/// What the host writes for a PNG whose name is not UTF-8 (`caf\xE9\n.png`), a link and a text.
private let hostRequest = """
  {"inputItems":[{"attachments":[{"name":"caf\\ufffd\\n.png","size":67,"typeIdentifiers":["public.png","image/png"],\
  "url":"file:///tmp/files/caf%E9%0A.png"},{"typeIdentifiers":["public.url"],"url":"https://example.org/a?b=c"},\
  {"text":"hoi","typeIdentifiers":["public.plain-text","text/plain"]}],"attributedContentText":"hoi"}],\
  "requestId":"r-1","serviceId":"ch.example.hoi.share","userInfo":{"source":"files"},"version":1}

  """

@Suite("The request becomes the context")
struct RequestDecodingTests {
  @Test("a file with a name that is not UTF-8, a link and a text")
  func fileLinkAndText() throws {
    let request = try ShareExtensionRunner.decodeRequest(Data(hostRequest.utf8))
    let context = ExtensionContext(
      request: request, environment: ["XDG_SHARE_BUNDLE_PATH": "/opt/hoi.shareext"], sink: RecordingSink())
    #expect(context.requestID == "r-1")
    #expect(context.serviceID == "ch.example.hoi.share")
    #expect(context.userInfo == ["source": .string("files")])
    #expect(context.bundleURL?.path == "/opt/hoi.shareext")
    try #require(context.inputItems.count == 1)
    let item = context.inputItems[0]
    #expect(item.attributedContentText == "hoi")
    #expect(item.attributedTitle == nil)
    try #require(item.attachments.count == 3)

    let file = item.attachments[0]
    #expect(file.isFile)
    #expect(file.filePathBytes == Array("/tmp/files/caf".utf8) + [0xE9, 0x0A] + Array(".png".utf8))
    #expect(file.fileURL?.absoluteString == "file:///tmp/files/caf%E9%0A.png")
    #expect(file.name == "caf\u{FFFD}\n.png")
    #expect(file.size == 67)
    #expect(file.registeredTypeIdentifiers == ["public.png", "image/png"])
    #expect(file.webURL == nil)
    #expect(file.text == nil)

    let link = item.attachments[1]
    #expect(!link.isFile)
    #expect(link.webURL?.absoluteString == "https://example.org/a?b=c")
    #expect(link.fileURL == nil)
    #expect(link.filePathBytes == nil)
    #expect(link.registeredTypeIdentifiers == ["public.url"])

    let text = item.attachments[2]
    #expect(text.text == "hoi")
    #expect(text.webURL == nil && text.fileURL == nil)
  }

  @Test("a UTF-8 file name gives a URL with a usable path")
  func utf8FileName() throws {
    let request = PluginRequest(
      requestId: "r", serviceId: "s",
      inputItems: [
        ItemPayload(attachments: [
          AttachmentPayload(
            typeIdentifiers: ["public.plain-text", "text/plain"], url: "file:///tmp/caf%C3%A9%20%3F.txt",
            path: "/tmp/café ?.txt", name: "café ?.txt")
        ])
      ])
    let decoded = try ShareExtensionRunner.decodeRequest(try requestLine(request))
    let file = try #require(decoded.inputItems.first?.attachments.first).url
    let provider = try #require(
      ExtensionContext(request: decoded, environment: [:], sink: RecordingSink()).inputItems.first?
        .attachments.first)
    #expect(file == "file:///tmp/caf%C3%A9%20%3F.txt")
    #expect(provider.fileURL?.path == "/tmp/café ?.txt")
    #expect(provider.filePathBytes == Array("/tmp/café ?.txt".utf8))
  }

  @Test(
    "an unreadable request is named",
    arguments: [
      ("", "no request on standard input"),
      ("  \n", "no request on standard input"),
      ("hoi\n", "is not JSON"),
      (#"{"version":1,"serviceId":"s","inputItems":[],"userInfo":{}}"#, "lacks 'requestId'"),
      (
        #"{"version":1,"requestId":"r","serviceId":"s","inputItems":[{"attachments":[{"url":"x"}]}],"userInfo":{}}"#,
        "lacks 'inputItems[0].attachments[0].typeIdentifiers'"
      ),
      (
        #"{"version":1,"requestId":7,"serviceId":"s","inputItems":[],"userInfo":{}}"#,
        "wrong value at 'requestId'"
      ),
    ])
  func unreadable(input: String, reason: String) async throws {
    let sink = RecordingSink()
    let status = await ShareExtensionRunner.serve(
      input: .success(Data(input.utf8)), environment: [:], sink: sink, choosing: { _ in Completer.self })
    #expect(status == 1)
    let events = try sink.events
    try #require(events.count == 1)
    guard case .cancel(let code, let message) = events[0] else {
      Issue.record("expected a cancel event, got \(events[0])")
      return
    }
    #expect(code == 2)
    #expect(message.contains(reason), "\(message)")
  }
}

@Suite struct ServiceFailureTests {
  @Test func aServiceFailureEndsWithAFailEvent() async throws {
    let sink = RecordingSink()
    let request = PluginRequest(requestId: "r-1", serviceId: "s", inputItems: [])
    #expect(try await serve(ServerDown.self, request: request, sink: sink) == 0)
    #expect(try sink.events == [.fail(code: 1, message: "Cannot connect to example.org")])
  }

  @Test func anyOtherErrorStillCancels() async throws {
    let sink = RecordingSink()
    let request = PluginRequest(requestId: "r-1", serviceId: "s", inputItems: [])
    #expect(try await serve(NotSetUp.self, request: request, sink: sink) == 0)
    let events = try sink.events
    try #require(events.count == 1)
    guard case .cancel(let code, let message) = events[0] else {
      Issue.record("expected a cancel event, got \(events[0])")
      return
    }
    #expect(code == 1 && message == "not set up")
  }
}

private struct ServerDown: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    throw ShareError.serviceFailed("Cannot connect to example.org")
  }
}

private struct NotSetUp: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    throw ShareError("not set up")
  }
}

/// Completes with no items.
private struct Completer: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    context.completeRequest()
  }
}

/// Returns, as texts, what it was given: proves `perform` sees the request.
private struct Echo: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    let seen = context.inputItems.flatMap(\.attachments).map { attachment in
      attachment.name ?? attachment.webURL?.absoluteString ?? attachment.text ?? "?"
    }
    context.setProgress(0.5, message: "echoing")
    context.completeRequest(returningItems: [ExtensionItem(attachments: seen.map(ItemProvider.init(text:)))])
  }
}

/// Throws the error it is told to throw.
private struct Thrower: ShareExtension {
  struct Plain: Error {}
  struct Described: LocalizedError {
    var errorDescription: String? { "the server said no" }
  }

  func perform(context: ExtensionContext) async throws {
    context.setProgress(0.1)
    switch context.userInfo["throw"] {
    case .string("share")?: throw ShareError(code: 7, message: "quota exceeded")
    case .string("described")?: throw Described()
    case .string("cancellation")?: throw CancellationError()
    default: throw Plain()
    }
  }
}

/// Returns without ending the request.
private struct Forgetful: ShareExtension {
  func perform(context: ExtensionContext) async throws {}
}

/// Completes, then throws: the completion stands.
private struct CompletesThenThrows: ShareExtension {
  func perform(context: ExtensionContext) async throws {
    context.completeRequest(returningItems: [ExtensionItem(attributedContentText: "done")])
    throw ShareError("too late")
  }
}

@Suite("Events")
struct EventTests {
  @Test("progress, then completion: one line each, as the host reads them")
  func progressAndComplete() throws {
    let sink = RecordingSink()
    let context = makeContext(sink: sink)
    context.setProgress(0.25, message: "Uploading photo.png")
    context.setProgress(0.5)
    context.completeRequest(returningItems: [
      ExtensionItem(
        attributedContentText: "uploaded",
        attachments: [
          ItemProvider(url: try #require(URL(string: "https://example.org/p/1"))),
          ItemProvider(
            filePathBytes: Array("/tmp/caf".utf8) + [0xE9], typeIdentifiers: ["public.png", "image/png"]),
        ])
    ])
    #expect(
      sink.lines == [
        #"{"message":"Uploading photo.png","progress":0.25}"# + "\n",
        #"{"progress":0.5}"# + "\n",
        #"{"complete":{"returningItems":[{"attachments":[{"typeIdentifiers":["public.url"],"url":"https://example.org/p/1"},"#
          + "{\"name\":\"caf\u{FFFD}\",\"typeIdentifiers\":[\"public.png\",\"image/png\"],\"url\":\"file:///tmp/caf%E9\"}],"
          + #""attributedContentText":"uploaded"}]}}"# + "\n",
      ])
  }

  @Test("a cancel event carries the error's code and message")
  func cancelLine() {
    let sink = RecordingSink()
    makeContext(sink: sink).cancelRequest(withError: ShareError.userCancelled())
    #expect(sink.lines == [#"{"cancel":{"error":{"code":3072,"message":"cancelled"}}}"# + "\n"])
  }

  @Test("only the first final event counts; progress after it is ignored")
  func firstFinalWins() throws {
    let sink = RecordingSink()
    let context = makeContext(sink: sink)
    #expect(!context.isFinished)
    context.cancelRequest(withError: ShareError("first"))
    context.completeRequest()
    context.cancelRequest(withError: ShareError("second"))
    context.setProgress(0.9, message: "late")
    #expect(context.isFinished)
    #expect(try sink.events == [.cancel(code: 1, message: "first")])
  }

  @Test("of many tasks ending the request at once, exactly one is heard")
  func racingFinals() async throws {
    let sink = RecordingSink()
    let context = makeContext(sink: sink)
    await withTaskGroup(of: Void.self) { group in
      for index in 0..<64 {
        group.addTask {
          context.setProgress(Double(index) / 64)
          if index.isMultiple(of: 2) {
            context.completeRequest()
          } else {
            context.cancelRequest(withError: ShareError("task \(index)"))
          }
        }
      }
    }
    let events = try sink.events
    #expect(events.filter(\.isFinal).count == 1)
    #expect(events.last?.isFinal == true)
  }

  @Test(
    "progress is clamped to 0…1",
    arguments: [
      (-0.5, 0.0), (0, 0), (0.42, 0.42), (1, 1), (7, 1), (.infinity, 1), (-.infinity, 0), (.nan, 0),
    ])
  func clampedProgress(given: Double, sent: Double) throws {
    let sink = RecordingSink()
    makeContext(sink: sink).setProgress(given)
    #expect(try sink.events == [.progress(fraction: sent, message: nil)])
  }
}

@Suite("Serving a request")
struct ServeTests {
  private let services: [String: any ShareExtension.Type] = [
    "ch.example.hoi.share": Echo.self, "ch.example.other": Thrower.self,
  ]
  private let request = PluginRequest(
    requestId: "r-2", serviceId: "ch.example.hoi.share",
    inputItems: [
      ItemPayload(
        attributedContentText: "hoi",
        attachments: [
          AttachmentPayload(typeIdentifiers: ["public.url"], url: "https://example.org/"),
          AttachmentPayload(typeIdentifiers: ["public.plain-text", "text/plain"], text: "hoi"),
        ])
    ])

  @Test("perform sees the request and its events reach the host")
  func performSeesTheRequest() async throws {
    let sink = RecordingSink()
    #expect(try await serve(Echo.self, request: request, sink: sink) == 0)
    let text = ["public.plain-text", "text/plain"]
    #expect(
      try sink.events == [
        .progress(fraction: 0.5, message: "echoing"),
        .complete(returningItems: [
          ItemPayload(attachments: [
            AttachmentPayload(typeIdentifiers: text, text: "https://example.org/"),
            AttachmentPayload(typeIdentifiers: text, text: "hoi"),
          ])
        ]),
      ])
  }

  @Test(
    "a thrown error cancels the request",
    arguments: [
      ("share", 7, "quota exceeded"), ("described", 1, "the server said no"),
      ("cancellation", 3072, "cancelled"),
      ("plain", 1, "Plain()"),
    ])
  func thrownError(kind: String, code: Int, message: String) async throws {
    var request = request
    request.userInfo = ["throw": .string(kind)]
    let sink = RecordingSink()
    #expect(try await serve(Thrower.self, request: request, sink: sink) == 0)
    #expect(
      try sink.events == [.progress(fraction: 0.1, message: nil), .cancel(code: code, message: message)])
  }

  @Test("returning without ending the request completes it with no items")
  func implicitCompletion() async throws {
    let sink = RecordingSink()
    #expect(try await serve(Forgetful.self, request: request, sink: sink) == 0)
    #expect(sink.lines == [#"{"complete":{"returningItems":[]}}"# + "\n"])
  }

  @Test("an error thrown after completing is not heard")
  func errorAfterCompletion() async throws {
    let sink = RecordingSink()
    #expect(try await serve(CompletesThenThrows.self, request: request, sink: sink) == 0)
    #expect(
      try sink.events == [
        .complete(returningItems: [ItemPayload(attributedContentText: "done", attachments: [])])
      ])
  }

  @Test("one program for several services picks by the request's service")
  func runnerPicksByService() async throws {
    let sink = RecordingSink()
    let status = await ShareExtensionRunner.serve(
      input: .success(try requestLine(request)), environment: [:], sink: sink,
      choosing: ShareExtensionRunner.chooser(for: services))
    #expect(status == 0)
    #expect(try sink.events.first == .progress(fraction: 0.5, message: "echoing"))
    #expect(try sink.events.count == 2)
  }

  @Test("a service the program does not serve is refused with a clear message")
  func unknownService() async throws {
    var request = request
    request.serviceId = "ch.example.unknown"
    let sink = RecordingSink()
    let status = await ShareExtensionRunner.serve(
      input: .success(try requestLine(request)), environment: [:], sink: sink,
      choosing: ShareExtensionRunner.chooser(for: services))
    #expect(status == 1)
    #expect(
      try sink.events == [
        .cancel(
          code: 3,
          message: "this program serves ch.example.hoi.share, ch.example.other, not 'ch.example.unknown'")
      ])
  }

  @Test("standard input that cannot be read is reported")
  func unreadableInput() async throws {
    let sink = RecordingSink()
    let status = await ShareExtensionRunner.serve(
      input: .failure(ShareError.invalidRequest("cannot read standard input")), environment: [:], sink: sink,
      choosing: { _ in Completer.self })
    #expect(status == 1)
    #expect(try sink.events == [.cancel(code: 2, message: "cannot read standard input")])
  }
}

@Suite("Errors")
struct ErrorReportTests {
  @Test("Foundation errors are described in words")
  func foundationErrors() {
    let error = NSError(
      domain: "ch.example", code: 42, userInfo: [NSLocalizedDescriptionKey: "the disk is full"])
    #expect(ShareError.report(for: error) == ShareError(code: 1, message: "the disk is full"))
    #expect(ShareError.report(for: CocoaError(.fileNoSuchFile)).message.contains("doesn’t exist"))
  }
}

/// The schema's smallest request: `userInfo` and an item's `attachments` may be left out.
@Suite struct MinimalRequestTests {
  @Test func optionalMembersMayBeLeftOut() async throws {
    let sink = RecordingSink()
    let input = #"{"version":1,"requestId":"r","serviceId":"s","inputItems":[{}]}"#
    let status = await ShareExtensionRunner.serve(
      input: .success(Data(input.utf8)), environment: [:], sink: sink, choosing: { _ in Completer.self })
    #expect(status == 0)
    guard case .complete? = try sink.events.last else {
      Issue.record("expected a complete event, got \(try sink.events)")
      return
    }
  }
}
