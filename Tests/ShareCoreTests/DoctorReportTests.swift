import Foundation
import ShareCore
import ShareTestSupport
import Testing

/// `doctor`'s model without the command line: each bundle's state from what the user chose and
/// what the desktop lacks, what needs the user, and the keys of `doctor --json`.
@Suite struct DoctorReportTests {
  let desktop: TemporaryDesktop
  let survey: BundleSurvey

  /// A service in the user's folder and again in the system's (shadowed there), and an invalid
  /// bundle (its predicate does not parse).
  init() throws {
    desktop = try TemporaryDesktop(prefix: "doctor-report-test")
    let rule = BundleFixture.activationDictionary([("SupportsText", "<true/>")])
    try BundleFixture(id: "com.example.notes", name: "Notes", ruleXML: rule).write(
      into: desktop.userExtensions)
    try BundleFixture(id: "com.example.notes", name: "Notes (system)", ruleXML: rule).write(
      into: desktop.systemExtensions)
    try BundleFixture(
      id: "com.example.broken", name: "Broken", ruleXML: BundleFixture.predicate("TRUEPREDICATE AND")
    ).write(into: desktop.userExtensions)
    survey = BundleSurvey(
      directories: [FilePath(desktop.userExtensions), FilePath(desktop.systemExtensions)],
      loader: BundleLoader(languages: []))
  }

  func entry(_ id: String, shadowed: Bool = false) throws -> BundleSurvey.Entry {
    try #require(survey.entries.first { $0.identifier == id && ($0.shadowedBy != nil) == shadowed })
  }

  /// Shadowed, hidden, lacking what it needs, pinned, loaded: the first that holds; invalid
  /// whatever the user chose.
  @Test func eachBundleTakesTheFirstStateThatHolds() throws {
    typealias Bundle = DoctorReport.Bundle
    let notes = try entry("com.example.notes")
    let lacking = (programs: ["convert|magick"], busNames: [String]())
    #expect(Bundle(entry: notes, hidden: false, pinned: false).state == .loaded)
    #expect(Bundle(entry: notes, hidden: false, pinned: true).state == .pinned)
    #expect(Bundle(entry: notes, hidden: false, pinned: true, missing: lacking).state == .requirementsMissing)
    #expect(Bundle(entry: notes, hidden: true, pinned: true, missing: lacking).state == .hidden)
    #expect(
      Bundle(entry: try entry("com.example.notes", shadowed: true), hidden: true, pinned: false).state
        == .shadowed)
    #expect(Bundle(entry: try entry("com.example.broken"), hidden: true, pinned: true).state == .invalid)

    // Only what the user has to fix needs them: a hidden, pinned or shadowed bundle is their choice.
    // A service not offered for want of a program (KDE Connect's, on a fresh install) is
    // information: nothing is broken (issue 32).
    #expect(!Bundle(entry: notes, hidden: false, pinned: false, missing: lacking).needsAttention)
    #expect(Bundle(entry: try entry("com.example.broken"), hidden: false, pinned: false).needsAttention)
    #expect(!Bundle(entry: notes, hidden: true, pinned: false, missing: lacking).needsAttention)
    #expect(!Bundle(entry: notes, hidden: false, pinned: true).needsAttention)
  }

  @Test func theReportHasTheDocumentedKeys() throws {
    let notes = DoctorReport.Bundle(entry: try entry("com.example.notes"), hidden: false, pinned: true)
    let broken = DoctorReport.Bundle(entry: try entry("com.example.broken"), hidden: false, pinned: false)
    let targets = DoctorReport.TargetsFile(
      name: "com.example.gone.json", file: DirectTargetsFile(targets: []), installed: false)
    #expect(targets.service == "com.example.gone")
    let report = DoctorReport(
      folders: [DoctorReport.Folder(location: FilePath(desktop.userExtensions), exists: true)],
      bundles: [notes], settingsFile: "settings.ini", targetsFolder: "/targets", targets: [targets])
    #expect(!report.needsAttention)

    let json = report.report(
      registrations: [["scope": .string("user")]], frontEnds: [], frontEndsNeedAttention: false)
    #expect(
      Set(json.keys) == ["folders", "bundles", "frontEnds", "registrations", "targets", "needsAttention"])
    #expect(json["needsAttention"] == .bool(false))
    #expect(json["registrations"] == .objects([["scope": .string("user")]]))
    #expect(
      json["targets"]
        == .objects([
          [
            "file": .string("/targets/com.example.gone.json"), "service": .string("com.example.gone"),
            "installed": .bool(false), "targets": .integer(0), "problems": .strings([]),
          ]
        ]))
    guard case .objects(let bundles)? = json["bundles"], let bundle = bundles.first else {
      Issue.record("no bundles in \(json)")
      return
    }
    #expect(
      Set(bundle.keys) == [
        "bundle", "folder", "id", "name", "state", "hidden", "pinned", "problems", "warnings",
        "missingPrograms", "missingBusNames", "needsAttention", "entitlements",
      ])
    #expect(bundle["state"] == .string("pinned"))

    // The front ends' part counts as much as the bundles'.
    #expect(
      report.report(registrations: [], frontEnds: [], frontEndsNeedAttention: true)["needsAttention"]
        == .bool(true))
    var withBroken = report
    withBroken.bundles.append(broken)
    #expect(withBroken.needsAttention)
    #expect(
      withBroken.report(registrations: [], frontEnds: [], frontEndsNeedAttention: false)["needsAttention"]
        == .bool(true))
  }
}
