import Testing

@testable import ShareDesktop

/// Cases the fuzz targets `desktop-entry` and `nautilus` found (Fuzz/run.sh): what a file manager
/// reads back must be what was written. Compared scalar by scalar, as the readers read; `==` on
/// strings would call a quote and the same quote with a combining mark equal.
@Suite struct EscapingRoundTripTests {
  func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }

  @Test func aSpaceLeadingOnceControlCharactersAreDroppedStaysASpace() {
    // Readers skip spaces after `=`: the space first in what is written must be `\s`.
    #expect(scalars(DesktopEntry.escape("\u{2}\u{5} leading")) == scalars("\\sleading"))
  }

  @Test func aLeadingSpaceWithACombiningMarkIsStillEscaped() {
    // One Character, " \u{5C1}": the space is still the first scalar, which a reader skips.
    #expect(scalars(DesktopEntry.escape(" \u{5C1}w")) == scalars("\\s\u{5C1}w"))
  }

  @Test func aSemicolonWithACombiningMarkIsEscapedInAList() {
    #expect(scalars(DesktopEntry.list(["a;\u{301}b", "c"])) == scalars("a\\;\u{301}b;c;"))
  }

  @Test func execArgumentsQuoteAndEscapeCharactersFollowedByCombiningMarks() {
    // A space with a combining mark is still a space that splits the argument.
    #expect(scalars(DesktopEntry.execArgument("a \u{301}b")) == scalars("\"a \u{301}b\""))
    #expect(scalars(DesktopEntry.execArgument("x\"\u{301}")) == scalars("\"x\\\"\u{301}\""))
    #expect(scalars(DesktopEntry.execArgument("50%\u{301}")) == scalars("50%%\u{301}"))
  }

  @Test func aSingleQuoteWithACombiningMarkIsEscapedInTheDBusExecWord() {
    #expect(scalars(dbusExecWord("c'\u{31C}l")) == scalars("'c'\\''\u{31C}l'"))
  }
}
