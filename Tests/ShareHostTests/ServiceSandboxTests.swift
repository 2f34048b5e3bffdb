import Foundation
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol
import ShareTestSupport
import Testing

/// A real fake service run in its sandbox: what it is handed and keeps works, every other door is
/// closed. It writes what it found into its container, which the host reads afterwards.
@Suite struct ServiceSandboxTests {
  let host: HostDesktop
  static let id = "org.example.sandboxed"

  init() throws {
    host = try HostDesktop()
  }

  /// Whether bwrap can make a sandbox here; where it cannot, the refusal is what is tested.
  static let canSandbox: Bool = {
    let probe = try? CapturedRun.run(
      [
        "/usr/bin/bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib",
        "--symlink", "usr/lib64", "/lib64", "--", "/usr/bin/true",
      ].map {
        Array($0.utf8)
      }, environment: ["PATH": "/usr/bin:/bin"])
    return probe?.status == 0
  }()

  var container: String { "\(host.root)/data/xdg-share/containers/\(Self.id)" }

  func run(_ body: String, items: [String] = [], environment extra: [String: String] = [:]) throws
    -> ShareOutcome
  {
    let bundle = try host.install(
      BundleFixture.anything(id: Self.id, name: "Sandboxed", program: "#!/bin/sh\n" + body + "\n"))
    let service = ShareService(
      id: Self.id, name: "Sandboxed", bundlePath: bundle, executablePath: "\(bundle)/share",
      rule: .predicate(.constant(true)))
    #expect(service.entitlements == .none)
    let attachments = items.map {
      AttachmentPayload(typeIdentifiers: ["public.plain-text"], url: FilePath($0).fileURL, path: $0)
    }
    let request = PluginRequest(
      requestId: "r-\(UUID().uuidString)", serviceId: Self.id,
      inputItems: [ItemPayload(attachments: attachments)])
    return PluginRunner(
      service: service, request: request, environment: host.environment.merging(extra) { $1 }, logPath: nil
    ).run()
  }

  func found() -> [String] {
    ((try? String(contentsOfFile: "\(container)/data/found", encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  @Test(.enabled(if: canSandbox)) func itsItemsAndContainerWorkAndNothingElseIsThere() throws {
    let files = "\(host.root)/files"
    try FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
    try "hello".write(toFile: "\(files)/item.txt", atomically: true, encoding: .utf8)
    try "canary".write(toFile: "\(host.root)/canary", atomically: true, encoding: .utf8)
    let body = """
      out="$XDG_DATA_HOME/found"
      : > "$out"
      [ "$(cat '\(files)/item.txt')" = hello ] && echo item-read >> "$out"
      echo x > '\(files)/item.txt' 2>/dev/null || echo item-read-only >> "$out"
      [ -e '\(host.root)/canary' ] || echo tmp-private >> "$out"
      [ -e '\(host.root)/state' ] || echo state-hidden >> "$out"
      [ "${SANDBOX_CANARY-unset}" = unset ] && echo env-cleared >> "$out"
      [ -z "${DBUS_SESSION_BUS_ADDRESS-}" ] && [ ! -e "$XDG_RUNTIME_DIR/bus" ] && echo no-bus >> "$out"
      [ "$(grep -c ':' /proc/net/dev)" = 1 ] && echo only-lo >> "$out"
      [ -e "$XDG_DATA_HOME/kept" ] && echo kept-from-before >> "$out"
      echo yes > "$XDG_DATA_HOME/kept"
      echo '{"complete": {}}'
      """
    let first = try run(body, items: ["\(files)/item.txt"], environment: ["SANDBOX_CANARY": "1"])
    #expect(first == .completed(returningItems: []))
    #expect(
      found() == [
        "item-read", "item-read-only", "tmp-private", "state-hidden", "env-cleared", "no-bus", "only-lo",
      ])
    #expect(try String(contentsOfFile: "\(files)/item.txt", encoding: .utf8) == "hello")
    _ = try run(body, items: ["\(files)/item.txt"])
    #expect(found().last == "kept-from-before")
  }

  @Test(.enabled(if: canSandbox)) func aLoopbackListenerOfTheHostIsOutOfReach() throws {
    let listener = try ChildProcess.spawn(
      [
        "/usr/bin/python3", "-c",
        "import socket,sys\ns=socket.socket()\ns.bind(('127.0.0.1',0))\ns.listen()\n"
          + "print(s.getsockname()[1],flush=True)\nsys.stdin.read()",
      ].map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin"], standardInput: .pipe,
      standardOutput: .pipe)
    defer {
      listener.standardInput?.close()
      _ = listener.wait()
    }
    var portText: [UInt8] = []
    while !portText.contains(UInt8(ascii: "\n")) {
      let chunk = try listener.standardOutput!.read()
      if chunk.isEmpty { break }
      portText += chunk
    }
    let port = String(decoding: portText, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(!port.isEmpty)
    let body = """
      if /usr/bin/python3 -c 'import socket; s=socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", \(port)))' 2>/dev/null
      then echo connected > "$XDG_DATA_HOME/found"; else echo refused > "$XDG_DATA_HOME/found"; fi
      echo '{"complete": {}}'
      """
    #expect(try run(body) == .completed(returningItems: []))
    #expect(found() == ["refused"])
  }

  @Test(.enabled(if: canSandbox)) func aProgramKilledBySignalIsToldAsOne() throws {
    #expect(try run("kill -KILL $$") == .failed(.signal(name: "SIGKILL")))
  }

  @Test func withoutBubblewrapAServiceDoesNotRun() throws {
    let outcome = try run("echo '{\"complete\": {}}'", environment: ["PATH": "\(host.root)/empty"])
    #expect(outcome == .failed(.noSandbox(.noBubblewrap)))
    #expect(
      PluginFailure.noSandbox(.noBubblewrap).message
        == "services run in a sandbox and bubblewrap (bwrap) is not installed: install bubblewrap")
  }

  @Test func aBubblewrapThatCannotSetUpMeansNoSandboxInItsWords() throws {
    let folder = "\(host.root)/fake-bwrap"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n".write(
      toFile: "\(folder)/bwrap", atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(folder)/bwrap")
    let outcome = try run("echo '{\"complete\": {}}'", environment: ["PATH": folder])
    #expect(outcome == .failed(.noSandbox(.cannotSetUp("bwrap: No permissions to create new namespace"))))
  }

  @Test(.enabled(if: canSandbox)) func aProgramThatExitsWithStatusOneIsNotANoSandbox() throws {
    #expect(try run("exit 1") == .failed(.exitStatus(1)))
  }
}
