// share-bench: activation rules and registry loading, against floors measured in the same run.
//
//   swift build -c release --scratch-path /tmp/bench-build --product share-bench
//   /tmp/bench-build/release/share-bench [--swift-version "$(swift --version 2>/dev/null | head -1)"]
//     [--quick] [--profile CASE [--seconds N]] [--keep]
//
// Issue 2: rule evaluation for 200 installed services against selections of 1, 100 and 10 000
// files, with and without detection, and registry load for 10, 100 and 1 000 bundles. Targets:
// 200 services against a 100-file selection in under 1 ms once types are known; 1 000 bundles
// loaded in under 150 ms. Prints a table (docs/benchmarks.md); exits 1 when a target is missed.

import Foundation
import ShareCore
import ShareGLib

struct Options {
  var swiftVersion: String?
  /// Shorter budgets, for checking that the benchmark runs; the figures are noisier.
  var quick = false
  /// Runs only the case with this identifier, in a loop, for a profiler to watch.
  var profile: String?
  var profileSeconds = 10.0
  /// Leaves the generated bundles and files in place, for inspection.
  var keep = false

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--swift-version":
        guard let value = rest.popFirst() else { throw BenchError("--swift-version needs a value") }
        swiftVersion = value
      case "--quick": quick = true
      case "--keep": keep = true
      case "--profile":
        guard let value = rest.popFirst(), Bench.caseNames.contains(value) else {
          throw BenchError("--profile needs one of: \(Bench.caseNames.joined(separator: " "))")
        }
        profile = value
      case "--seconds":
        guard let value = rest.popFirst().flatMap(Double.init) else {
          throw BenchError("--seconds needs a number")
        }
        profileSeconds = value
      case "--help", "-h":
        print("usage: share-bench [--swift-version TEXT] [--quick] [--profile CASE [--seconds N]] [--keep]")
        print("cases: \(Bench.caseNames.joined(separator: " "))")
        exit(0)
      default: throw BenchError("unknown argument \(argument)")
      }
    }
  }
}

/// Collects the rows, or with `--profile` runs just one case in a loop.
final class Bench {
  let options: Options
  var rows: [Row] = []

  /// Every case identifier, for `--profile`.
  static var caseNames: [String] {
    ["type-system"]
      + Scale.selectionSizes.flatMap { ["evaluate-\($0)", "build-\($0)", "detect-\($0)", "pipeline-\($0)"] }
      + Scale.bundleCounts.map { "load-\($0)" }
  }

  init(options: Options) {
    self.options = options
  }

  /// Scales a budget down for `--quick`.
  func scaled(_ budget: Budget) -> Budget {
    guard options.quick else { return budget }
    var quick = budget
    quick.seconds /= 5
    quick.minimumSamples = max(5, budget.minimumSamples / 3)
    return quick
  }

  /// Measures case `id` and its floor, and adds a row.
  func add(
    _ id: String, _ name: String, budget: Budget, target: Double? = nil, operation: () -> Void,
    floorName: String, floor: () -> Void
  ) {
    if let profile = options.profile {
      guard profile == id else { return }
      log("profiling \(id) for \(options.profileSeconds) s")
      let clock = ContinuousClock()
      let start = clock.now
      var runs = 0
      while (clock.now - start).seconds < options.profileSeconds {
        operation()
        runs += 1
      }
      log("\(runs) runs, \(Report.format((clock.now - start).seconds / Double(runs))) each")
      return
    }
    log(name)
    let (timing, floorTiming) = measure(scaled(budget), operation, floor: floor)
    rows.append(Row(name: name, timing: timing, floorName: floorName, floor: floorTiming, target: target))
  }
}

func log(_ message: String) {
  FileHandle.standardError.write(Data("· \(message)\n".utf8))
}

func makeTemporaryDirectory() throws -> String {
  var template = Array("/tmp/share-bench.XXXXXX".utf8CString)
  guard let result = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
  return String(cString: result)
}

/// The sizes the issue asks for.
enum Scale {
  static let selectionSizes = [1, 100, 10_000]
  static let bundleCounts = [10, 100, 1_000]
  static let installedServices = 200
  static let languages = ["de", "en"]
}

func run(_ bench: Bench, in root: String) throws {
  let (selectionSizes, bundleCounts) = (Scale.selectionSizes, Scale.bundleCounts)
  let (installedServices, languages) = (Scale.installedServices, Scale.languages)
  let environment = EverythingAvailable()
  let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
  defer { buffer.deallocate() }

  // MARK: The type system

  // What the loader reads: each directory's mime.cache, or its text files where it has none.
  let mimeFiles = SharedMIMEDatabase.directories().flatMap { directory in
    access(directory + "/mime.cache", R_OK) == 0
      ? [directory + "/mime.cache"] : [directory + "/subclasses", directory + "/aliases"]
  }
  bench.add(
    "type-system", "type system: shared-mime-info hierarchy", budget: .normal,
    operation: { blackHole(SharedMIMEDatabase.typeSystem()) },
    floorName: "read its \(mimeFiles.count) files",
    floor: { blackHole(mimeFiles.reduce(0) { $0 &+ Floors.readFile($1, into: buffer) }) })
  let types = SharedMIMEDatabase.typeSystem()

  // MARK: Rule evaluation

  log("writing \(installedServices) services and \(selectionSizes.max()!) files under \(root)")
  try BundleWriter.write(count: installedServices, into: root + "/installed")
  let registry = ServiceRegistry.load(from: [root + "/installed"], loader: BundleLoader(languages: languages))
  guard registry.services.count == installedServices,
    !registry.problems.contains(where: { $0.severity == .error })
  else {
    throw BenchError("the installed services did not all load: \(registry.problems)")
  }
  let predicates = registry.services.filter { if case .predicate = $0.rule { true } else { false } }.count
  print(
    "Installed: \(installedServices) services (\(installedServices - predicates) dictionary rules, \(predicates) predicates)"
  )

  let paths = try SelectionWriter.write(count: selectionSizes.max()!, into: root + "/files")
  let inspector = GIOFileInspector()
  for size in selectionSizes {
    let items = paths.prefix(size).map { ShareItem.file(FilePath($0)) }
    let cPaths = paths.prefix(size).map { Array($0.utf8CString) }
    let (attachments, problems) = types.attachments(for: items, inspector: inspector)
    guard problems.isEmpty, attachments.count == size else {
      throw BenchError("detection failed: \(problems)")
    }
    let selection = ActivationSelection(attachments: attachments, types: types)
    let accepted = registry.offered(accepting: selection, in: environment)
    let kinds = Set(attachments.map { $0.typeIdentifiers.last ?? "" }).sorted().joined(separator: ", ")
    print("Selection of \(size): \(kinds); accepted by \(accepted.count) of \(installedServices) services")

    let files = size == 1 ? "1 file" : "\(size) files"
    let slow: Budget = size >= 10_000 ? .slow : .normal
    bench.add(
      "evaluate-\(size)", "evaluate \(installedServices) services, \(files), types known", budget: .normal,
      target: size == 100 ? 0.001 : nil,
      operation: { blackHole(registry.offered(accepting: selection, in: environment)) },
      floorName: "list the services unevaluated", floor: { blackHole(registry.offered(in: environment)) })
    bench.add(
      "build-\(size)", "build the ActivationSelection, \(files)", budget: slow,
      operation: { blackHole(ActivationSelection(attachments: attachments, types: types)) },
      floorName: "visit every identifier",
      floor: {
        var total = 0
        for attachment in attachments {
          for identifier in attachment.typeIdentifiers { total &+= identifier.utf8.count }
        }
        blackHole(total)
      })
    bench.add(
      "detect-\(size)", "detect types (GIO), \(files)", budget: slow,
      operation: { blackHole(types.attachments(for: items, inspector: inspector)) },
      floorName: "stat", floor: { blackHole(Floors.statEach(cPaths)) })
    bench.add(
      "pipeline-\(size)", "detect, build and evaluate \(installedServices) services, \(files)", budget: slow,
      operation: {
        let detected = types.attachments(for: items, inspector: inspector).attachments
        let selection = ActivationSelection(attachments: detected, types: types)
        blackHole(registry.offered(accepting: selection, in: environment))
      },
      floorName: "stat", floor: { blackHole(Floors.statEach(cPaths)) })
  }

  // MARK: Registry load

  for count in bundleCounts {
    let directory = root + "/extensions-\(count)"
    let executables = try BundleWriter.write(count: count, into: directory)
    let loader = BundleLoader(languages: languages)
    let loaded = ServiceRegistry.load(from: [directory], loader: loader)
    guard loaded.services.count == count, !loaded.problems.contains(where: { $0.severity == .error }) else {
      throw BenchError("the bundles did not all load: \(loaded.problems)")
    }
    let localized = loaded.services.filter { $0.name.hasPrefix("Teilen") || $0.name.hasPrefix("Share ") }
      .count
    if count == bundleCounts.max() {
      print("Registry of \(count): \(localized) names localized from InfoPlist.strings")
    }
    let budget: Budget = count >= 1_000 ? .slow : .normal
    bench.add(
      "load-\(count)", "load the registry, \(count) bundles", budget: budget,
      target: count == 1_000 ? 0.150 : nil,
      operation: { blackHole(ServiceRegistry.load(from: [directory], loader: loader)) },
      floorName: "list and read the files",
      floor: {
        blackHole(
          Floors.registryIO(
            directory: directory, languages: languages, executables: executables, buffer: buffer))
      })
  }
}

do {
  let options = try Options(Array(CommandLine.arguments.dropFirst()))
  print("share-bench: activation rules and registry (issue 2)\n")
  for (key, value) in Machine.describe(swiftVersion: options.swiftVersion) {
    print("\(key): \(value)")
  }
  print("")
  let clock = ContinuousClock()
  let start = clock.now
  let root = try makeTemporaryDirectory()
  let bench = Bench(options: options)
  do {
    try run(bench, in: root)
    if options.keep { log("kept \(root)") } else { try? FileManager.default.removeItem(atPath: root) }
  } catch {
    try? FileManager.default.removeItem(atPath: root)
    throw error
  }
  if options.profile != nil { exit(0) }
  let rows = bench.rows
  print("")
  print(Report.table(rows))
  print("")
  let targets = rows.filter { $0.target != nil }
  let failed = targets.filter { $0.passes == false }
  print(
    "Targets: \(targets.count - failed.count) of \(targets.count) met"
      + (failed.isEmpty ? "." : "; missed: " + failed.map(\.name).joined(separator: "; ")))
  print(
    "Total time: \(Report.format((clock.now - start).seconds)); load average at the end: \(Machine.loadAverage)"
  )
  exit(failed.isEmpty ? 0 : 1)
} catch {
  FileHandle.standardError.write(Data("share-bench: \(error)\n".utf8))
  exit(2)
}
