import Foundation
import ShareCore
import ShareProtocol
import Testing

@testable import ShareKit

/// Publishing direct targets, and the target chosen handed to the extension.
@Suite struct ShareTargetsTests {
  let folder: TemporaryFolder
  let paths: SearchPaths

  init() throws {
    folder = try TemporaryFolder()
    paths = SearchPaths(environment: ["HOME": folder.path, "XDG_STATE_HOME": "\(folder.path)/state"])
  }

  var file: String { "\(folder.path)/state/xdg-share/targets/ch.example.hoi.share.json" }

  @Test func publishedTargetsAreWhatTheSheetReads() throws {
    let targets = [
      ShareTarget(
        identifier: "jana", title: "Jana", subtitle: "Signal", iconName: "avatar-default",
        contentTypes: ["public.image", "public.url"]),
      ShareTarget(identifier: "group-7", title: "Climbing club"),
    ]
    try ShareTargets.publish(targets, forService: "ch.example.hoi.share", paths: paths)
    let read = DirectTargetsFile(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    #expect(read.problems.isEmpty)
    #expect(read.targets.map(\.id) == ["jana", "group-7"])
    #expect(
      read.targets[0]
        == DirectTarget(
          id: "jana", title: "Jana", subtitle: "Signal", icon: "avatar-default",
          contentTypes: ["public.image", "public.url"]))
    // Published again: replaced whole, nothing left beside it.
    try ShareTargets.publish([targets[1]], forService: "ch.example.hoi.share", paths: paths)
    let again = DirectTargetsFile(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    #expect(again.targets.map(\.id) == ["group-7"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: "\(folder.path)/state/xdg-share/targets") == [
        "ch.example.hoi.share.json"
      ])
  }

  @Test func atMostThirtyTwoAreKept() throws {
    let many = (0..<40).map { ShareTarget(identifier: "t\($0)", title: "T\($0)") }
    try ShareTargets.publish(many, forService: "ch.example.hoi.share", paths: paths)
    let read = DirectTargetsFile(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    #expect(read.targets.count == ShareTargets.maximumCount)
  }

  @Test func aServiceIsNamedByItsIdentifier() {
    #expect(throws: ShareError.self) {
      try ShareTargets.publish([], forService: "../escape", paths: paths)
    }
  }

  @Test func theChosenTargetIsTheContexts() {
    let sink = RecordingSink()
    let context = ExtensionContext(
      request: PluginRequest(
        requestId: "r", serviceId: "ch.example.hoi.share", inputItems: [],
        target: TargetPayload(id: "jana", title: "Jana", subtitle: "Signal")),
      environment: [:], sink: sink)
    #expect(context.target == ShareTarget(identifier: "jana", title: "Jana", subtitle: "Signal"))
    #expect(makeContext(sink: sink).target == nil)
  }
}
