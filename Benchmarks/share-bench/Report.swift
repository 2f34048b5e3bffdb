/// One line of the results table.
struct Row {
  var name: String
  var timing: Timing
  var floorName: String
  var floor: Timing
  /// The target for the median, in seconds, when it sets one.
  var target: Double?

  var ratio: Double { timing.median / floor.median }
  var passes: Bool? { target.map { timing.median < $0 } }
}

enum Report {
  /// A duration with three significant digits and a unit that suits it.
  static func format(_ seconds: Double) -> String {
    let (value, unit): (Double, String) =
      seconds >= 1
      ? (seconds, "s")
      : seconds >= 1e-3
        ? (seconds * 1e3, "ms")
        : seconds >= 1e-6
          ? (seconds * 1e6, "µs")
          : (seconds * 1e9, "ns")
    let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
    return "\(fixed(value, digits)) \(unit)"
  }

  static func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if digits == 0 { text = "\(Int(rounded))" }
    if let dot = text.firstIndex(of: ".") {
      let decimals = text.distance(from: dot, to: text.endIndex) - 1
      text += String(repeating: "0", count: max(0, digits - decimals))
    }
    return text
  }

  static func ratio(_ value: Double) -> String {
    value >= 100 ? "\(Int(value.rounded()))×" : value >= 10 ? "\(fixed(value, 1))×" : "\(fixed(value, 2))×"
  }

  /// The rows as a Markdown table, padded so that it also reads well in a terminal.
  static func table(_ rows: [Row]) -> String {
    let header = ["case", "median", "p90", "floor (median)", "ratio", "target", "result", "samples"]
    let lines = rows.map { row in
      [
        row.name, format(row.timing.median), format(row.timing.p90),
        "\(row.floorName): \(format(row.floor.median))", ratio(row.ratio),
        row.target.map { "< \(format($0))" } ?? "–",
        row.passes.map { $0 ? "pass" : "FAIL" } ?? "–",
        "\(row.timing.samples.count)×\(row.timing.operationsPerSample)",
      ]
    }
    let widths = header.indices.map { column in
      ([header] + lines).map { $0[column].count }.max() ?? 0
    }
    let rightAligned: Set<Int> = [1, 2, 4]
    func line(_ cells: [String]) -> String {
      let padded = cells.indices.map { column in
        let padding = String(repeating: " ", count: widths[column] - cells[column].count)
        return rightAligned.contains(column) ? padding + cells[column] : cells[column] + padding
      }
      return "| " + padded.joined(separator: " | ") + " |"
    }
    let rule =
      "|"
      + widths.indices.map { column in
        String(repeating: "-", count: widths[column] + 1) + (rightAligned.contains(column) ? ":" : "-")
      }.joined(separator: "|") + "|"
    return ([line(header), rule] + lines.map(line)).joined(separator: "\n")
  }
}
