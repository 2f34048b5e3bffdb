import FoundationEssentials
import ShareCore
import ShareDBus
import SharePOSIX
import ShareProtocol
import Synchronization

/// Why a service that is not unconfined cannot run: the sandbox cannot be made here. Worded in
/// ``message``, for the share that fails and for `xdg-share doctor`.
public enum SandboxUnavailable: Error, Equatable, Sendable {
  /// `bwrap` is not on `PATH`.
  case noBubblewrap
  /// `bwrap` is there but cannot make a sandbox (user namespaces off, most often): its words.
  case cannotSetUp(String)
  /// The seccomp filter the sandbox runs under cannot be made (libseccomp's words).
  case noSeccompFilter(String)

  /// Whether a sandbox can be made here: `bwrap --unshare-all … /usr/bin/true`, run now; nil
  /// when it can. For `xdg-share doctor`, before anyone shares.
  public static func check(environment: [String: String]) -> SandboxUnavailable? {
    ServiceSandbox.check(environment: environment)
  }

  /// What failed and what to do.
  public var message: String {
    switch self {
    case .noBubblewrap:
      "services run in a sandbox and bubblewrap (bwrap) is not installed: install bubblewrap"
    case .cannotSetUp(let words):
      "services run in a sandbox and bwrap cannot make one"
        + (words.isEmpty ? "" : " (\(Diagnostics.quoted(words)))")
        + ": enable unprivileged user namespaces (kernel.unprivileged_userns_clone)"
    case .noSeccompFilter(let words):
      "services run in a sandbox and its system call filter cannot be made"
        + (words.isEmpty ? "" : " (\(Diagnostics.quoted(words)))")
        + ": check that libseccomp is installed"
    }
  }
}

/// What a sandboxed program holds beside its process, ended with the request: the filtered bus's
/// proxy and the folder of its socket.
final class SandboxResources: Sendable {
  private let proxy: ChildProcess?
  private let readiness: FileDescriptor?
  private let folder: [UInt8]?
  private let released = Mutex(false)

  init(proxy: ChildProcess?, readiness: FileDescriptor?, folder: [UInt8]?) {
    self.proxy = proxy
    self.readiness = readiness
    self.folder = folder
  }

  /// Ends the proxy (closing its descriptor is its word to exit) and removes its socket's folder.
  func release() {
    guard
      !released.withLock({ done in
        defer { done = true }; return done
      })
    else { return }
    readiness?.close()
    if let proxy {
      if proxy.wait(timeout: 1) == nil {
        proxy.signal(Signal.kill)
        _ = proxy.wait()
      }
    }
    if let folder {
      try? FileSystem.remove(folder + Array("/bus".utf8))
      _ = FileSystem.removeEmptyDirectory(folder)
    }
  }
}

/// Gathers what ``SandboxPlan`` is built from, making what must exist outside (the service's
/// container, its groups' containers, the filtered bus), and checks that a sandbox can be made.
enum ServiceSandbox {
  /// `bwrap` on `PATH`, else nil.
  static func locateBubblewrap(environment: [String: String]) -> [UInt8]? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where folder.hasPrefix("/") {
      let candidate = Array("\(folder)/bwrap".utf8)
      if FileSystem.isExecutable(candidate) { return candidate }
    }
    return nil
  }

  /// Whether a sandbox can be made here: `bwrap --unshare-all … /usr/bin/true`, as every
  /// sandbox is; `xdg-share doctor` runs it before anyone shares, and a share only once its own
  /// bwrap could not set up its sandbox, to say why.
  static func check(environment: [String: String]) -> SandboxUnavailable? {
    guard let bwrap = locateBubblewrap(environment: environment) else { return .noBubblewrap }
    let arguments =
      [bwrap]
      + [
        "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--symlink",
        "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc",
        "/proc",
        "--dev", "/dev", "--tmpfs", "/tmp", "--", "/usr/bin/true",
      ].map { Array($0.utf8) }
    do throws(SystemError) {
      let run = try CapturedRun.run(arguments, environment: ["PATH": "/usr/bin:/bin"])
      if run.status == 0 { return nil }
      let words =
        String(decoding: run.standardError, as: UTF8.self)
        .split(separator: "\n").first.map(String.init) ?? "exit status \(run.status)"
      return .cannotSetUp(words)
    } catch {
      return .cannotSetUp(error.reason)
    }
  }

  /// The folder where `service`'s container is kept: `$XDG_DATA_HOME/xdg-share/containers/<id>`.
  /// The service's container: `$XDG_DATA_HOME/xdg-share/containers/<id>`, `XDG_DATA_HOME` as the
  /// bytes this process inherited (it need not be UTF-8).
  static func container(of service: ShareService, environment: [String: String]) -> [UInt8] {
    SearchPaths.system(environment: environment).dataHomeLocation.bytes
      + Array("/xdg-share/containers/\(service.id)".utf8)
  }

  /// The user folders `folders` names, from `user-dirs.dirs` (read as bytes), else their
  /// defaults under `HOME`.
  static func userFolders(_ folders: Set<Entitlements.UserFolder>, environment: [String: String]) -> [[UInt8]]
  {
    let paths = SearchPaths.system(environment: environment)
    let file =
      FileSystem.contents(
        ofRegularFile: paths.configHomeLocation.appending("user-dirs.dirs").bytes, maximumSize: 1 << 20) ?? []
    let directories = UserDirectories(file: file, home: paths.homeLocation)
    let defaults: [Entitlements.UserFolder: String] = [
      .downloads: "Downloads", .pictures: "Pictures", .music: "Music", .movies: "Videos",
    ]
    return folders.sorted().compactMap { folder in
      switch directories.entry(folder.rawValue) {
      case .folder(let path): path.bytes
      case .disabled: nil
      case .notNamed: paths.homeLocation.appending(defaults[folder]!).bytes
      }
    }
  }

  /// The folder of the shared Swift runtime this host runs on, when it is not under `/usr` (a
  /// development build, whose services link it too); nil for a static build.
  static let swiftRuntimeFolder: [UInt8]? = {
    guard let maps = FileSystem.contents(ofRegularFile: Array("/proc/self/maps".utf8), maximumSize: 16 << 20)
    else { return nil }
    let library = Array("/libswiftCore.so".utf8)
    for line in maps.split(separator: UInt8(ascii: "\n")) {
      guard let start = line.firstIndex(of: UInt8(ascii: "/")) else { continue }
      let path = Array(line[start...])
      guard path.count > library.count, Array(path.suffix(library.count)) == library else { continue }
      let folder = Array(path.dropLast(library.count))
      return folder.starts(with: Array("/usr/".utf8)) ? nil : folder
    }
    return nil
  }()

  /// Starts `xdg-dbus-proxy ADDRESS SOCKET --filter --talk=NAME…` in a folder of its own and
  /// waits until it says it is ready on its `--fd`.
  static func startBusProxy(
    talk names: [String], address: String, folder: [UInt8], environment: [String: String]
  ) throws(SystemError) -> SandboxResources {
    try startBusProxy(
      [ProxiedBus(address: address, socket: "bus", rules: names.map { "--talk=\($0)" })], folder: folder,
      environment: environment)
  }

  /// A bus `xdg-dbus-proxy` filters for a sandbox: its address outside, its socket's name in the
  /// proxy's folder, and the rules after `--filter`.
  struct ProxiedBus: Sendable {
    var address: String
    var socket: String
    var rules: [String]
  }

  /// What a service with its own windows may say on the accessibility bus, and no more: Flatpak's
  /// rules (`flatpak_run_add_a11y_dbus_args`), so that it makes its windows accessible without
  /// reading other applications' trees or listening to keystrokes.
  static let accessibilityRules: [String] =
    ["--sloppy-names"]
    + [
      "org.a11y.atspi.Socket.Embed@/org/a11y/atspi/accessible/root",
      "org.a11y.atspi.Socket.Unembed@/org/a11y/atspi/accessible/root",
      "org.a11y.atspi.Registry.GetRegisteredEvents@/org/a11y/atspi/registry",
      "org.a11y.atspi.DeviceEventController.GetKeystrokeListeners@/org/a11y/atspi/registry/deviceeventcontroller",
      "org.a11y.atspi.DeviceEventController.GetDeviceEventListeners@/org/a11y/atspi/registry/deviceeventcontroller",
      "org.a11y.atspi.DeviceEventController.NotifyListenersSync@/org/a11y/atspi/registry/deviceeventcontroller",
      "org.a11y.atspi.DeviceEventController.NotifyListenersAsync@/org/a11y/atspi/registry/deviceeventcontroller",
    ].map { "--call=org.a11y.atspi.Registry=\($0)" }

  /// The accessibility bus's address: `AT_SPI_BUS_ADDRESS`, else what `org.a11y.Bus` on the
  /// session bus answers (starting it, as any toolkit's first window does); `nil` without either.
  static func accessibilityBusAddress(environment: [String: String]) -> String? {
    if let given = environment["AT_SPI_BUS_ADDRESS"], !given.isEmpty { return given }
    guard let session = environment["DBUS_SESSION_BUS_ADDRESS"], !session.isEmpty,
      let bus = try? BusConnection.connect(address: session)
    else { return nil }
    let call = DBusMessage.methodCall(
      destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus", member: "GetAddress")
    guard let reply = try? bus.call(call, timeout: 2), case .string(let address)? = reply.arguments().first,
      !address.isEmpty
    else { return nil }
    return address
  }

  /// Starts one `xdg-dbus-proxy` for `buses`, each socket in `folder` (made 0700), and waits until
  /// it listens.
  static func startBusProxy(
    _ buses: [ProxiedBus], folder: [UInt8], environment: [String: String]
  ) throws(SystemError) -> SandboxResources {
    try FileSystem.makeDirectories(folder, mode: 0o700)
    var arguments = [Array("xdg-dbus-proxy".utf8), Array("--fd=3".utf8)]
    for bus in buses {
      arguments += [Array(bus.address.utf8), folder + Array("/\(bus.socket)".utf8), Array("--filter".utf8)]
      arguments += bus.rules.map { Array($0.utf8) }
    }
    let address = buses.map(\.address).joined(separator: " ")
    let proxy = try ChildProcess.spawn(
      arguments, environment: ["PATH": environment["PATH"] ?? "/usr/bin:/bin"], standardInput: .null,
      standardOutput: .null, standardError: .inherit, descriptor3: .pipe, endsWithParent: true)
    guard let readiness = proxy.descriptor3 else {
      proxy.signal(Signal.kill)
      _ = proxy.wait()
      throw SystemError(call: "xdg-dbus-proxy", errno: 5)
    }
    // One byte once it listens; the end of the pipe when it failed.
    let ready =
      (try? readiness.waitReadable(timeout: 10)) == true && ((try? readiness.read(upTo: 1)) ?? []).count == 1
    guard ready else {
      let resources = SandboxResources(proxy: proxy, readiness: readiness, folder: folder)
      proxy.signal(Signal.kill)
      resources.release()
      throw SystemError(call: "xdg-dbus-proxy", errno: 5, subject: address)
    }
    return SandboxResources(proxy: proxy, readiness: readiness, folder: folder)
  }
}
