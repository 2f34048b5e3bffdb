import Foundation
import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX
import ShareTestSupport
import Testing

@testable import ShareDaemon

/// How the service takes in a call's items, the one way for `QueryItems`, `Explain`, `Share` and
/// `ShowPicker`, and how a type it found for a file handed over is explained.
@Suite struct ItemAdmissionTests {
  let desktop: TemporaryDesktop

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// A `QueryItems` call of `items`.
  func call(_ items: [[(String, DBusValue)]]) -> DBusMessage {
    let message = DBusMessage.methodCall(
      destination: ShareDaemon.busName, path: ShareDaemon.objectPath, interface: ShareDaemon.interface,
      member: "QueryItems")
    message.append([.array(elementSignature: "a{sv}", items.map { .vardict($0) }), .vardict([])])
    return message
  }

  static let sandboxed = Caller(pid: nil, appID: "org.example.Notes", executable: nil)

  @Test func aSandboxedCallersPathsAreRefusedItsLinksAndTextsNot() throws {
    let items: [[(String, DBusValue)]] = [
      [("url", .string("https://example.org"))], [("text", .string("hi"))],
      [("path", .bytes(Array("/tmp/a".utf8)))],
    ]
    #expect(throws: BusError.invalidArgument("items[2]", .pathFromSandbox)) {
      _ = try AdmittedItems(call(items), argument: 0, named: "items", caller: Self.sandboxed)
    }
    let admitted = try AdmittedItems(call(items), argument: 0, named: "items", caller: Caller())
    #expect(
      try admitted.lookedAt().map(\.item) == [
        .webURL("https://example.org"), .text("hi"), .file(FilePath("/tmp/a")),
      ])
    #expect(
      try AdmittedItems(call(Array(items.prefix(2))), argument: 0, named: "items", caller: Self.sandboxed)
        .lookedAt().count == 2)
  }

  @Test func noItemsAreRefusedOnlyWhereSomeAreNeeded() throws {
    #expect(throws: BusError.invalidArgument("items", .noItems)) {
      _ = try AdmittedItems(call([]), argument: 0, named: "items", caller: Caller(), requiringSome: true)
    }
    #expect(try AdmittedItems(call([]), argument: 0, named: "items", caller: Caller()).lookedAt().isEmpty)
  }

  /// A file handed over as a descriptor, named `name`, as ``ItemArguments`` reads one.
  func handedOver(named name: String?, mimeType: String? = nil) throws -> (GivenItems, FileDescriptor) {
    let path = try desktop.writeFile(named: Array("photo.png".utf8), contents: tinyPNG)
    let descriptor = try FileDescriptor.openForReading(path)
    let given = GivenItems(
      items: [RequestedItem(.file(FilePath(bytes: descriptor.processPath)), mimeType: mimeType)],
      descriptors: [0: GivenDescriptor(descriptor: descriptor, name: name, label: "items[0]")])
    return (given, descriptor)
  }

  /// What `why` and `Explain` say of the first item of `items`.
  func explained(_ items: [RequestedItem]) throws -> ServiceExplanation.Item {
    let types = TypeSystem(mime: MIMEHierarchy())
    let inspector = InMemoryFileInspector(
      Dictionary(
        uniqueKeysWithValues: items.compactMap { item -> (FilePath, InMemoryFileInspector.Answer)? in
          guard case .file(let path) = item.item else { return nil }
          return (path, .file(contentType: "application/octet-stream", size: UInt64(tinyPNG.count)))
        }))
    let attachment = try #require(types.attachments(for: items, inspector: inspector).attachments.first)
    return ServiceExplanation.Item(attachment, types: types)
  }

  @Test func aTypeFoundFromAFileHandedOverIsExplainedAsDetected() throws {
    let (given, descriptor) = try handedOver(named: "holiday.png")
    defer { descriptor.close() }
    let items = try HandedOverFiles.checked(given)
    #expect(items[0].mimeType == "image/png")
    #expect(items[0].mimeTypeSource == .detected)
    let item = try explained(items)
    #expect(item.mimeType == "image/png")
    #expect(item.foundBy == .detected)
    #expect(TypeSource.detected.rawValue == "detected")
  }

  @Test func aTypeTheCallerGaveIsStillTheCallers() throws {
    let (given, descriptor) = try handedOver(named: "holiday.png", mimeType: "image/jpeg")
    defer { descriptor.close() }
    let items = try HandedOverFiles.checked(given)
    #expect(items[0].mimeType == "image/jpeg")
    #expect(items[0].mimeTypeSource == .caller)
    #expect(try explained(items).foundBy == .caller)
  }

  @Test func aFileHandedOnKeepsItsDetectedType() throws {
    let (given, descriptor) = try handedOver(named: "holiday.png")
    defer { descriptor.close() }
    let paths = SearchPaths.system(environment: desktop.environment)
    let (items, files) = try HandedOverFiles.handOn(given, paths: paths, portal: nil)
    defer { files?.release(on: RecordingBus()) }
    #expect(items[0].mimeTypeSource == .detected)
    guard case .file(let path) = items[0].item else {
      Issue.record("not a file: \(items[0].item)")
      return
    }
    #expect(path.lastComponent == Array("holiday.png".utf8))
  }
}
