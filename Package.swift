// swift-tools-version:6.0
// xdg-share: share extensions for the Linux desktop.

import PackageDescription

let package = Package(
  name: "xdg-share",
  products: [
    .executable(name: "xdg-share", targets: ["xdg-share"]),
    .executable(name: "xdg-share-services", targets: ["xdg-share-services"]),
    .executable(name: "xdg-share-guard", targets: ["xdg-share-guard"]),
    .executable(name: "xdg-share-purpose", targets: ["xdg-share-purpose"]),
    .library(name: "ShareCore", targets: ["ShareCore"]),
    .library(name: "ShareKit", targets: ["ShareKit"]),
  ],
  targets: [
    // System C libraries. Only the wrapper modules below import them.
    .systemLibrary(
      name: "CGLib", path: "Sources/System/CGLib", pkgConfig: "gio-unix-2.0",
      providers: [.apt(["libglib2.0-dev"])]),
    .systemLibrary(name: "CPOSIX", path: "Sources/System/CPOSIX"),
    .systemLibrary(
      name: "CDBus", path: "Sources/System/CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
    .systemLibrary(
      name: "CCurl", path: "Sources/System/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
      name: "CSecret", path: "Sources/System/CSecret", pkgConfig: "libsecret-1",
      providers: [.apt(["libsecret-1-dev"])]),
    .systemLibrary(
      name: "CSeccomp", path: "Sources/System/CSeccomp", pkgConfig: "libseccomp",
      providers: [.apt(["libseccomp-dev"])]),

    // The pure core: bundles, rules, type identifiers, registry. No C.
    .target(name: "ShareCore", dependencies: ["ShareProtocol"]),

    // The only module that calls GLib/GIO.
    .target(
      name: "ShareGLib", dependencies: ["CGLib", "ShareCore", "SharePOSIX", "ShareSyscalls"],
      path: "Sources/Wrappers/ShareGLib"),

    // The only module that calls libdbus.
    .target(
      name: "ShareDBus", dependencies: ["CDBus", "SharePOSIX"],
      path: "Sources/Wrappers/ShareDBus"),

    // The seam every system call goes through: libc's functions as trampolines, one `EINTR`
    // retry. Glibc only, no C module of ours: ShareKit, which plugin authors build, links it.
    .target(name: "ShareSyscalls", path: "Sources/Wrappers/ShareSyscalls"),

    // The system's processes, descriptors, files and signals, over ShareSyscalls.
    .target(
      name: "SharePOSIX", dependencies: ["CPOSIX", "ShareSyscalls"], path: "Sources/Wrappers/SharePOSIX"),

    // The only module that calls libcurl: HTTP for the services.
    .target(name: "ShareCurl", dependencies: ["CCurl"], path: "Sources/Wrappers/ShareCurl"),

    // The only module that calls libsecret: passwords in the desktop's keyring.
    .target(name: "ShareSecret", dependencies: ["CSecret"], path: "Sources/Wrappers/ShareSecret"),

    // The only module that calls libseccomp: Flatpak's seccomp filter, compiled for bwrap.
    .target(
      name: "ShareSeccomp", dependencies: ["CSeccomp", "SharePOSIX"], path: "Sources/Wrappers/ShareSeccomp"),

    // The plugin protocol's messages, shared by the host and ShareKit.
    .target(name: "ShareProtocol"),

    // Sharing: the desktop's services, the one way from items to the services that accept them,
    // the request, the plugin process, the history.
    .target(
      name: "ShareHost",
      dependencies: [
        "ShareCore", "ShareProtocol", "SharePOSIX", "ShareGLib", "ShareDBus", "ShareSecret", "ShareSeccomp",
      ]),

    // The D-Bus session service.
    .target(
      name: "ShareDaemon",
      dependencies: [
        "ShareCore", "ShareHost", "ShareDBus", "ShareGLib", "SharePOSIX", "ShareProtocol", "ShareDesktop",
      ]),

    // ShareKit: what a share extension written in Swift links against.
    .target(name: "ShareKit", dependencies: ["ShareProtocol", "ShareCore", "ShareSyscalls"]),

    // The bundled share services, written with ShareKit, served by one executable.
    .target(
      name: "ShareServices",
      dependencies: ["ShareKit", "ShareCore", "SharePOSIX", "ShareCurl", "ShareDBus"]),
    .executableTarget(name: "xdg-share-services", dependencies: ["ShareServices", "ShareKit"]),

    // Stands between a host and a request's program, so that what the program starts ends with
    // the host even when the host is killed (docs/reliability.md, "Containment").
    .executableTarget(name: "xdg-share-guard", dependencies: ["SharePOSIX"]),

    // File-manager integration: generated Share entries for every file manager.
    .target(name: "ShareDesktop", dependencies: ["ShareCore", "ShareHost", "SharePOSIX", "ShareProtocol"]),

    // KDE applications' Share menus: one Purpose job, shared through ShareHost; its program is
    // what the Purpose plugins `register` writes run.
    .target(
      name: "SharePurpose",
      dependencies: ["ShareCore", "ShareHost", "SharePOSIX", "ShareGLib", "ShareProtocol"]),
    .executableTarget(name: "xdg-share-purpose", dependencies: ["SharePurpose", "SharePOSIX"]),

    // Web pages' navigator.share: the native-messaging host the browser extension in
    // data/browser-extension/ talks to (its wire, the files in a private folder, the sheet).
    .target(name: "ShareWeb", dependencies: ["ShareCore", "ShareHost", "SharePOSIX", "ShareProtocol"]),
    .executableTarget(name: "xdg-share-webshare", dependencies: ["ShareWeb", "SharePOSIX"]),

    // The command line: argument parsing, wording, one file per command.
    .target(
      name: "ShareCommandLine",
      dependencies: [
        "ShareCore", "ShareGLib", "ShareDBus", "ShareHost", "SharePOSIX", "ShareDesktop", "ShareProtocol",
      ]),
    // The command line does not link the D-Bus service; the executable hands it in for `daemon`.
    .executableTarget(
      name: "xdg-share", dependencies: ["ShareCommandLine", "ShareDaemon", "ShareHost", "SharePOSIX"]),

    // Benchmarks are executables, run in release: `swift run -c release share-bench`.
    .executableTarget(
      name: "share-bench", dependencies: ["ShareCore", "ShareGLib"], path: "Benchmarks/share-bench"),

    .executableTarget(
      name: "bus-bench", dependencies: ["ShareDBus", "SharePOSIX", "ShareFixtures"],
      path: "Benchmarks/bus-bench"),
    // bus-bench's memory floor: libdbus and GIO from Swift, without Foundation or our modules.
    // The sandbox's cost: a share to a sandboxed service against bare bwrap (and xdg-dbus-proxy).
    .executableTarget(
      name: "sandbox-bench", dependencies: ["SharePOSIX", "ShareFixtures"], path: "Benchmarks/sandbox-bench"),
    .executableTarget(
      name: "memory-floor", dependencies: ["CDBus", "CGLib", "CSecret"], path: "Benchmarks/memory-floor"),

    // Fixtures without swift-testing, shared by the tests and the benchmarks: the throw-away
    // desktop, its private bus, bundles. ShareTestSupport re-exports them.
    .target(name: "ShareFixtures", dependencies: ["SharePOSIX", "ShareDBus"], path: "Tests/ShareFixtures"),
    .target(
      name: "ShareTestSupport",
      dependencies: ["ShareCore", "ShareHost", "SharePOSIX", "ShareFixtures", "ShareDBus"],
      path: "Tests/ShareTestSupport"),
    .testTarget(
      name: "ShareCoreTests", dependencies: ["ShareCore", "SharePOSIX", "ShareTestSupport"],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "ShareGLibTests", dependencies: ["ShareGLib", "ShareCore", "SharePOSIX", "ShareTestSupport"]),
    .testTarget(
      name: "ShareKitTests",
      dependencies: ["ShareKit", "ShareCore", "ShareProtocol", "SharePOSIX", "ShareTestSupport"]),
    .testTarget(name: "ShareSecretTests", dependencies: ["ShareSecret", "SharePOSIX", "ShareTestSupport"]),
    .testTarget(
      name: "ShareServicesTests",
      dependencies: [
        "ShareServices", "ShareCore", "ShareCurl", "ShareDBus", "ShareHost", "SharePOSIX", "ShareTestSupport",
      ]),
    .testTarget(
      name: "ShareDesktopTests",
      dependencies: ["ShareDesktop", "ShareCore", "ShareHost", "ShareTestSupport"],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "ShareTestSupport", "ShareDBus", "SharePOSIX", "ShareDaemon", "ShareHost", "ShareCore",
        "ShareProtocol",
      ]),
    .testTarget(
      name: "CommandLineTests", dependencies: ["ShareTestSupport", "ShareCore", "SharePOSIX"],
      exclude: ["Snapshots"]),
    // In-process tests of the host, the wrappers and the protocol.
    .testTarget(
      name: "ShareHostTests",
      dependencies: [
        "ShareHost", "ShareCore", "ShareProtocol", "SharePOSIX", "ShareTestSupport", "ShareSeccomp",
      ]),
    .testTarget(name: "ShareDBusTests", dependencies: ["ShareDBus", "SharePOSIX", "ShareTestSupport"]),
    // Flatpak's seccomp filter, compiled and run under bwrap.
    .testTarget(name: "ShareSeccompTests", dependencies: ["ShareSeccomp", "SharePOSIX"]),
    // Sandboxed services: a hostile service run as root and as a throw-away user tries every door.
    .testTarget(name: "ServiceSandboxTests", dependencies: ["ShareTestSupport", "SharePOSIX"]),
    .testTarget(name: "SharePOSIXTests", dependencies: ["SharePOSIX", "ShareSyscalls", "ShareTestSupport"]),
    .testTarget(name: "ShareProtocolTests", dependencies: ["ShareProtocol"]),
    // Web pages' navigator.share: the host's wire and checks in process, the built host with
    // hostile input, and Chromium (and Firefox) with the extension, through the real sheet.
    .testTarget(
      name: "ShareWebTests",
      dependencies: [
        "ShareWeb", "ShareHost", "ShareCore", "SharePOSIX", "ShareProtocol", "ShareTestSupport",
      ],
      exclude: ["Driver"]),
    // Sandboxed apps: files as descriptors, the caller known, ShowPicker's options, in a sandbox
    // built from Flatpak's own parts (bwrap, xdg-dbus-proxy).
    .testTarget(
      name: "SandboxTests", dependencies: ["ShareTestSupport", "ShareCore", "SharePOSIX"], exclude: ["Driver"]
    ),
    // The parser and usage in process, row by row of the command table.
    .testTarget(
      name: "ShareCommandLineTests",
      dependencies: ["ShareCommandLine", "ShareCore", "ShareHost", "ShareProtocol"]),
    .testTarget(
      name: "SharePurposeTests",
      dependencies: [
        "SharePurpose", "ShareCore", "ShareHost", "SharePOSIX", "ShareProtocol", "ShareTestSupport",
      ],
      exclude: ["Captures"]),
  ]
)

// The native share picker. Only these targets link GTK and libadwaita: the command line and the
// D-Bus service never do (linking GTK costs every start ~6 ms and ~9 MiB).
package.products.append(.executable(name: "xdg-share-sheet", targets: ["xdg-share-sheet"]))
package.products.append(.library(name: "ShareKitUI", targets: ["ShareKitUI"]))
package.products.append(.executable(name: "Microblog", targets: ["Microblog"]))
package.products.append(.executable(name: "ShareByMail", targets: ["ShareByMail"]))
package.products.append(.executable(name: "Hoi", targets: ["Hoi"]))
package.products.append(.executable(name: "hoi-friends", targets: ["hoi-friends"]))
package.targets += [
  .systemLibrary(
    name: "CGtk", path: "Sources/System/CGtk", pkgConfig: "libadwaita-1",
    providers: [.apt(["libadwaita-1-dev"])]),
  // The only module that calls GTK and libadwaita.
  .target(name: "ShareGtk", dependencies: ["CGtk", "ShareSyscalls"], path: "Sources/Wrappers/ShareGtk"),
  // The picker window: summary, search, services, edit mode, progress and outcome.
  .target(
    name: "ShareSheet",
    dependencies: [
      "ShareGtk", "ShareCore", "ShareHost", "ShareGLib", "ShareDBus", "SharePOSIX", "ShareProtocol",
      "ShareDesktop", "ShareKitUI",
    ]),
  .executableTarget(name: "xdg-share-sheet", dependencies: ["ShareSheet", "SharePOSIX"]),
  // ShareKit's user interface: the compose sheet and custom sheets, for extensions that show one.
  // A library of its own, so that extensions without UI never link GTK.
  .target(name: "ShareKitUI", dependencies: ["ShareKit", "ShareGtk", "ShareSyscalls"]),
  // The example extension with the stock compose sheet (examples/Microblog/README.md).
  .executableTarget(name: "Microblog", dependencies: ["ShareKitUI"], path: "examples/Microblog/Sources"),
  // The seeds' extensions ported: ShareByMail's "Share this" sheet (examples/ShareByMail/README.md)
  // and Hoi's list of friends with its companion command (examples/Hoi/README.md).
  .executableTarget(
    name: "ShareByMail", dependencies: ["ShareKitUI", "ShareKit"], path: "examples/ShareByMail/Sources"),
  .executableTarget(name: "Hoi", dependencies: ["ShareKitUI"], path: "examples/Hoi/Sources/Hoi"),
  // Hoi's companion: writes the friends list as the app would. ShareKit alone, no GTK.
  .executableTarget(
    name: "hoi-friends", dependencies: ["ShareKit"], path: "examples/Hoi/Sources/hoi-friends"),
  // Unit tests of the picker's logic, and the picker driven through AT-SPI under Xvfb.
  .testTarget(
    name: "SheetTests",
    dependencies: [
      "ShareSheet", "ShareHost", "ShareCore", "ShareProtocol", "ShareTestSupport", "SharePOSIX",
    ],
    exclude: ["Driver", "Snapshots"]),
  // The compose sheet driven through AT-SPI under Xvfb, through `xdg-share share` and Microblog.
  .testTarget(
    name: "ComposeSheetTests", dependencies: ["ShareTestSupport", "SharePOSIX"], exclude: ["Driver"]),
]

// Strict settings for every target, in one place: every upcoming feature of the Swift 7 language
// mode this toolchain accepts (`swiftc -print-supported-features`), as swift-log enables them.
// Warnings are errors in CI and in the test command (`-Xswiftc -warnings-as-errors`), not here:
// SwiftPM refuses unsafe flags in a package that is depended on by version, and ShareKit is
// meant to be.
for target in package.targets where [.regular, .executable, .test].contains(target.type) {
  var settings = target.swiftSettings ?? []
  // SE-0335: `any` before every existential type.
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  // SE-0444: a member is visible only where its module is imported.
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  // SE-0409: imports are internal unless marked `public` (or `package`).
  settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
  // SE-0470: a global actor's conformances are isolated to it where that is inferred.
  settings.append(.enableUpcomingFeature("InferIsolatedConformances"))
  // SE-0461: nonisolated async functions run on their caller's actor.
  settings.append(.enableUpcomingFeature("NonisolatedNonsendingByDefault"))
  // SE-0481: `weak let` captures.
  settings.append(.enableUpcomingFeature("ImmutableWeakCaptures"))
  target.swiftSettings = settings
}
