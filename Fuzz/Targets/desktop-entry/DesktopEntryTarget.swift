import FuzzSupport
import ShareDesktop

/// The generators' desktop-entry values, read back as the Desktop Entry Specification says a
/// file manager reads them: a string (`Name=`), a list (`MimeType=`) and an Exec line must each
/// give back exactly what was written.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDesktopEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  var input = FuzzInput(inputBytes(data, size))
  // `escape` drops control characters that have no escape; labels never need them.
  let value = input.string(maximum: 64)
  let label = DesktopEntry.escape(value)
  expect(!label.unicodeScalars.contains(where: isControl), "a control character in \(scalars(label))")
  expect(
    scalars(DesktopEntrySpec.string(DesktopEntrySpec.value(ofLine: "Name=" + label)))
      == scalars(value).filter { !isControl($0) || "\n\r\t".unicodeScalars.contains($0) },
    "Name=\(label) reads back differently from \(scalars(value))")

  let elements = (0..<input.int(in: 0...4)).map { _ in input.string(maximum: 16) }
  let list = DesktopEntry.list(elements)
  let readBack = DesktopEntrySpec.list(DesktopEntrySpec.value(ofLine: "MimeType=" + list))
  expect(
    readBack.map(scalars)
      == elements.map { scalars($0).filter { !isControl($0) || "\n\r\t".unicodeScalars.contains($0) } },
    "MimeType=\(list) reads back as \(readBack), not \(elements)")

  // The integration refuses an executable that is relative or holds a control character or a
  // backslash (FileManagerIntegration.render); service identifiers may hold anything else.
  let executable =
    "/" + input.string(maximum: 40).filter { $0 != "\\" && !$0.unicodeScalars.contains(where: isControl) }
  let id = String(
    input.string(maximum: 24).unicodeScalars.filter { !isControl($0) || "\n\r\t".unicodeScalars.contains($0) }
  )
  for (line, expected) in [
    (DesktopEntry.exec(executable: executable, serviceID: id), [executable, "--service", id, "--"]),
    (DesktopEntry.pickerExec(executable: executable), [executable, "--picker", "--"]),
    (
      DesktopEntry.launcherExec(executable: executable, serviceID: id),
      [executable, "--picker", "--service", id, "--"]
    ),
  ] {
    let arguments = DesktopEntrySpec.exec(
      DesktopEntrySpec.string(DesktopEntrySpec.value(ofLine: "Exec=" + line)))
    expect(
      arguments.map { $0.map(scalars) } == (expected.map { .some(scalars($0)) } + [nil]),
      "Exec=\(line) reads back as \(arguments), not \(expected) %F")
  }
  return 0
}

func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

/// A desktop-entry reader written from the specification ("Possible value types", "The Exec
/// key"), independent of the writer.
enum DesktopEntrySpec {
  /// The raw value of a `Key=value` line: after the `=`, spaces and tabs skipped.
  static func value(ofLine line: String) -> String {
    let afterEquals = line.unicodeScalars.drop { $0 != "=" }.dropFirst()
    return String(String.UnicodeScalarView(afterEquals.drop { $0 == " " || $0 == "\t" }))
  }

  /// A `string`/`localestring` value: `\s`, `\n`, `\t`, `\r` and `\\` unescaped.
  static func string(_ raw: String) -> String {
    var out = String.UnicodeScalarView()
    var iterator = raw.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      guard scalar == "\\", let next = iterator.next() else {
        out.append(scalar)
        continue
      }
      switch next {
      case "s": out.append(" ")
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "\\": out.append("\\")
      default: out.append(contentsOf: ["\\", next])
      }
    }
    return String(out)
  }

  /// A list: elements end at an unescaped `;` (`\;` is a semicolon), each then a string value;
  /// the last `;` is optional.
  static func list(_ raw: String) -> [String] {
    var elements: [String] = []
    var current = String.UnicodeScalarView()
    var iterator = raw.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      if scalar == "\\", let next = iterator.next() {
        if next == ";" { current.append(";") } else { current.append(contentsOf: ["\\", next]) }
      } else if scalar == ";" {
        elements.append(string(String(current)))
        current = String.UnicodeScalarView()
      } else {
        current.append(scalar)
      }
    }
    if !current.isEmpty { elements.append(string(String(current))) }
    return elements
  }

  /// The arguments of an Exec value (already string-unescaped): separated by spaces; inside
  /// double quotes `\"`, `` \` ``, `\$` and `\\` are the characters; `%%` is `%` and a lone `%F`
  /// a field code (`nil` here). An argument outside quotes may hold no reserved character.
  static func exec(_ value: String) -> [String?] {
    let reserved = Set(" \t\n\"'\\><~|&;$*?#()`".unicodeScalars)
    var arguments: [String?] = []
    var current = String.UnicodeScalarView()
    var quoted = false
    var started = false
    var iterator = value.unicodeScalars.makeIterator()
    func finish() {
      guard started else { return }
      let text = String(current)
      arguments.append(text == "%F" ? nil : percentDecoded(text))
      current = String.UnicodeScalarView()
      started = false
    }
    while let scalar = iterator.next() {
      if quoted {
        if scalar == "\"" {
          quoted = false
        } else if scalar == "\\", let next = iterator.next() {
          expect("\"`$\\".unicodeScalars.contains(next), "\\\(next) inside quotes in \(value)")
          current.append(next)
        } else {
          expect(!"\"`$\\".unicodeScalars.contains(scalar), "an unescaped \(scalar) inside quotes")
          current.append(scalar)
        }
      } else if scalar == " " {
        finish()
      } else if scalar == "\"" {
        quoted = true
        started = true
      } else {
        expect(!reserved.contains(scalar), "a reserved \(scalar) outside quotes in \(value)")
        current.append(scalar)
        started = true
      }
    }
    expect(!quoted, "an unclosed quote in \(value)")
    finish()
    return arguments
  }

  /// `%%` as `%`; any other `%` is a field code, which no generated argument may hold.
  static func percentDecoded(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      guard scalar == "%" else {
        out.append(scalar)
        continue
      }
      let next = iterator.next()
      expect(next == "%", "a field code %\(next.map(String.init) ?? "") in an argument: \(text)")
      out.append("%")
    }
    return String(out)
  }
}
