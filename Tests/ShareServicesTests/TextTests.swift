import Foundation
import ShareCore
import Testing

@testable import ShareServices

/// The services' stand-ins for Foundation's string methods, held against Foundation's own.
@Suite struct TextTests {
  static let texts = [
    "", " ", "\t", "a", " a ", "\ta b\t", "\u{A0}a\u{3000}", " \u{301}a", "a\u{2009}", "\n a \n", "Pixel 7",
    "pixel 7", "Straße", "STRASSE", "ẞ", "ß", "SS", "\u{E9}", "E\u{301}", "İ", "i", "ǅ", "dž", "ﬁ", "FI", "Σ",
    "ς", "K",
    "\u{212A}",
  ]

  @Test func trimmingSpacesIsTrimmingWhitespaces() {
    let differences = Self.texts.filter { $0.trimmingSpaces() != $0.trimmingCharacters(in: .whitespaces) }
    #expect(differences == [])
  }

  @Test func equalsIgnoringCaseIsCaseInsensitiveCompare() {
    var differences: [String] = []
    for a in Self.texts {
      for b in Self.texts where a.equalsIgnoringCase(b) != (a.caseInsensitiveCompare(b) == .orderedSame) {
        differences.append("\(a.debugDescription) \(b.debugDescription)")
      }
    }
    #expect(differences == [])
  }
}
