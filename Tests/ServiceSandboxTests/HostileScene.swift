import Foundation
import SharePOSIX
import ShareTestSupport
import Testing

/// A desktop for the hostile service, owned by the user it runs as: the secrets it must not reach
/// (`~/.ssh/id_rsa`, `~/.bashrc`, another service's container and group, a record in the history,
/// a file in the host's `/tmp`), its bundles with their `Entitlements.plist`, and the host's
/// processes, started as that user: a private bus where a process owns a canary name, the
/// keyring's name and the one name the talker is entitled to, and listens on loopback (its pid is
/// the process the service tries to signal and trace); and Xvfb.
final class HostileScene {
  static let hostile = "com.example.hostile"
  static let hostileGroup = "group.com.example.hostile"
  static let networked = "com.example.networked"
  static let talker = "com.example.talker"
  static let victim = "com.example.victim"
  static let victimGroup = "group.com.example.victim"
  static let allowedName = "org.example.Allowed"

  let desktop: TemporaryDesktop
  let user: ThrowAwayUser?
  let canary = "xdg-share-canary-\(UInt32.random(in: 0...UInt32.max))"
  let hostTmp: String
  let item: String
  let itemContents = "the item the service is handed"
  var bashrc: String { "\(desktop.root)/home/.bashrc" }
  private var processes: [ChildProcess] = []
  private(set) var busAddress = ""
  private(set) var port = 0
  private(set) var pid: Int32 = 0
  private(set) var display = ""

  init(user: ThrowAwayUser?) throws {
    desktop = try TemporaryDesktop(prefix: "xdg-share-hostile")
    self.user = user
    let root = desktop.root
    hostTmp = "/tmp/\(canary)"
    try "the host's /tmp\n".write(toFile: hostTmp, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: hostTmp)
    item = "\(desktop.files)/item.txt"
    try write("\(root)/home/.ssh/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n", mode: 0o600)
    try write(bashrc, "# the user's own\n", mode: 0o644)
    try write("\(containers)/\(Self.victim)/data/secret", "the victim's container\n", mode: 0o600)
    try write("\(group(Self.victimGroup))/secret", "the victim's group\n", mode: 0o600)
    try FileManager.default.createDirectory(
      atPath: group(Self.hostileGroup), withIntermediateDirectories: true)
    try write(
      "\(root)/state/xdg-share/history/canary", "a record of another share\n", mode: 0o600)
    try bundle(Self.hostile, entitlements: groups([Self.hostileGroup]))
    try bundle(Self.networked, entitlements: "<key>com.apple.security.network.client</key><true/>")
    try bundle(
      Self.talker,
      entitlements:
        "<key>org.xdgshare.session-bus.talk</key><array><string>\(Self.allowedName)</string></array>")
    try bundle(Self.victim, entitlements: groups([Self.victimGroup]))
    if let user {
      let chown = try CapturedRun.run(
        ["/usr/bin/chown", "-R", "\(user.uid):\(user.gid)", root, hostTmp].map { Array($0.utf8) },
        environment: ["PATH": "/usr/bin:/bin"])
      #expect(chown.status == 0)
    }
    try startHostProcesses()
    // The item carries what the scene learnt once its processes ran: the program in the sandbox
    // has no other way to know them.
    try write(item, "\(itemContents) \(port) \(pid) \(display)\n", mode: 0o644)
    if let user {
      let chown = try CapturedRun.run(
        ["/usr/bin/chown", "\(user.uid):\(user.gid)", item].map { Array($0.utf8) },
        environment: ["PATH": "/usr/bin:/bin"])
      #expect(chown.status == 0)
    }
  }

  deinit { stop() }

  /// Ends what the scene started and removes the host's `/tmp` file.
  func stop() {
    for process in processes.reversed() {
      process.signal(SIGKILL)
      _ = process.wait()
    }
    processes = []
    try? FileManager.default.removeItem(atPath: hostTmp)
  }

  var containers: String { "\(desktop.root)/data/xdg-share/containers" }

  /// Where a group's container is, inside the sandbox as outside (`xdg-share group path`).
  func group(_ identifier: String) -> String { "\(desktop.root)/data/xdg-share/groups/\(identifier)" }

  /// Whether `file` is somewhere in the service's container on the host.
  func containerHolds(_ service: String, file: String) -> Bool {
    let container = "\(containers)/\(service)"
    guard let walk = FileManager.default.enumerator(atPath: container) else { return false }
    return walk.contains {
      ($0 as? String).map { URL(fileURLWithPath: $0).lastPathComponent == file } ?? false
    }
  }

  private func write(_ path: String, _ text: String, mode: Int) throws {
    try FileManager.default.createDirectory(
      atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  private func groups(_ identifiers: [String]) -> String {
    "<key>com.apple.security.application-groups</key><array>"
      + identifiers.map { "<string>\($0)</string>" }.joined() + "</array>"
  }

  private func bundle(_ id: String, entitlements: String) throws {
    let folder = try BundleFixture(
      id: id, name: id, ruleXML: BundleFixture.predicate("TRUEPREDICATE"), program: program(for: id)
    ).write(into: desktop.userExtensions)
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0"><dict>\(entitlements)</dict></plist>

      """
    try plist.write(toFile: "\(folder)/Entitlements.plist", atomically: false, encoding: .utf8)
  }

  /// The prefix that runs a program as the scene's user.
  var prefix: [String] { user?.prefix ?? [] }

  /// The desktop's environment, its bus and display, and the canary the service must not see.
  var environment: [String: String] {
    var environment = desktop.environment(busAddress: busAddress)
    environment["DISPLAY"] = display
    environment["XDG_SHARE_CANARY"] = canary
    return environment
  }

  private func startHostProcesses() throws {
    let runtime = "\(desktop.root)/runtime"
    // The bus, as the user: a session bus lets in only the user who started it.
    let bus = try spawn(
      [
        "/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=unix:path=\(runtime)/bus",
        "--print-address=1",
      ], environment: desktop.environment(busAddress: nil))
    busAddress = try firstLine(of: bus)
    // The names' owner and loopback listener; its argv carries the canary, for /proc.
    let owner = try spawn(
      ["/usr/bin/python3", "-c", Self.hostFixture, canary, Self.allowedName],
      environment: desktop.environment(busAddress: busAddress))
    port = Int(try firstLine(of: owner)) ?? 0
    pid = owner.pid
    // An X server on a display of its own; `-displayfd` says which.
    let x = try spawn(
      ["/usr/bin/Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"],
      environment: desktop.environment(busAddress: nil))
    display = ":" + (try firstLine(of: x))
  }

  private func spawn(_ arguments: [String], environment: [String: String]) throws -> ChildProcess {
    let child = try ChildProcess.spawn(
      (prefix + arguments).map { Array($0.utf8) }, environment: environment, standardOutput: .pipe,
      standardError: .null, endsWithParent: true)
    processes.append(child)
    return child
  }

  /// The first line a host process writes, once it is ready.
  private func firstLine(of child: ChildProcess) throws -> String {
    var bytes: [UInt8] = []
    while !bytes.contains(UInt8(ascii: "\n")) {
      guard let output = child.standardOutput, try output.waitReadable(timeout: 20) else { break }
      let piece = try output.read(upTo: 256)
      if piece.isEmpty { break }
      bytes += piece
    }
    let line = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    try #require(!line.isEmpty, "a host process of the scene did not start")
    return line
  }

  /// Shares the item with `service` through the built `xdg-share`, as the scene's user, and
  /// reads the program's report from the share's returned text.
  func share(_ service: String) throws -> [String: String] {
    try share(service, item: Array(item.utf8))
  }

  /// Shares a copy of the item named `name` (any bytes but `/` and NUL), made in the desktop's
  /// files by the scene's user.
  func share(_ service: String, copyNamed name: [UInt8]) throws -> [String: String] {
    let path = try desktop.writeFile(
      named: name, contents: Array(try Data(contentsOf: URL(fileURLWithPath: item))))
    if let user {
      let chown = try CapturedRun.run(
        [Array("/usr/bin/chown".utf8), Array("\(user.uid):\(user.gid)".utf8), path],
        environment: ["PATH": "/usr/bin:/bin"])
      #expect(chown.status == 0)
    }
    return try share(service, item: path)
  }

  private func share(_ service: String, item: [UInt8]) throws -> [String: String] {
    let arguments = (prefix + [Tool.path, "--service", service, "--"]).map { Array($0.utf8) } + [item]
    let run = try CapturedRun.run(
      arguments, environment: environment, workingDirectory: Array(desktop.files.utf8))
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    #expect(run.status == 0, "\(String(decoding: run.standardError, as: UTF8.self))")
    return try report(output)
  }

  /// The same program, outside any sandbox, as the same user on the same desktop.
  func runOutside() throws -> [String: String] {
    let program = "\(desktop.userExtensions)/\(Self.hostile).shareext/share"
    let request = """
      {"protocol": 1, "inputItems": [{"attachments": [{"typeIdentifiers": ["public.plain-text"], \
      "url": "\(URL(fileURLWithPath: item).absoluteString)"}]}]}
      """
    var environment = environment
    // Outside, the "container" is the host's own data folder.
    environment["XDG_DATA_HOME"] = "\(desktop.root)/data"
    let run = try CapturedRun.run(
      (prefix + [program]).map { Array($0.utf8) }, environment: environment,
      workingDirectory: Array(desktop.files.utf8), input: Array(request.utf8))
    let output = String(decoding: run.standardOutput, as: UTF8.self)
    let event = try #require(output.split(separator: "\n").last.map(String.init), "no event")
    let decoded = try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any]
    let complete = decoded?["complete"] as? [String: Any]
    let items = complete?["returningItems"] as? [[String: Any]]
    let text = (items?.first?["attachments"] as? [[String: Any]])?.first?["text"] as? String
    return try report(try #require(text, "no report: \(output)"))
  }

  private func report(_ text: String) throws -> [String: String] {
    let line = try #require(text.split(separator: "\n").last.map(String.init), "no report")
    let report = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
    return try #require(report, "not a report: \(text)")
  }

  /// The host's processes: owns the canary's, the keyring's and the allowed name on the bus,
  /// answers on them (libdbus answers `Peer.Ping` itself while the loop runs), listens on
  /// loopback, and prints the port once all is ready.
  static let hostFixture = #"""
    import socket, sys, threading
    import dbus, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SessionBus()
    for name in ("org.example.Canary", "org.freedesktop.secrets", sys.argv[2]):
        bus.request_name(name)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    def accept():
        while True:
            connection, _ = listener.accept()
            connection.close()
    threading.Thread(target=accept, daemon=True).start()
    print(listener.getsockname()[1], flush=True)
    GLib.MainLoop().run()
    """#

  /// The hostile program, its paths and names written in: in the sandbox it has no other way to
  /// know the host's.
  func program(for service: String) -> String {
    let config: [String: Any] = [
      "ssh": "\(desktop.root)/home/.ssh/id_rsa", "bashrc": bashrc,
      "victimContainer": "\(containers)/\(Self.victim)/data/secret",
      "victimGroup": "\(group(Self.victimGroup))/secret",
      "history": "\(desktop.root)/state/xdg-share/history/canary", "hostTmp": hostTmp,
      "group": group(Self.hostileGroup), "service": service, "itemContents": itemContents, "canary": canary,
      "runtime": "\(desktop.root)/runtime", "allowed": Self.allowedName,
    ]
    let json = String(
      decoding: (try? JSONSerialization.data(withJSONObject: config)) ?? Data(), as: UTF8.self)
    return "#!/usr/bin/python3\nCONFIG = r'''\(json)'''\n" + Self.hostileProgram
  }

  /// Tries each door and returns what it could do. What the scene learnt once its processes ran
  /// (the listener's port, the owner's pid, the display) is in the item's text, after
  /// ``itemContents``.
  static let hostileProgram = #"""
    import ctypes, fcntl, json, os, socket, sys, termios, urllib.parse
    config = json.loads(CONFIG)
    request = json.loads(sys.stdin.read())
    report = {}
    libc = ctypes.CDLL(None, use_errno=True)

    def door(name, attempt):
        try:
            detail = attempt()
            report[name] = "open" + (": " + detail if isinstance(detail, str) else "")
        except BaseException as error:
            report[name] = "closed: %r" % (error,)

    def read(path):
        with open(path, "rb") as file:
            return file.read()

    def check(result):
        if result != 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))

    def item_path():
        for item in request.get("inputItems", []):
            for attachment in item.get("attachments", []):
                if attachment.get("url", "").startswith("file://"):
                    return urllib.parse.unquote_to_bytes(attachment["url"][len("file://"):])
        raise Exception("no file among the items")

    # The facts the scene learnt once its processes ran, in the item itself: "port pid display".
    facts = {}
    def items():
        text = read(item_path()).decode().split("\n")[0]
        if not text.startswith(config["itemContents"]):
            raise Exception("the item holds %r" % text)
        port, pid, display = text[len(config["itemContents"]):].split()
        facts.update(port=int(port), pid=int(pid), display=display)
    door("items", items)
    report["item-name"] = os.path.basename(item_path()).hex() if facts else ""
    port, pid = facts.get("port", 1), facts.get("pid", 1)
    x11 = "/tmp/.X11-unix/X" + facts.get("display", ":0").lstrip(":")

    def append(path):
        with open(path, "ab") as file:
            file.write(b"# the hostile service was here\n")

    def rewrite_bashrc():
        # The user's own file, not one of the same name in a home of the sandbox's.
        if b"# the user's own" not in read(config["bashrc"]):
            raise Exception("not the user's .bashrc")
        append(config["bashrc"])

    def connect(family, address):
        connection = socket.socket(family, socket.SOCK_STREAM)
        connection.settimeout(5)
        try:
            connection.connect(address)
        finally:
            connection.close()

    def ping(name):
        import dbus
        address = os.environ.get("DBUS_SESSION_BUS_ADDRESS") or "unix:path=" + config["runtime"] + "/bus"
        bus = dbus.bus.BusConnection(address)
        bus.call_blocking(name, "/", "org.freedesktop.DBus.Peer", "Ping", "", (), timeout=5)

    def host_process():
        if config["canary"].encode() not in read("/proc/%d/cmdline" % pid):
            raise Exception("/proc/%d is another process" % pid)

    def environment():
        leaked = [key for key, value in os.environ.items() if config["canary"] in key + value]
        if not leaked:
            raise Exception("no canary in the environment")
        return ", ".join(leaked)

    def container():
        with open(os.path.join(os.environ["XDG_DATA_HOME"], "hostile-was-here"), "a") as file:
            file.write("x")

    def container_kept():
        if not os.path.exists(os.path.join(os.environ["XDG_DATA_HOME"], "hostile-was-here")):
            raise Exception("the container is new")

    def new_user_namespace():
        # In a child: outside, the doors after this one are tried from where they were.
        child = os.fork()
        if child == 0:
            os._exit(0 if libc.unshare(0x10000000) == 0 else (ctypes.get_errno() or 1))
        code = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
        if code != 0:
            raise OSError(code, os.strerror(code))

    def group():
        with open(os.path.join(config["group"], "from-the-service"), "w") as file:
            file.write(config["service"])

    door("container-kept", container_kept)
    door("ssh", lambda: read(config["ssh"]))
    door("bashrc", rewrite_bashrc)
    door("other-container", lambda: read(config["victimContainer"]))
    door("other-group", lambda: read(config["victimGroup"]))
    door("history", lambda: read(config["history"]))
    door("host-tmp", lambda: read(config["hostTmp"]))
    door("loopback", lambda: connect(socket.AF_INET, ("127.0.0.1", port)))
    door("bus-socket", lambda: connect(socket.AF_UNIX, config["runtime"] + "/bus"))
    door("bus-canary", lambda: ping("org.example.Canary"))
    door("keyring", lambda: ping("org.freedesktop.secrets"))
    door("bus-allowed", lambda: ping(config["allowed"]))
    door("x11-socket", lambda: connect(socket.AF_UNIX, x11))
    door("x11-abstract", lambda: connect(socket.AF_UNIX, "\0" + x11))
    door("signal", lambda: os.kill(pid, 0))
    # PTRACE_SEIZE: outside, the process is traced without being stopped, and goes on answering.
    door("ptrace", lambda: check(libc.ptrace(0x4206, pid, None, None)))
    door("host-proc", host_process)
    door("user-namespace", new_user_namespace)
    door("tiocsti", lambda: fcntl.ioctl(0, termios.TIOCSTI, b"x"))
    door("environment", environment)
    door("item-write", lambda: append(item_path()))
    door("container", container)
    door("group", group)
    text = json.dumps(report, sort_keys=True)
    event = {"complete": {"returningItems": [{"attachments": [
        {"typeIdentifiers": ["public.plain-text", "text/plain"], "text": text}]}]}}
    print(json.dumps(event), flush=True)
    """#
}
