import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A file the user cannot read is refused before its service starts, with exit status 1 and the
/// file named, as the README promises (issue 32). Root reads a `chmod 000` file, so `xdg-share`
/// runs as `nobody` (through `setpriv`) on a desktop handed to it: only when the tests run as root.
@Suite(.enabled(if: getuid() == 0, "only root can run xdg-share as another user"))
struct UnreadableFileTests {
  let desktop: TemporaryDesktop
  /// `nobody`, which needs no entry of its own to be switched to.
  static let user = "65534"

  init() throws {
    desktop = try TemporaryDesktop()
  }

  /// Runs `xdg-share arguments` as ``user`` on the desktop, now theirs.
  func runAsUser(_ arguments: [String]) throws -> (
    status: Int32, standardOutput: String, standardError: String
  ) {
    let chown = try CapturedRun.run(
      ["/usr/bin/chown", "-R", "\(Self.user):\(Self.user)", desktop.root].map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    #expect(chown.status == 0)
    let setpriv = [
      "/usr/bin/setpriv", "--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "--",
    ]
    let run = try CapturedRun.run(
      (setpriv + [Tool.path] + arguments).map { Array($0.utf8) }, environment: desktop.environment,
      workingDirectory: Array(desktop.files.utf8))
    return (
      run.status, String(decoding: run.standardOutput, as: UTF8.self),
      String(decoding: run.standardError, as: UTF8.self)
    )
  }

  /// A service that takes anything and completes, having read what it was given: without the
  /// check it shares the unreadable file and "completes".
  func installService() throws {
    try BundleFixture(
      id: "com.example.any", name: "Any", ruleXML: BundleFixture.predicate("TRUEPREDICATE"),
      program: "#!/bin/sh\ncat >/dev/null\necho '{\"complete\": {}}'\n"
    ).write(into: desktop.userExtensions)
  }

  @Test func anUnreadableFileIsRefusedBeforeTheServiceStarts() throws {
    try installService()
    let secret = try desktop.writeFile(named: "secret.txt", contents: "not for you\n")
    let readable = try desktop.writeFile(named: "notes.txt", contents: "for you\n")
    #expect(chmod(secret, 0) == 0)

    let result = try runAsUser(["--service", "com.example.any", "--", readable, secret])
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardError == "xdg-share: \(secret): permission denied\n")
    #expect(result.standardOutput.isEmpty)
    // Nothing was recorded: the service never started.
    let history = "\(desktop.root)/state/xdg-share/history"
    #expect((try? FileManager.default.contentsOfDirectory(atPath: history))?.isEmpty ?? true)

    let json = try runAsUser(["--service", "com.example.any", "--json", "--", secret])
    #expect(json.status == 1)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: String])
    #expect(object == ["status": "refused", "message": "\(secret): permission denied"])
  }

  /// The same file made readable again shares: the refusal is the permission, not the file.
  @Test func theSameFileReadableShares() throws {
    try installService()
    let notes = try desktop.writeFile(named: "notes.txt", contents: "for you\n")
    let result = try runAsUser(["--service", "com.example.any", "--", notes])
    #expect(result.status == 0, "\(result.standardError)")
  }
}
