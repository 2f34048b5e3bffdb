// swift-tools-version:6.0
// libFuzzer targets for xdg-share's parsers and generators. A package of its own, so that the
// root package's `swift build` and `swift test` never see it: Modules/ holds symbolic links to
// the root's source folders, compiled here again with coverage and AddressSanitizer, as members
// of this package so that the targets reach their `package` declarations. A module the root
// package adds to these modules' dependencies must be added here too.
//
// Build and run with `Fuzz/run.sh [SECONDS] [TARGET...]` (see docs/reliability.md).

import PackageDescription

/// Each target is `Targets/<name>` and builds `fuzz-<name>`.
let targets: [(name: String, dependencies: [Target.Dependency])] = [
  ("plist", ["ShareCore"]),
  ("info-plist", ["ShareCore"]),
  ("strings", ["ShareCore"]),
  ("predicate", ["ShareCore"]),
  ("mime-cache", ["ShareCore"]),
  ("dictionary-rule", ["ShareCore"]),
  ("plugin-events", ["ShareHost", "ShareProtocol"]),
  ("dbus-message", ["ShareDBus", "ShareDaemon", "FuzzDBusSupport"]),
  ("dbus-items", ["ShareCore", "ShareDBus", "ShareDaemon", "FuzzDBusSupport"]),
  ("desktop-entry", ["ShareDesktop"]),
  ("nautilus", ["ShareDesktop"]),
]

let package = Package(
  name: "xdg-share-fuzz",
  products: targets.map { .executable(name: "fuzz-" + $0.name, targets: ["fuzz-" + $0.name]) },
  targets: [
    .systemLibrary(name: "CGLib", path: "Modules/CGLib", pkgConfig: "gio-unix-2.0"),
    .systemLibrary(name: "CPOSIX", path: "Modules/CPOSIX"),
    .systemLibrary(name: "CDBus", path: "Modules/CDBus", pkgConfig: "dbus-1"),
    .systemLibrary(name: "CSecret", path: "Modules/CSecret", pkgConfig: "libsecret-1"),
    .systemLibrary(name: "CSeccomp", path: "Modules/CSeccomp", pkgConfig: "libseccomp"),
    .target(name: "ShareCore", dependencies: ["ShareProtocol"], path: "Modules/ShareCore"),
    .target(name: "ShareProtocol", path: "Modules/ShareProtocol"),
    .target(name: "ShareSyscalls", path: "Modules/ShareSyscalls"),
    .target(name: "SharePOSIX", dependencies: ["CPOSIX", "ShareSyscalls"], path: "Modules/SharePOSIX"),
    .target(
      name: "ShareGLib", dependencies: ["CGLib", "ShareCore", "SharePOSIX", "ShareSyscalls"],
      path: "Modules/ShareGLib"),
    .target(
      name: "ShareDBus", dependencies: ["CDBus", "SharePOSIX"], path: "Modules/ShareDBus"),
    .target(name: "ShareSecret", dependencies: ["CSecret"], path: "Modules/ShareSecret"),
    .target(
      name: "ShareSeccomp", dependencies: ["CSeccomp", "SharePOSIX"], path: "Modules/ShareSeccomp"),
    .target(
      name: "ShareHost",
      dependencies: [
        "ShareCore", "ShareProtocol", "SharePOSIX", "ShareGLib", "ShareDBus", "ShareSecret", "ShareSeccomp",
      ],
      path: "Modules/ShareHost"),
    .target(
      name: "ShareDesktop", dependencies: ["ShareCore", "ShareHost", "SharePOSIX", "ShareProtocol"],
      path: "Modules/ShareDesktop"),
    .target(
      name: "ShareDaemon",
      dependencies: [
        "ShareCore", "ShareHost", "ShareDBus", "ShareGLib", "SharePOSIX", "ShareProtocol", "ShareDesktop",
      ],
      path: "Modules/ShareDaemon"),

    // libFuzzer's driver, declared for Swift; and what the targets share.
    .systemLibrary(name: "CFuzzer", path: "Targets/CFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CFuzzer", "ShareCore"], path: "Targets/FuzzSupport"),
    .target(
      name: "FuzzDBusSupport", dependencies: ["FuzzSupport", "ShareDBus"], path: "Targets/FuzzDBusSupport"),
  ]
    + targets.map {
      .executableTarget(
        name: "fuzz-" + $0.name, dependencies: ["FuzzSupport"] + $0.dependencies, path: "Targets/" + $0.name)
    }
)

// The root package's strict settings (its Package.swift says why each one).
for target in package.targets where target.type != .system {
  target.swiftSettings = [
    "ExistentialAny", "MemberImportVisibility", "InternalImportsByDefault", "InferIsolatedConformances",
    "NonisolatedNonsendingByDefault", "ImmutableWeakCaptures",
  ].map { .enableUpcomingFeature($0) }
}
