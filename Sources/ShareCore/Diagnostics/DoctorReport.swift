/// What `xdg-share doctor` found of the bundles, as data: every folder of the search path, every
/// bundle in them and what became of it, and the services' files of direct targets. The command
/// line gathers it (what is on disk, which programs are on `PATH`) and words it; `report(…)` is
/// its JSON, whose keys are documented in docs/why.md.
///
/// The front ends' entries are checked above ShareCore (ShareDesktop's `RegistrationCheck`): their
/// part of the JSON comes in as report values, so that the keys of the whole report are here.
public struct DoctorReport: Sendable {
  /// One folder of the search path, in the order folders are read.
  public struct Folder: Sendable {
    public var location: FilePath
    /// Whether it is there (a folder not made yet is listed all the same).
    public var exists: Bool

    public init(location: FilePath, exists: Bool) {
      self.location = location
      self.exists = exists
    }
  }

  /// One bundle, and what became of it.
  public struct Bundle: Sendable {
    public enum State: String, Sendable {
      case loaded, pinned, hidden, shadowed, invalid
      case requirementsMissing = "requirements-missing"
    }

    public var entry: BundleSurvey.Entry
    public var state: State
    /// Whether the user hid it (`Hidden=`), whatever else became of it.
    public var hidden: Bool
    /// Whether the user pinned it (`Pinned=`).
    public var pinned: Bool
    /// The programs (a `|` list: any one of them) and bus names it needs that this desktop lacks.
    public var missing: (programs: [String], busNames: [String])

    /// The bundle `entry` of a survey, hidden or pinned by the user, lacking `missing` (asked
    /// only of a valid bundle): its state is the first of shadowed, hidden, lacking what it
    /// needs, pinned and loaded that holds; invalid when it did not load.
    public init(
      entry: BundleSurvey.Entry, hidden: Bool, pinned: Bool,
      missing: (programs: [String], busNames: [String]) = ([], [])
    ) {
      self.entry = entry
      self.hidden = hidden
      self.pinned = pinned
      self.missing = missing
      state =
        entry.outcome.service == nil
        ? .invalid
        : entry.shadowedBy != nil
          ? .shadowed
          : hidden
            ? .hidden
            : !missing.programs.isEmpty || !missing.busNames.isEmpty
              ? .requirementsMissing : pinned ? .pinned : .loaded
    }

    /// Whether the user has to do something for it: an invalid bundle. One that lacks a program
    /// or bus name it needs is only not offered, as a service for a program one does not use
    /// (KDE Connect) is on a fresh install: worth knowing, nothing to fix.
    public var needsAttention: Bool { state == .invalid }
  }

  /// One service's file of direct targets, and what reading it found.
  public struct TargetsFile: Sendable {
    /// The file's name: the service's identifier and `.json`.
    public var name: String
    public var file: DirectTargetsFile
    /// Whether a service of that identifier is installed (if not, the file is left over).
    public var installed: Bool

    public init(name: String, file: DirectTargetsFile, installed: Bool) {
      self.name = name
      self.file = file
      self.installed = installed
    }

    /// The identifier of the service the file is for.
    public var service: String { String(name.dropLast(".json".count)) }
  }

  public var folders: [Folder]
  /// Every bundle of every folder, in the order they are read.
  public var bundles: [Bundle]
  /// Where hidden and pinned services are kept.
  public var settingsFile: String
  /// The folder of the services' files of direct targets.
  public var targetsFolder: String
  public var targets: [TargetsFile]

  public init(
    folders: [Folder], bundles: [Bundle], settingsFile: String, targetsFolder: String, targets: [TargetsFile]
  ) {
    self.folders = folders
    self.bundles = bundles
    self.settingsFile = settingsFile
    self.targetsFolder = targetsFolder
    self.targets = targets
  }

  /// Whether a bundle needs the user.
  public var needsAttention: Bool { bundles.contains(where: \.needsAttention) }

  /// The report as `doctor --json` prints it, with the front ends' part: each scope's
  /// registration, each front end's entries, and whether any of them needs the user.
  public func report(
    registrations: [[String: ReportValue]], frontEnds: [[String: ReportValue]], frontEndsNeedAttention: Bool
  ) -> [String: ReportValue] {
    [
      "folders": .objects(folders.map { ["path": .string($0.location.text), "exists": .bool($0.exists)] }),
      "bundles": .objects(bundles.map(Self.report)),
      "registrations": .objects(registrations),
      "frontEnds": .objects(frontEnds),
      "targets": .objects(
        targets.map { entry in
          [
            "file": .string("\(targetsFolder)/\(entry.name)"), "service": .string(entry.service),
            "installed": .bool(entry.installed), "targets": .integer(entry.file.targets.count),
            "problems": .strings(entry.file.problems.map(\.message)),
          ]
        }),
      "needsAttention": .bool(needsAttention || frontEndsNeedAttention),
    ]
  }

  private static func report(_ bundle: Bundle) -> [String: ReportValue] {
    let entry = bundle.entry
    var object: [String: ReportValue] = [
      "bundle": .string(entry.location.text), "folder": .string(entry.folder.text),
      "state": .string(bundle.state.rawValue), "hidden": .bool(bundle.hidden), "pinned": .bool(bundle.pinned),
      "needsAttention": .bool(bundle.needsAttention),
      "problems": .strings(entry.errors.map(Diagnostics.line)),
      "warnings": .strings(entry.outcome.problems.filter { $0.severity == .warning }.map(Diagnostics.line)),
      "missingPrograms": .strings(bundle.missing.programs),
      "missingBusNames": .strings(bundle.missing.busNames),
      "entitlements": .object(entry.outcome.service?.entitlements.report ?? [:]),
    ]
    if let id = entry.identifier { object["id"] = .string(id) }
    if let name = entry.outcome.service?.name ?? entry.outcome.name { object["name"] = .string(name) }
    if let winner = entry.shadowedBy { object["shadowedBy"] = .string(winner.text) }
    return object
  }
}
