import Foundation
import ShareCore
import ShareTestSupport
import Testing

// `HistoryRecord`'s memberwise initializer is internal.
@testable import ShareHost

/// Where `HistoryStore.save` cannot write, it says which file and why.
@Suite struct HistoryStoreTests {
  let host: HostDesktop

  init() throws {
    host = try HostDesktop()
  }

  func record(_ id: String) -> HistoryRecord {
    HistoryRecord(
      id: id, serviceId: "org.example.x", serviceName: "X", items: [.text("hi")],
      started: Date(timeIntervalSince1970: 1_800_000_000), status: .running)
  }

  @Test func aRecordIsWrittenAndReadBack() throws {
    let store = host.history
    try store.save(record("r1"))
    #expect(store.directory == "\(host.root)/state/xdg-share/history")
    #expect(store.records() == [record("r1")])
    #expect(store.record(matching: "r") == .found(record("r1")))
  }

  @Test func aStateHomeThroughARegularFileFails() throws {
    let file = try host.desktop.writeFile(named: "plain", contents: "not a folder")
    let store = HistoryStore(stateHome: file)
    #expect(
      throws: HistoryStore.RecordFailure(
        file: "\(file)/xdg-share/history/r1.json", reason: .system("Not a directory"))
    ) {
      try store.save(record("r1"))
    }
  }

  @Test func aFolderWhereTheRecordGoesFails() throws {
    let store = host.history
    try FileManager.default.createDirectory(
      atPath: "\(store.directory)/r1.json", withIntermediateDirectories: true)
    #expect(
      throws: HistoryStore.RecordFailure(
        file: "\(store.directory)/r1.json", reason: .system("Is a directory"))
    ) {
      try store.save(record("r1"))
    }
    // The temporary file went with the failure.
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory) == ["r1.json"])
  }

  @Test(.disabled(if: getuid() == 0, "root writes into read-only folders"))
  func aReadOnlyStateHomeFails() throws {
    let readOnly = "\(host.root)/read-only"
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: readOnly)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: readOnly) }
    let failure = HistoryStore.RecordFailure(
      file: "\(readOnly)/xdg-share/history/r1.json", reason: .system("Permission denied"))
    #expect(throws: failure) {
      try HistoryStore(stateHome: readOnly).save(record("r1"))
    }
    #expect(failure.reasonText == "Permission denied")
  }

  @Test func aSessionIsNotStartedWhenItCannotBeRecorded() throws {
    let file = try host.desktop.writeFile(named: "plain", contents: "")
    let bundle = try host.install(BundleFixture.anything(id: "org.example.any", name: "Any"))
    let service = try #require(BundleLoader(languages: []).load(bundleAt: bundle).service)
    #expect(
      throws: ShareRefusal.cannotRecord(
        HistoryStore.RecordFailure(
          file: "\(file)/xdg-share/history/r1.json", reason: .system("Not a directory")))
    ) {
      try ShareSession(
        Share.prepare(
          service, requested: [RequestedItem(.text("hi"))], types: HostDesktop.types,
          inspector: InMemoryFileInspector()),
        history: HistoryStore(stateHome: file), environment: host.environment, requestID: "r1")
    }
  }
}
