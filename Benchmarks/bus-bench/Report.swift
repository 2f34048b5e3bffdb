import Foundation
import Glibc
import SharePOSIX

/// One line of the results table.
struct ReportRow {
  var figure: String
  var value: String
  var reference: String
  var ratio: String
  var target: String
  /// `nil`: informational, no target.
  var passes: Bool?
}

extension BusBench {
  func report(
    oneFile: OneFile, manyFiles: ManyFiles, memory200: Memory, memory1000: Memory, memoryFloor: ProcessMemory,
    floor: (time: Samples, peakResident: Double), listStartup: ListStartup?, sizes: [InstalledSize],
    coldStarts: ColdStarts, changes: Samples, oneFile1000: OneFile, coldStarts1000: ColdStarts,
    changes1000: Samples
  ) {
    let f = Report.duration
    let ping = oneFile["ping"]
    let query = oneFile["query"]
    let ratio = query.median / ping.median
    var rows: [ReportRow] = []
    rows.append(
      ReportRow(
        figure: "QueryItems, 1 PNG, \(Self.services) services (median)", value: f(query.median),
        reference:
          "Ping to the service \(f(ping.median)); Contractor \(Int(Self.contractorRatio.low))–\(Int(Self.contractorRatio.high))×",
        ratio: Report.ratio(ratio),
        target: "≤ \(Report.fixed(Self.targetRatio, 1))×", passes: ratio <= Self.targetRatio))
    rows.append(
      ReportRow(
        figure: "QueryItems, 1 PNG, \(Self.services) services (p90)", value: f(query.p90),
        reference: "Ping p90 \(f(ping.p90))", ratio: Report.ratio(query.p90 / ping.p90), target: "–",
        passes: nil))
    rows.append(
      ReportRow(
        figure: "Ping carrying the reply's \(Report.kilobytes(oneFile.replyBytes)) (median)",
        value: f(oneFile["ping-reply"].median), reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["ping-reply"].median / ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure:
          "Ping carrying only the \(oneFile.accepted) ids, \(Report.kilobytes(oneFile.idsBytes)) (median)",
        value: f(oneFile["ping-ids"].median), reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["ping-ids"].median / ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure:
          "QueryItems asking for `fields: [\"id\"]`, \(Report.kilobytes(oneFile.idsReplyBytes)) reply (median)",
        value: f(oneFile["query-ids"].median), reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["query-ids"].median / ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "Ping carrying that reply's \(Report.kilobytes(oneFile.idsReplyBytes)) (median)",
        value: f(oneFile["ping-ids-reply"].median), reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["ping-ids-reply"].median / ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "bus daemon GetId, one hop (median)", value: f(oneFile["getid"].median),
        reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["getid"].median / ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "ListServices, \(Self.services) services, no matching (median)",
        value: f(oneFile["list"].median),
        reference: "Ping to the service \(f(ping.median))",
        ratio: Report.ratio(oneFile["list"].median / ping.median), target: "–", passes: nil))
    let perFile = (manyFiles.query.median - manyFiles.ping.median) / Double(Self.manyFiles)
    rows.append(
      ReportRow(
        figure: "QueryItems, \(Self.manyFiles) files, \(Self.services) services (median)",
        value: f(manyFiles.query.median),
        reference:
          "Ping carrying the same \(Self.manyFiles) items \(f(manyFiles.ping.median)); +\(f(perFile))/file",
        ratio: Report.ratio(manyFiles.query.median / manyFiles.ping.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "resident memory of the floor: libdbus, GIO and FoundationEssentials from Swift",
        value: Report.megabytes(memoryFloor.resident),
        reference: "Contractor \(Report.megabytes(Self.contractorResident))",
        ratio: Report.ratio(memoryFloor.resident / Self.contractorResident), target: "–", passes: nil))
    // Issue 12: against the floor of the same link mode, measured in the same run.
    for (memory, target) in [(memory200, 1.3), (memory1000, 1.5)] {
      let ratio = memory.memory.resident / memoryFloor.resident
      rows.append(
        ReportRow(
          figure: "resident memory, \(memory.label)", value: Report.megabytes(memory.memory.resident),
          reference:
            "floor \(Report.megabytes(memoryFloor.resident)); Contractor "
            + "\(Report.megabytes(Self.contractorResident)); `xdg-share --version` peak "
            + Report.megabytes(floor.peakResident),
          ratio: Report.ratio(ratio), target: "≤ \(Report.fixed(target, 1))×", passes: ratio <= target))
    }
    if let listStartup {
      let ratio = listStartup.list.median / listStartup.floor.median
      rows.append(
        ReportRow(
          figure: "`xdg-share list --json` a PNG, \(listStartup.services) bundled services (median)",
          value: f(listStartup.list.median),
          reference: "`memory-floor --guess`: same C libraries, one GIO guess \(f(listStartup.floor.median))",
          ratio: Report.ratio(ratio), target: "≤ 1.5×", passes: ratio <= 1.5))
    }
    for size in sizes {
      rows.append(
        ReportRow(
          figure: "installed `\(size.name)` (stripped, as `install.sh` installs it)",
          value: Report.megabytes(Double(size.stripped)),
          reference: "as built \(Report.megabytes(Double(size.built)))", ratio: "–", target: "≤ 25 MB",
          passes: size.stripped <= 25_000_000))
    }
    rows.append(
      ReportRow(
        figure: "cold start to name owned, \(Self.services) bundles (median)",
        value: f(coldStarts.owned.median),
        reference: "process floor (`xdg-share --version`) \(f(floor.time.median))",
        ratio: Report.ratio(coldStarts.owned.median / floor.time.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "cold start to first ListServices answer (median)", value: f(coldStarts.answered.median),
        reference: "process floor \(f(floor.time.median))",
        ratio: Report.ratio(coldStarts.answered.median / floor.time.median), target: "–", passes: nil))
    rows.append(
      ReportRow(
        figure: "bundle renamed in → ServicesChanged, \(Self.services) bundles (median)",
        value: f(changes.median),
        reference: "Contractor \(f(Self.contractorChangeSignal))",
        ratio: Report.ratio(changes.median / Self.contractorChangeSignal),
        target: "< \(f(Self.contractorChangeSignal))", passes: changes.median < Self.contractorChangeSignal))

    print("\n## Results\n")
    print(Report.table(rows))

    print("\n### Details\n")
    print(
      "- one PNG: \(oneFile.accepted) of \(Self.services) services accept it (reply body "
        + "\(Report.kilobytes(oneFile.replyBytes))); \(query.count) timed calls per kind, interleaved in blocks of 100 "
        + "after 300 warm-up calls each")
    print("- round trips (median / p90 / min) and CPU per call (client + bus daemon + service):")
    let labels = [
      ("ping", "Ping to the service"), ("query", "QueryItems, 1 PNG"),
      ("ping-reply", "Ping carrying the reply's bytes"),
      ("ping-ids", "Ping carrying only the ids"),
      ("query-ids", "QueryItems asking for the ids"), ("ping-ids-reply", "Ping carrying that reply's bytes"),
      ("list", "ListServices"), ("getid", "GetId (bus daemon)"),
    ]
    for (kind, label) in labels {
      print("  - \(label): \(Report.triple(oneFile[kind])); CPU \(Report.cpu(oneFile.result.cpu[kind]))")
    }
    print(
      "- QueryItems / Ping by the fastest calls (less sensitive to other load than the medians): "
        + Report.ratio(query.minimum / ping.minimum))
    print(
      "- \(Self.manyFiles) files (6:2:1:1 PNG, JPEG, PDF, text; body \(Report.kilobytes(manyFiles.messageBytes))): "
        + "\(manyFiles.accepted) services accept them; QueryItems \(Report.triple(manyFiles.query)), CPU "
        + "\(Report.cpu(manyFiles.result.cpu["query"])); Ping carrying the same items \(Report.triple(manyFiles.ping)), CPU "
        + "\(Report.cpu(manyFiles.result.cpu["ping"])); \(manyFiles.query.count) calls each")
    print(
      "- cold start (\(coldStarts.owned.count) starts): name owned \(Report.triple(coldStarts.owned)), first answer "
        + "\(Report.triple(coldStarts.answered)); process floor \(Report.triple(floor.time))")
    print(
      "- bundle → ServicesChanged (\(changes.count) installs): \(Report.triple(changes)); the service's quiet period "
        + "is 50 ms (at most 250 ms)")
    print(
      "- with \(Self.manyServices) bundles: QueryItems 1 PNG \(f(oneFile1000["query"].median)) vs Ping "
        + "\(f(oneFile1000["ping"].median)) = \(Report.ratio(oneFile1000["query"].median / oneFile1000["ping"].median)) "
        + "(\(oneFile1000.accepted) accept, reply \(Report.kilobytes(oneFile1000.replyBytes)); Ping carrying it "
        + "\(f(oneFile1000["ping-reply"].median)); service CPU \(Report.cpu(oneFile1000.result.cpu["query"]))); cold start to name owned \(f(coldStarts1000.owned.median)), first answer "
        + "\(f(coldStarts1000.answered.median)) (median of \(coldStarts1000.owned.count)); bundle → ServicesChanged "
        + "\(f(changes1000.median)) (median of \(changes1000.count))")
    for memory in [memory200, memory1000] {
      let m = memory.memory
      print(
        "- memory, \(memory.label): VmRSS \(Report.megabytes(m.resident)) = anonymous \(Report.megabytes(m.anonymous)) "
          + "+ file-backed \(Report.megabytes(m.fileBacked)); PSS \(Report.megabytes(m.proportional)), private "
          + "\(Report.megabytes(m.unique)); by family: "
          + memory.families.map { "\($0.name) \(Report.megabytes($0.bytes))" }.joined(separator: ", ")
          + "; largest: "
          + memory.largest.map { "\($0.name) \(Report.megabytes($0.bytes))" }.joined(separator: ", "))
    }
    if let listStartup {
      print(
        "- `xdg-share list --json` (\(listStartup.list.count) runs alternating with the floor): wall "
          + "\(Report.triple(listStartup.list)), CPU median \(f(listStartup.listCPU.median)); `memory-floor --guess` "
          + "wall \(Report.triple(listStartup.floor)), CPU median \(f(listStartup.floorCPU.median)); CPU ratio "
          + Report.ratio(listStartup.listCPU.median / listStartup.floorCPU.median))
    }
    print(
      "- memory floor (`memory-floor`: owns a name with libdbus, answers Ping, GIO guesses one file, "
        + "FoundationEssentials reads a property list and writes JSON once): VmRSS \(Report.megabytes(memoryFloor.resident)) = anonymous "
        + "\(Report.megabytes(memoryFloor.anonymous)) + file-backed \(Report.megabytes(memoryFloor.fileBacked)); PSS "
        + "\(Report.megabytes(memoryFloor.proportional)), private \(Report.megabytes(memoryFloor.unique))")
    let verdicts = rows.compactMap(\.passes)
    print("\n\(verdicts.filter { $0 }.count) of \(verdicts.count) targets met.")
  }
}

enum Report {
  static func duration(_ seconds: Double) -> String {
    let (value, unit): (Double, String) =
      seconds >= 1 ? (seconds, "s") : seconds >= 1e-3 ? (seconds * 1e3, "ms") : (seconds * 1e6, "µs")
    let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
    return "\(fixed(value, digits)) \(unit)"
  }

  static func kilobytes(_ bytes: Int) -> String {
    "\(fixed(Double(bytes) / 1024, 1)) KiB"
  }

  /// CPU per call, client + bus daemon + service.
  static func cpu(_ cpu: CPUPerCall?) -> String {
    guard let cpu else { return "–" }
    return
      "\(duration(cpu.client)) + \(duration(cpu.bus)) + \(duration(cpu.service)) = \(duration(cpu.total))"
  }

  static func megabytes(_ bytes: Double) -> String {
    "\(fixed(bytes / 1e6, 1)) MB"
  }

  static func triple(_ samples: Samples) -> String {
    "\(duration(samples.median)) / \(duration(samples.p90)) / \(duration(samples.minimum))"
  }

  static func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  static func ratio(_ value: Double) -> String {
    value >= 10 ? "\(fixed(value, 1))×" : "\(fixed(value, 2))×"
  }

  /// The rows as a Markdown table, padded so that it also reads well in a terminal.
  static func table(_ rows: [ReportRow]) -> String {
    let header = ["figure", "value", "floor / reference", "ratio", "target", "result"]
    let lines = rows.map { row in
      [
        row.figure, row.value, row.reference, row.ratio, row.target,
        row.passes.map { $0 ? "pass" : "FAIL" } ?? "info",
      ]
    }
    let widths = header.indices.map { column in ([header] + lines).map { $0[column].count }.max() ?? 0 }
    func line(_ cells: [String]) -> String {
      "| "
        + cells.indices.map { cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count) }
        .joined(separator: " | ") + " |"
    }
    return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + lines.map(line))
      .joined(separator: "\n")
  }
}

/// What the figures were measured on, read from the kernel.
enum Machine {
  static func describe() -> [(String, String)] {
    var name = utsname()
    uname(&name)
    func field<T>(_ value: inout T) -> String {
      withUnsafeBytes(of: &value) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
    let cpuinfo = ProcessMemory.readText("/proc/cpuinfo")
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }.map { $0.trimmingCharacters(in: .whitespaces) }
      ?? "unknown"
    let memory =
      ProcessMemory.readText("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
      .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Double($0) }
      .map { "\(fixed($0 / 1024 / 1024)) GiB" } ?? "unknown"
    let busVersion =
      (try? CapturedRun.run(
        [Array("dbus-daemon".utf8), Array("--version".utf8)], environment: ProcessInfo.processInfo.environment
      ))
      .map {
        String(decoding: $0.standardOutput, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
      }
      ?? "unknown"
    return [
      ("CPU", model),
      ("cores", "\(sysconf(Int32(_SC_NPROCESSORS_ONLN)))"),
      ("memory", memory),
      ("kernel", "\(field(&name.sysname)) \(field(&name.release)) \(field(&name.machine))"),
      ("bus", busVersion),
    ]
  }

  private static func fixed(_ value: Double) -> String { Report.fixed(value, 1) }

  static var oneMinuteLoad: Double {
    ProcessMemory.readText("/proc/loadavg").split(separator: " ").first.flatMap { Double($0) } ?? 0
  }

  /// The 1, 5 and 15 minute load averages: other work on the machine shows in round trips.
  static var loadAverage: String {
    ProcessMemory.readText("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " ")
  }
}
