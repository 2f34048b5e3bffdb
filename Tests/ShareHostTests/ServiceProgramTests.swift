import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareTestSupport
import Testing

/// Every program of a service starts one way, whatever it is started for: in its bundle's folder,
/// under the guard, with the service's environment and a marker, and it ends with what it started.
@Suite struct ServiceProgramTests {
  let host: HostDesktop
  let records: String

  init() throws {
    host = try HostDesktop()
    records = "\(host.root)/records"
    try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
  }

  func service(_ body: String) throws -> ShareService {
    let id = "org.example.started"
    let bundle = try host.install(
      BundleFixture.anything(id: id, name: id, program: "#!/bin/sh\n" + body + "\n"))
    var service = ShareService(
      id: id, name: id, bundlePath: bundle, executablePath: "\(bundle)/share",
      rule: .predicate(.constant(true)))
    // It records into the test's tree, which a sandbox does not show it.
    service.entitlements = .unconfinedForTests
    return service
  }

  /// The lines of `name` in the records, waiting at most 10 s for the file.
  func recorded(_ name: String) -> [String] {
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: "\(records)/\(name)"), Date() < deadline { usleep(10_000) }
    return ((try? String(contentsOfFile: "\(records)/\(name)", encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  @Test func aPublisherStartsAsAShareDoesWithoutARequest() throws {
    let service = try service(
      """
      cat /proc/$PPID/comm > "\(records)/parent.new"; mv "\(records)/parent.new" "\(records)/parent"
      pwd > "\(records)/folder"
      env > "\(records)/environment.new"; mv "\(records)/environment.new" "\(records)/environment"
      """)
    let program = try ServiceProgram.start(
      service, for: .publishTargets,
      environment: host.environment.merging(["XDG_SHARE_REQUEST_ID": "stale"]) { $1 },
      standardInput: .null, standardOutput: .null, standardError: .null)
    #expect(program.stop(after: 10) == .exited(0))
    #expect(program.isGuarded)
    #expect(recorded("parent") == ["xdg-share-guard"])
    #expect(recorded("folder") == [service.bundleLocation.text])
    let environment = recorded("environment")
    #expect(environment.contains("XDG_SHARE_PUBLISH_TARGETS=1"))
    #expect(environment.contains("XDG_SHARE_SERVICE_ID=org.example.started"))
    #expect(environment.contains("XDG_SHARE_BUNDLE_PATH=\(service.bundleLocation.text)"))
    #expect(!environment.contains { $0.hasPrefix("XDG_SHARE_REQUEST_ID=") })
    let marker = String(decoding: program.marker, as: UTF8.self)
    #expect(marker.hasPrefix("XDG_SHARE_PUBLISH_ID=") && environment.contains(marker))
  }

  @Test func aShareIsMarkedByItsRequest() throws {
    let service = try service(
      "env > \"\(records)/environment.new\"; mv \"\(records)/environment.new\" \"\(records)/environment\"")
    let program = try ServiceProgram.start(
      service, for: .share(requestID: "r-42"), environment: host.environment, standardInput: .null,
      standardOutput: .null, standardError: .null)
    #expect(program.stop(after: 10) == .exited(0))
    #expect(program.marker == Array("XDG_SHARE_REQUEST_ID=r-42".utf8))
    #expect(recorded("environment").contains("XDG_SHARE_REQUEST_ID=r-42"))
    #expect(!recorded("environment").contains("XDG_SHARE_PUBLISH_TARGETS=1"))
  }

  @Test func endingItEndsWhatItStartedInAnySession() throws {
    let service = try service(
      """
      setsid sh -c 'echo $$ > "\(records)/helper.new"; mv "\(records)/helper.new" "\(records)/helper"; exec sleep 60' \\
        < /dev/null > /dev/null 2>&1 &
      echo $$ > "\(records)/program.new"; mv "\(records)/program.new" "\(records)/program"
      exec sleep 60
      """)
    let program = try ServiceProgram.start(
      service, for: .publishTargets, environment: host.environment, standardInput: .null,
      standardOutput: .null,
      standardError: .null)
    let pids = [recorded("helper"), recorded("program")].compactMap { $0.first.flatMap { Int32($0) } }
    #expect(pids.count == 2)
    program.endWhatItStarted()
    #expect(program.stop(after: 5) != .exited(0))
    for pid in pids { #expect(!StubbornHelpers.isRunning(pid), "\(pid) outlived its program's end") }
  }

  @Test func aFailedRunSaysHowInItsLog() {
    #expect(PublishingFailure(.exited(0)) == nil)
    #expect(PublishingFailure(.exited(3))?.logLine == "xdg-share: the program exited with status 3\n")
    #expect(PublishingFailure(.signalled(9))?.logLine == "xdg-share: the program was killed by SIGKILL\n")
    #expect(
      PublishingFailure.timedOut(seconds: 15).logLine
        == "xdg-share: the program took longer than 15 seconds and was stopped\n")
    let store = DirectTargetStore(stateHome: FilePath("/state"))
    #expect(
      store.publishingLog(of: "org.example.a") == FilePath("/state/xdg-share/publishers/org.example.a.log"))
  }
}
