import ShareCore
import ShareHost
import Testing

/// The sandbox read off its argv: what each entitlement adds, and nothing more.
@Suite struct SandboxPlanTests {
  static let base = [
    "/usr/bin/bwrap", "--unshare-all",
  ]
  static let system = [
    "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
    "--symlink", "usr/sbin", "/sbin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
    "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind-try", "/etc/ld.so.conf",
    "/etc/ld.so.conf",
    "--ro-bind-try", "/etc/ld.so.conf.d", "/etc/ld.so.conf.d", "--ro-bind-try", "/etc/alternatives",
    "/etc/alternatives", "--ro-bind-try", "/etc/fonts", "/etc/fonts", "--ro-bind-try", "/etc/localtime",
    "/etc/localtime", "--ro-bind-try", "/etc/timezone", "/etc/timezone", "--ro-bind-try", "/etc/mime.types",
    "/etc/mime.types",
  ]
  static let network = [
    "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf", "--ro-bind-try", "/etc/hosts", "/etc/hosts",
    "--ro-bind-try", "/etc/nsswitch.conf", "/etc/nsswitch.conf", "--ro-bind-try", "/etc/host.conf",
    "/etc/host.conf", "--ro-bind-try", "/etc/gai.conf", "/etc/gai.conf", "--ro-bind-try", "/etc/ssl",
    "/etc/ssl",
    "--ro-bind-try", "/etc/ca-certificates", "/etc/ca-certificates", "--ro-bind-try", "/etc/pki", "/etc/pki",
  ]
  static let folders = [
    "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--dir", "/var", "--symlink", "../tmp", "/var/tmp",
    "--perms", "0700", "--dir", "/home/u", "--perms", "0700", "--dir", "/run/user/1000",
  ]
  static let container = "/home/u/.local/share/xdg-share/containers/org.example.s"
  static let bundle = "/home/u/.local/share/xdg-share/extensions/s.shareext"

  func inputs(_ entitlements: Entitlements, environment: [String: String] = [:]) -> SandboxPlan.Inputs {
    var variables: [String: [UInt8]] = [
      "PATH": Array("/usr/bin:/bin".utf8), "LANG": Array("C.UTF-8".utf8), "LC_TIME": Array("de_CH".utf8),
      "SSH_AUTH_SOCK": Array("/run/user/1000/ssh".utf8), "XDG_SHARE_SERVICE_ID": Array("org.example.s".utf8),
      "SECRET": Array("x".utf8),
    ]
    for (name, value) in environment { variables[name] = Array(value.utf8) }
    return SandboxPlan.Inputs(
      bwrap: Array("/usr/bin/bwrap".utf8), program: Array("\(Self.bundle)/share".utf8),
      bundle: Array(Self.bundle.utf8),
      entitlements: entitlements, items: [Array("/home/u/a b.txt".utf8)],
      container: Array(Self.container.utf8),
      home: Array("/home/u".utf8), runtimeDirectory: Array("/run/user/1000".utf8), environment: variables,
      marker: ("XDG_SHARE_REQUEST_ID", "r1"))
  }

  func text(_ plan: SandboxPlan) -> [String] { plan.arguments.map { String(decoding: $0, as: UTF8.self) } }

  func tail(_ environment: [(String, String)]) -> [String] {
    ["--chdir", Self.bundle, "--clearenv"] + environment.flatMap { ["--setenv", $0.0, $0.1] } + [
      "--", "\(Self.bundle)/share",
    ]
  }

  func xdg(_ extra: [(String, String)] = []) -> [(String, String)] {
    ([
      ("HOME", "/home/u"), ("LANG", "C.UTF-8"), ("LC_TIME", "de_CH"), ("PATH", "/usr/bin:/bin"),
      ("XDG_CACHE_HOME", "\(Self.container)/cache"), ("XDG_CONFIG_HOME", "\(Self.container)/config"),
      ("XDG_DATA_HOME", "\(Self.container)/data"), ("XDG_RUNTIME_DIR", "/run/user/1000"),
      ("XDG_SHARE_REQUEST_ID", "r1"), ("XDG_SHARE_SERVICE_ID", "org.example.s"),
      ("XDG_STATE_HOME", "\(Self.container)/state"),
    ] + extra).sorted { $0.0 < $1.0 }
  }

  @Test func noEntitlementSeesItsItemsReadOnlyItsContainerAndNothingElse() {
    let plan = SandboxPlan(inputs(.none))
    #expect(
      text(plan)
        == Self.base + Self.system + Self.folders + [
          "--bind", Self.container, Self.container, "--ro-bind", Self.bundle, Self.bundle, "--ro-bind-try",
          "/home/u/a b.txt", "/home/u/a b.txt",
        ] + tail(xdg()))
    #expect(plan.environment["SSH_AUTH_SOCK"] == nil && plan.environment["SECRET"] == nil)
    #expect(plan.environment["XDG_SHARE_REQUEST_ID"] == nil)  // the guard's to add
  }

  @Test func networkAndWritableItemsAndGroups() {
    var given = inputs(Entitlements(networkClient: true, userSelectedReadWrite: true, print: true))
    given.groupContainers = [Array("/home/u/.local/share/xdg-share/groups/group.a".utf8)]
    given.userFolders = [Array("/home/u/Downloads".utf8)]
    given.resolvedProgram = Array("/usr/libexec/xdg-share/xdg-share-services".utf8)
    given.environment["XDG_SHARE_BROKER"] = Array("/run/user/1000/xdg-share/broker-1/socket".utf8)
    let group = "/home/u/.local/share/xdg-share/groups/group.a"
    let services = "/usr/libexec/xdg-share/xdg-share-services"
    #expect(
      text(SandboxPlan(given))
        == Self.base + ["--share-net"] + Self.system + Self.network + Self.folders + [
          "--bind", Self.container, Self.container, "--bind", group, group, "--bind-try", "/home/u/Downloads",
          "/home/u/Downloads", "--bind", "/run/user/1000/xdg-share/broker-1",
          "/run/user/1000/xdg-share/broker-1",
          "--ro-bind-try", "/run/cups/cups.sock", "/run/cups/cups.sock", "--ro-bind", Self.bundle,
          Self.bundle,
          "--ro-bind", services, services, "--bind-try", "/home/u/a b.txt", "/home/u/a b.txt",
        ] + tail(xdg([("XDG_SHARE_BROKER", "/run/user/1000/xdg-share/broker-1/socket")])))
  }

  @Test func chosenFoldersAreBoundReadWriteAtTheirPaths() {
    var given = inputs(.none)
    given.chosenFolders = [Array("/home/u/Public".utf8), Array("/srv/drop".utf8)]
    #expect(
      text(SandboxPlan(given))
        == Self.base + Self.system + Self.folders + [
          "--bind", Self.container, Self.container, "--bind", "/home/u/Public", "/home/u/Public", "--bind",
          "/srv/drop", "/srv/drop", "--ro-bind", Self.bundle, Self.bundle, "--ro-bind-try", "/home/u/a b.txt",
          "/home/u/a b.txt",
        ] + tail(xdg()))
  }

  @Test func aServiceWithItsOwnWindowsReachesTheFilteredAccessibilityBus() {
    var given = inputs(Entitlements(display: true), environment: ["WAYLAND_DISPLAY": "wayland-0"])
    given.accessibilitySocket = Array("/run/user/1000/xdg-share/sandbox-bus-r1/a11y".utf8)
    #expect(
      text(SandboxPlan(given))
        == Self.base + Self.system + Self.folders + [
          "--bind", Self.container, Self.container, "--ro-bind-try", "/run/user/1000/wayland-0",
          "/run/user/1000/wayland-0", "--bind", "/run/user/1000/xdg-share/sandbox-bus-r1/a11y",
          "/run/user/1000/at-spi-bus", "--ro-bind", Self.bundle, Self.bundle, "--ro-bind-try",
          "/home/u/a b.txt", "/home/u/a b.txt",
        ]
        + tail(
          xdg([
            ("AT_SPI_BUS_ADDRESS", "unix:path=/run/user/1000/at-spi-bus"), ("WAYLAND_DISPLAY", "wayland-0"),
          ])))
    // Without the display, no accessibility bus, whatever the socket.
    given.entitlements = Entitlements()
    #expect(!text(SandboxPlan(given)).contains("/run/user/1000/at-spi-bus"))
  }

  @Test func busAndWaylandDisplay() {
    var given = inputs(
      Entitlements(sessionBusTalk: ["org.kde.kdeconnect"], display: true),
      environment: [
        "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0", "DBUS_SESSION_BUS_ADDRESS": "unix:path=/x",
      ])
    given.busSocket = Array("/run/user/1000/xdg-share/sandbox-bus-r1/bus".utf8)
    #expect(
      text(SandboxPlan(given))
        == Self.base + Self.system + Self.folders + [
          "--bind", Self.container, Self.container, "--bind", "/run/user/1000/xdg-share/sandbox-bus-r1/bus",
          "/run/user/1000/bus", "--ro-bind-try", "/run/user/1000/wayland-0", "/run/user/1000/wayland-0",
          "--ro-bind", Self.bundle, Self.bundle, "--ro-bind-try", "/home/u/a b.txt", "/home/u/a b.txt",
        ]
        + tail(
          xdg([
            ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"), ("WAYLAND_DISPLAY", "wayland-0"),
          ])))
  }

  @Test func x11OnlyWhereThereIsNoWayland() {
    let given = inputs(
      Entitlements(display: true), environment: ["DISPLAY": ":12.0", "XAUTHORITY": "/home/u/.Xauthority"])
    let arguments = text(SandboxPlan(given))
    #expect(arguments.contains("/tmp/.X11-unix/X12"))
    #expect(arguments.contains("/home/u/.Xauthority"))
    #expect(!text(SandboxPlan(inputs(.none, environment: ["DISPLAY": ":12"]))).contains("/tmp/.X11-unix/X12"))
  }
}
