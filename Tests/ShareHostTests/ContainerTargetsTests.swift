import Foundation
import ShareCore
import Testing

@testable import ShareHost

/// A sandboxed service's direct targets, carried from its container to the host's folder.
@Suite struct ContainerTargetsTests {
  let root: String
  let container: String
  let inside: String
  let store: DirectTargetStore

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("container-targets-\(UUID())").path
    container = "\(root)/containers/org.example.notes"
    inside = "\(container)/state/xdg-share/targets"
    try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
    store = DirectTargetStore(stateHome: FilePath("\(root)/state"))
  }

  func carrier() -> ContainerTargets {
    ContainerTargets(serviceID: "org.example.notes", container: Array(container.utf8), hostStore: store)
  }

  var hostCopy: String? {
    try? String(contentsOfFile: store.file(of: "org.example.notes").text, encoding: .utf8)
  }

  @Test func theServicesOwnFileIsInstalledAndARemovedOneRemovesTheCopy() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    let published = #"{"targets": [{"id": "jana", "title": "Jana"}]}"#
    let run = carrier()
    try published.write(toFile: "\(inside)/org.example.notes.json", atomically: true, encoding: .utf8)
    // Another service's file in the container is not taken.
    try published.write(toFile: "\(inside)/org.example.other.json", atomically: true, encoding: .utf8)
    run.collect()
    #expect(hostCopy == published)
    #expect(!FileManager.default.fileExists(atPath: store.file(of: "org.example.other").text))
    let next = carrier()
    try FileManager.default.removeItem(atPath: "\(inside)/org.example.notes.json")
    next.collect()
    #expect(hostCopy == nil)
  }

  @Test func noFileLeavesTheHostsCopyAndALinkIsNotFollowed() throws {
    defer { try? FileManager.default.removeItem(atPath: root) }
    try FileManager.default.createDirectory(atPath: store.folder.text, withIntermediateDirectories: true)
    let outside = #"{"targets": []}"#
    try outside.write(toFile: store.file(of: "org.example.notes").text, atomically: true, encoding: .utf8)
    carrier().collect()
    #expect(hostCopy == outside)
    try "secret".write(toFile: "\(root)/secret", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: "\(inside)/org.example.notes.json", withDestinationPath: "\(root)/secret")
    carrier().collect()
    #expect(hostCopy == nil)
  }
}
