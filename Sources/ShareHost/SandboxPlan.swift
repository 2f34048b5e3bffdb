public import ShareCore

/// The `bwrap` command line and the environment that run one service's program sandboxed for one
/// request (docs/sandbox.md): worked out from what the request names, with no I/O, so that a test
/// reads the whole sandbox off its argv. ``ServiceSandbox`` gathers the inputs (the folders made,
/// the proxy started) and ``ServiceProgram`` starts the result.
public struct SandboxPlan: Sendable, Equatable {
  /// What the sandbox is built from: paths as bytes, as they are outside.
  public struct Inputs: Sendable, Equatable {
    /// `bwrap`'s absolute path.
    public var bwrap: [UInt8]
    /// The program as the bundle names it (its executable), which is what runs.
    public var program: [UInt8]
    /// What ``program`` resolves to when that is elsewhere (a link to `xdg-share-services`).
    public var resolvedProgram: [UInt8]?
    public var bundle: [UInt8]
    public var entitlements: Entitlements
    /// The request's items, at the paths the request names.
    public var items: [[UInt8]]
    /// The folders the user chose for the request (its `folder` configuration items), each
    /// existing one bound read-write at its own path.
    public var chosenFolders: [[UInt8]]
    /// The service's container, kept between requests.
    public var container: [UInt8]
    /// Its application groups' containers, at the paths they have outside.
    public var groupContainers: [[UInt8]]
    /// The user folders its entitlements grant.
    public var userFolders: [[UInt8]]
    /// `HOME` outside, kept as the path, holding only what is bound.
    public var home: [UInt8]
    /// `XDG_RUNTIME_DIR` outside: inside, a private, empty folder at that path.
    public var runtimeDirectory: [UInt8]
    /// The program's environment as it would be unconfined (the host's and the service's
    /// variables); only the documented ones pass (``keptVariables``).
    public var environment: [String: [UInt8]]
    /// The marker variable (`NAME=VALUE`'s parts) the guard adds, set inside again.
    public var marker: (name: String, value: String)
    /// The filtered bus's socket outside (`xdg-dbus-proxy`'s), when the service may talk to names.
    public var busSocket: [UInt8]?
    /// The filtered accessibility bus's socket outside, for a service with its own windows.
    public var accessibilitySocket: [UInt8]?
    /// Folders of shared libraries the program needs that are not under `/usr` (a development
    /// build's Swift runtime), bound read-only.
    public var libraryFolders: [[UInt8]]
    /// The descriptor holding the compiled seccomp filter, when there is one.
    public var seccompDescriptor: Int32?
    /// The descriptor `bwrap` writes its JSON status on (`--json-status-fd`): an `exit-code` line
    /// once the program has run, none when the sandbox could not be set up.
    public var statusDescriptor: Int32?

    public init(
      bwrap: [UInt8], program: [UInt8], resolvedProgram: [UInt8]? = nil, bundle: [UInt8],
      entitlements: Entitlements, items: [[UInt8]] = [], chosenFolders: [[UInt8]] = [], container: [UInt8],
      groupContainers: [[UInt8]] = [],
      userFolders: [[UInt8]] = [], home: [UInt8], runtimeDirectory: [UInt8], environment: [String: [UInt8]],
      marker: (name: String, value: String), busSocket: [UInt8]? = nil, accessibilitySocket: [UInt8]? = nil,
      libraryFolders: [[UInt8]] = [],
      seccompDescriptor: Int32? = nil, statusDescriptor: Int32? = nil
    ) {
      self.bwrap = bwrap
      self.program = program
      self.resolvedProgram = resolvedProgram
      self.bundle = bundle
      self.entitlements = entitlements
      self.items = items
      self.chosenFolders = chosenFolders
      self.container = container
      self.groupContainers = groupContainers
      self.userFolders = userFolders
      self.home = home
      self.runtimeDirectory = runtimeDirectory
      self.environment = environment
      self.marker = marker
      self.busSocket = busSocket
      self.accessibilitySocket = accessibilitySocket
      self.libraryFolders = libraryFolders
      self.seccompDescriptor = seccompDescriptor
      self.statusDescriptor = statusDescriptor
    }

    public static func == (lhs: Inputs, rhs: Inputs) -> Bool {
      lhs.bwrap == rhs.bwrap && lhs.program == rhs.program && lhs.resolvedProgram == rhs.resolvedProgram
        && lhs.bundle == rhs.bundle && lhs.entitlements == rhs.entitlements && lhs.items == rhs.items
        && lhs.chosenFolders == rhs.chosenFolders
        && lhs.container == rhs.container && lhs.groupContainers == rhs.groupContainers
        && lhs.userFolders == rhs.userFolders && lhs.home == rhs.home
        && lhs.runtimeDirectory == rhs.runtimeDirectory && lhs.environment == rhs.environment
        && lhs.marker == rhs.marker && lhs.busSocket == rhs.busSocket
        && lhs.accessibilitySocket == rhs.accessibilitySocket
        && lhs.libraryFolders == rhs.libraryFolders && lhs.seccompDescriptor == rhs.seccompDescriptor
        && lhs.statusDescriptor == rhs.statusDescriptor
    }
  }

  /// `bwrap`'s argv, the program and its arguments last.
  public let arguments: [[UInt8]]
  /// The environment inside (set again by `--setenv` after `--clearenv`), also `bwrap`'s own.
  public let environment: [String: [UInt8]]

  /// What `/etc` holds for every program: the dynamic linker's cache, the alternatives its
  /// `/usr/bin` links go through, fonts, the time zone.
  public static let systemFiles = [
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/fonts",
    "/etc/localtime", "/etc/timezone", "/etc/mime.types",
  ]
  /// What `/etc` holds for a program on the network: resolving names, checking certificates.
  public static let networkFiles = [
    "/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/ssl",
    "/etc/ca-certificates", "/etc/pki",
  ]
  /// The CUPS socket, for `com.apple.security.print`.
  public static let cupsSocket = "/run/cups/cups.sock"
  /// The variables of the host's environment that pass into the sandbox as they are; every
  /// `LC_*` variable and the request's ``requestVariables`` too. Everything else is set by the
  /// sandbox or absent.
  public static let keptVariables = ["PATH", "LANG", "LANGUAGE", "TZ"]
  /// The `XDG_SHARE_*` variables of the request that reach its program, by name: any other one
  /// the host has (its own settings, or whatever its environment holds) stays outside.
  public static let requestVariables = [
    "XDG_SHARE_SERVICE_ID", "XDG_SHARE_BUNDLE_PATH", "XDG_SHARE_APPLICATION_GROUPS", "XDG_SHARE_REQUEST_ID",
    "XDG_SHARE_PUBLISH_TARGETS", "XDG_SHARE_PUBLISH_ID", "XDG_SHARE_BROKER", "XDG_SHARE_PARENT_WINDOW",
    "XDG_SHARE_ANIMATION_LOG", "XDG_SHARE_GROUPS_HOME",
  ]
  /// The variables of the display, kept with `org.xdgshare.display`.
  public static let displayVariables = ["WAYLAND_DISPLAY", "DISPLAY", "XAUTHORITY"]

  public init(_ inputs: Inputs) {
    var arguments: [[UInt8]] = [inputs.bwrap]
    func add(_ words: String...) { arguments += words.map { Array($0.utf8) } }
    func add(_ option: String, _ source: [UInt8], _ destination: [UInt8]) {
      arguments += [Array(option.utf8), source, destination]
    }
    let entitlements = inputs.entitlements
    add("--unshare-all")
    if entitlements.networkClient { add("--share-net") }
    add("--die-with-parent", "--new-session")
    // The system: /usr, and Debian's merged-/usr links beside it.
    add("--ro-bind", "/usr", "/usr")
    for (link, target) in [
      ("/bin", "usr/bin"), ("/sbin", "usr/sbin"), ("/lib", "usr/lib"), ("/lib64", "usr/lib64"),
    ] {
      add("--symlink", target, link)
    }
    for file in Self.systemFiles + (entitlements.networkClient ? Self.networkFiles : []) {
      add("--ro-bind-try", file, file)
    }
    add("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp")
    add("--dir", "/var", "--symlink", "../tmp", "/var/tmp")
    // HOME keeps its path and holds only what is bound below it.
    add("--perms", "0700")
    arguments += [Array("--dir".utf8), inputs.home]
    add("--perms", "0700")
    arguments += [Array("--dir".utf8), inputs.runtimeDirectory]
    for folder in inputs.libraryFolders { add("--ro-bind-try", folder, folder) }

    var environment: [String: [UInt8]] = [:]
    for (name, value) in inputs.environment
    where Self.keptVariables.contains(name) || name.hasPrefix("LC_") || Self.requestVariables.contains(name) {
      environment[name] = value
    }
    environment["HOME"] = inputs.home
    environment["XDG_RUNTIME_DIR"] = inputs.runtimeDirectory
    for (name, folder) in [
      ("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"),
      ("XDG_STATE_HOME", "state"),
    ] {
      environment[name] = inputs.container + Array("/\(folder)".utf8)
    }

    // What the service keeps, and shares with its applications.
    add("--bind", inputs.container, inputs.container)
    for group in inputs.groupContainers { add("--bind", group, group) }
    for folder in inputs.userFolders { add("--bind-try", folder, folder) }
    // What the user chose to save into, as Apple's open panel grants it.
    for folder in inputs.chosenFolders { add("--bind", folder, folder) }
    // The broker's folder (its socket in it), at its path.
    if let broker = inputs.environment["XDG_SHARE_BROKER"], broker.first == UInt8(ascii: "/"),
      let slash = broker.lastIndex(of: UInt8(ascii: "/")), slash > 0
    {
      let folder = Array(broker[..<slash])
      add("--bind", folder, folder)
    }
    if let socket = inputs.busSocket {
      let inside = inputs.runtimeDirectory + Array("/bus".utf8)
      add("--bind", socket, inside)
      environment["DBUS_SESSION_BUS_ADDRESS"] = Array("unix:path=".utf8) + Self.escapedAddress(inside)
    }
    if entitlements.display {
      Self.addDisplay(inputs, to: &arguments, environment: &environment)
      if let socket = inputs.accessibilitySocket {
        let inside = inputs.runtimeDirectory + Array("/at-spi-bus".utf8)
        add("--bind", socket, inside)
        environment["AT_SPI_BUS_ADDRESS"] = Array("unix:path=".utf8) + Self.escapedAddress(inside)
      }
    }
    if entitlements.print { add("--ro-bind-try", Self.cupsSocket, Self.cupsSocket) }

    // The service's own files, read-only; the program where its link leads.
    add("--ro-bind", inputs.bundle, inputs.bundle)
    if let resolved = inputs.resolvedProgram, resolved != inputs.program {
      add("--ro-bind", resolved, resolved)
    }
    // The items last, so that one inside a folder bound above keeps the access it is given.
    let itemBind = entitlements.userSelectedReadWrite ? "--bind-try" : "--ro-bind-try"
    for item in inputs.items { add(itemBind, item, item) }

    if let descriptor = inputs.seccompDescriptor { add("--seccomp", "\(descriptor)") }
    if let descriptor = inputs.statusDescriptor { add("--json-status-fd", "\(descriptor)") }
    add("--chdir")
    arguments.append(inputs.bundle)
    add("--clearenv")
    var inside = environment
    inside[inputs.marker.name] = Array(inputs.marker.value.utf8)
    for name in inside.keys.sorted() {
      arguments += [Array("--setenv".utf8), Array(name.utf8), inside[name]!]
    }
    add("--")
    arguments.append(inputs.program)
    self.arguments = arguments
    self.environment = environment
  }

  /// The display: the Wayland socket where there is one, else X11's socket and its cookie.
  private static func addDisplay(
    _ inputs: Inputs, to arguments: inout [[UInt8]], environment: inout [String: [UInt8]]
  ) {
    let slash = UInt8(ascii: "/")
    if let wayland = inputs.environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
      let outside = wayland.first == slash ? wayland : inputs.runtimeDirectory + [slash] + wayland
      let name = outside.split(separator: slash).last.map(Array.init) ?? wayland
      let inside = inputs.runtimeDirectory + [slash] + name
      arguments += [Array("--ro-bind-try".utf8), outside, inside]
      environment["WAYLAND_DISPLAY"] = name
      return
    }
    guard let display = inputs.environment["DISPLAY"], display.first == UInt8(ascii: ":") else { return }
    let number = display.dropFirst().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard !number.isEmpty else { return }
    let socket = Array("/tmp/.X11-unix/X".utf8) + number
    arguments += [Array("--ro-bind-try".utf8), socket, socket]
    environment["DISPLAY"] = display
    if let cookie = inputs.environment["XAUTHORITY"], cookie.first == slash {
      arguments += [Array("--ro-bind-try".utf8), cookie, cookie]
      environment["XAUTHORITY"] = cookie
    }
  }

  /// A path as a D-Bus address value: bytes outside `[-0-9A-Za-z_/.\*]` as `%XX`.
  static func escapedAddress(_ path: [UInt8]) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    return path.flatMap { byte -> [UInt8] in
      let plain =
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || Array("-_/.\\*".utf8).contains(byte)
      return plain ? [byte] : [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
    }
  }
}
