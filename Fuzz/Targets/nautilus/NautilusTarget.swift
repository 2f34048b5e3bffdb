import FuzzSupport
import ShareDesktop

/// The Nautilus extension's Python string literals, read back by Python's rules for string
/// literals, and the D-Bus activation file's Exec word, read back as dbus-daemon splits Exec:
/// each must give back exactly the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNautilus(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let value = String(decoding: inputBytes(data, size), as: UTF8.self)
  let literal = pythonStringLiteral(value)
  expect(
    literal.unicodeScalars.allSatisfy { (" "..."~").contains($0) }, "not printable ASCII: \(literal)")
  expect(Array(PythonLiteral.read(literal).unicodeScalars) == Array(value.unicodeScalars), "\(literal)")

  // The integration refuses an executable with a control character (FileManagerIntegration).
  if !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
    let word = dbusExecWord(value)
    let words = ShellWords.split(word + " daemon")
    expect(
      words.map { Array($0.unicodeScalars) } == [
        Array(value.unicodeScalars), Array("daemon".unicodeScalars),
      ], "Exec=\(word) daemon gives \(words)")
  }
  return 0
}

/// A Python 3 string literal in double quotes, read by the language reference's rules.
enum PythonLiteral {
  static func read(_ literal: String) -> String {
    var scalars = Array(literal.unicodeScalars)
    expect(scalars.count >= 2 && scalars.first == "\"" && scalars.last == "\"", "not quoted: \(literal)")
    scalars = Array(scalars.dropFirst().dropLast())
    var out = String.UnicodeScalarView()
    var index = 0
    func hex(_ count: Int) -> Unicode.Scalar {
      expect(index + count <= scalars.count, "a short escape in \(literal)")
      let digits = String(String.UnicodeScalarView(scalars[index..<index + count]))
      index += count
      guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
        expect(false, "a bad escape \(digits) in \(literal)")
        return " "
      }
      return scalar
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      expect(scalar != "\"" && scalar != "\n", "an unescaped \(scalar) ends the literal early: \(literal)")
      guard scalar == "\\" else {
        out.append(scalar)
        continue
      }
      expect(index < scalars.count, "a backslash at the end of \(literal)")
      let kind = scalars[index]
      index += 1
      switch kind {
      case "\\": out.append("\\")
      case "\"": out.append("\"")
      case "'": out.append("'")
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "x": out.append(hex(2))
      case "u": out.append(hex(4))
      case "U": out.append(hex(8))
      default: out.append(contentsOf: ["\\", kind])  // Python keeps unknown escapes as written.
      }
    }
    return String(out)
  }
}

/// dbus-daemon's splitting of an Exec line (`_dbus_shell_parse_argv`, after GLib's
/// `g_shell_parse_argv`): words separated by blanks; single quotes keep everything up to the next
/// single quote; outside them a backslash takes the next character as it is; double quotes
/// allow `\"`, `\\`, `` \` ``, `\$` and a backslash-newline; `#` starting a word starts a comment.
enum ShellWords {
  static func split(_ line: String) -> [String] {
    var words: [String] = []
    var current = String.UnicodeScalarView()
    var started = false
    var iterator = line.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      switch scalar {
      case " ", "\t", "\n":
        if started { words.append(String(current)) }
        current = String.UnicodeScalarView()
        started = false
      case "'":
        started = true
        var closed = false
        while let next = iterator.next() {
          if next == "'" {
            closed = true
            break
          }
          current.append(next)
        }
        expect(closed, "an unclosed single quote in \(line)")
      case "\"":
        started = true
        var closed = false
        while let next = iterator.next() {
          if next == "\"" {
            closed = true
            break
          }
          if next == "\\", let escaped = iterator.next() {
            if "\"\\`$".unicodeScalars.contains(escaped) {
              current.append(escaped)
            } else if escaped != "\n" {
              current.append(contentsOf: ["\\", escaped])
            }
            continue
          }
          current.append(next)
        }
        expect(closed, "an unclosed double quote in \(line)")
      case "\\":
        started = true
        if let next = iterator.next(), next != "\n" { current.append(next) }
      case "#" where !started:
        // A comment, to the end of the line.
        while let next = iterator.next(), next != "\n" {}
      default:
        started = true
        current.append(scalar)
      }
    }
    if started { words.append(String(current)) }
    return words
  }
}
