public import ShareCore
import SharePOSIX

/// How the entries `register` wrote for one front end stand against the services installed now:
/// what `xdg-share doctor` reports for each file manager, Purpose, the browsers' host, the D-Bus
/// activation file and the application entry.
public struct FrontEndStatus: Equatable, Sendable {
  public var family: FileManagerFamily
  public var scope: FileManagerIntegration.Scope
  public var state: State
  /// How many files it has that hold what they should.
  public var upToDate: Int
  /// Files it should have that are not there.
  public var missing: [String]
  /// Files xdg-share wrote that now hold something else than it would write.
  public var outdated: [String]
  /// Files xdg-share wrote for services, or formats, that are gone.
  public var leftOver: [String]
  /// Files at its paths that are the user's: edited since, or not written by xdg-share. They
  /// stay as they are; `register` does not touch them.
  public var usersOwn: [String]

  public enum State: String, Equatable, Sendable {
    /// Every file holds what `register` would write now.
    case upToDate = "up-to-date"
    /// Some are missing, outdated or left over, or the program they run is gone: `register`
    /// brings them up to date.
    case stale
    /// `register` was not run for this scope: no entries.
    case notRegistered = "not-registered"
  }

  /// Whether the user has something to do: run `register`.
  public var needsRegister: Bool { state == .stale }
}

/// What `doctor` finds of one scope's registration.
public struct RegistrationCheck: Equatable, Sendable {
  public var scope: FileManagerIntegration.Scope
  public var dataFolder: String
  /// The xdg-share the entries run, when registered.
  public var executable: String?
  /// Whether that program is gone (every entry then fails).
  public var executableGone: Bool
  /// A manifest that cannot be read (nothing can be said of the entries, and `register` leaves
  /// them alone): why.
  public var unreadableManifest: String?
  public var frontEnds: [FrontEndStatus]
  /// What the file managers still need (a package), as `register` advises.
  public var advice: [Advice]
}

extension FileManagerIntegration {
  /// How the entries of `scope` stand against `services`: each family's files compared with
  /// what `register` would write now, with the program it recorded. Reads, never writes.
  public static func check(
    services: [ShareService], catalog: MIMECatalog, paths: SearchPaths, scope: Scope,
    software: some InstalledSoftware
  ) -> RegistrationCheck {
    let location = Location(scope: scope, paths: paths)
    var check = RegistrationCheck(
      scope: scope, dataFolder: location.dataFolder, executable: nil, executableGone: false,
      unreadableManifest: nil, frontEnds: [], advice: [])
    let manifest: Manifest?
    do {
      manifest = try Manifest.load(from: location.manifestPath)
    } catch {
      if case .unreadableManifest(_, let reason) = error { check.unreadableManifest = reason }
      return check
    }
    guard let manifest else {
      check.frontEnds = FileManagerFamily.allCases.map {
        FrontEndStatus(
          family: $0, scope: scope, state: .notRegistered, upToDate: 0, missing: [], outdated: [],
          leftOver: [],
          usersOwn: [])
      }
      return check
    }
    check.executable = manifest.executable
    check.executableGone = !FileSystem.isExecutable(Array(manifest.executable.utf8))
    let rendering: Rendering
    do {
      rendering = try render(
        services: services, executable: manifest.executable, catalog: catalog,
        purpose: purposeSetup(
          executable: manifest.executable, services: services, paths: paths, software: software),
        webShare: webShareSetup(executable: manifest.executable, scope: scope))
    } catch {
      check.unreadableManifest = "it names \(manifest.executable), which entries cannot run"
      return check
    }
    let wanted = Set(rendering.files.map(\.path))
    var report = RegistrationReport(dataFolder: location.dataFolder, rendering: rendering)
    for family in FileManagerFamily.allCases {
      var status = FrontEndStatus(
        family: family, scope: scope, state: .upToDate, upToDate: 0, missing: [], outdated: [], leftOver: [],
        usersOwn: [])
      let files = rendering.files(of: family)
      for file in files {
        let path = location.absolute(file.path)
        guard let existing = DesktopFiles.contents(of: path) else {
          if DesktopFiles.exists(path) {
            status.usersOwn.append(path.text)
          } else {
            status.missing.append(path.text)
          }
          continue
        }
        if existing == Array(file.contents.utf8) {
          status.upToDate += 1
          report.unchanged.append(file)
        } else if manifest.files[file.path] == Manifest.digest(existing) {
          status.outdated.append(path.text)
        } else {
          status.usersOwn.append(path.text)
        }
      }
      // What the manifest lists, is not wanted any more, and is still there as written.
      for (relative, digest) in manifest.files.sorted(by: { $0.key < $1.key })
      where !wanted.contains(relative) && Self.family(of: relative) == family {
        let path = location.absolute(relative)
        guard let existing = DesktopFiles.contents(of: path) else { continue }
        if Manifest.digest(existing) == digest {
          status.leftOver.append(path.text)
        } else {
          status.usersOwn.append(path.text)
        }
      }
      if !status.missing.isEmpty || !status.outdated.isEmpty || !status.leftOver.isEmpty
        || (check.executableGone && !files.isEmpty)
      {
        status.state = .stale
      }
      check.frontEnds.append(status)
    }
    check.advice = advice(for: report, software: software).filter {
      if case .restart = $0 { false } else { true }
    }
    return check
  }

  /// The family a generated file belongs to, by the folder it is in: for the files of services
  /// that are gone, which are rendered no more.
  static func family(of path: String) -> FileManagerFamily? {
    let prefixes: [(String, FileManagerFamily)] = [
      ("kio/", .dolphin), ("kservices5/", .dolphin), ("nautilus-python/", .nautilus), ("Thunar/", .thunar),
      ("nemo/", .nemo), ("file-manager/", .desktopActions), ("dbus-1/", .dbus),
      ("applications/", .application),
      ("kpackage/", .purpose), ("@", .browsers),
    ]
    return prefixes.first { path.hasPrefix($0.0) }?.1
  }
}

extension RegistrationCheck {
  /// Whether anything here needs the user: a record of what was written that cannot be read, a
  /// package a file manager needs, or entries `register` would bring up to date.
  public var needsAttention: Bool {
    unreadableManifest != nil || !advice.isEmpty || frontEnds.contains(where: \.needsRegister)
  }

  /// The scope's registration as `doctor --json` reports it (docs/why.md); `describe` words each
  /// piece of advice.
  public func report(describe: (Advice) -> String) -> [String: ReportValue] {
    var object: [String: ReportValue] = [
      "scope": .string(scope == .user ? "user" : "system"),
      "dataFolder": .string(dataFolder),
      "registered": .bool(executable != nil),
      "executableGone": .bool(executableGone),
      "advice": .strings(advice.map(describe)),
    ]
    if let executable { object["executable"] = .string(executable) }
    if let unreadableManifest { object["unreadableManifest"] = .string(unreadableManifest) }
    return object
  }
}

extension FrontEndStatus {
  /// The front end's entries as `doctor --json` reports them (docs/why.md); `name` is the front
  /// end as the user knows it.
  public func report(name: String) -> [String: ReportValue] {
    [
      "frontEnd": .string(family.rawValue), "name": .string(name),
      "scope": .string(scope == .user ? "user" : "system"), "state": .string(state.rawValue),
      "upToDate": .integer(upToDate), "missing": .strings(missing),
      "outdated": .strings(outdated), "leftOver": .strings(leftOver),
      "usersOwn": .strings(usersOwn),
    ]
  }
}
