import ShareCore
import Testing

@testable import ShareSheet

/// `xdg-share-sheet [--parent PARENT] [--text TEXT] [--url URL]... [--] FILE...`
@Suite struct ArgumentsTests {
  func parse(_ arguments: [String]) throws(SheetArguments.Problem) -> SheetArguments {
    try SheetArguments.parse(arguments.map { Array($0.utf8) })
  }

  @Test func itemsKeepTheirOrder() throws {
    let parsed = try parse(["a.png", "--url", "https://x.org/", "--text=hello", "b.txt", "--text", ""])
    #expect(
      parsed.items == [
        .file(FilePath("a.png")), .webURL("https://x.org/"), .text("hello"), .file(FilePath("b.txt")),
        .text(""),
      ])
    #expect(parsed.parent == nil)
    #expect(parsed.resultDescriptor == nil)
  }

  @Test func afterTheDoubleDashEverythingIsAFileByteForByte() throws {
    let odd: [UInt8] = [0x2D, 0x63, 0x61, 0x66, 0xE9]  // "-caf" and a Latin-1 é
    let parsed = try SheetArguments.parse([Array("--".utf8), odd, Array("--text".utf8)])
    #expect(parsed.items == [.file(FilePath(bytes: odd)), .file(FilePath("--text"))])
  }

  @Test func parents() throws {
    #expect(try parse(["--parent", "x11:4a0000b", "f"]).parent == .x11(0x4a0000b))
    #expect(try parse(["--parent=x11:0x1F", "f"]).parent == .x11(0x1f))
    #expect(try parse(["--parent", "wayland:abc-123", "f"]).parent == .wayland("abc-123"))
    #expect(try parse(["--parent", "", "f"]).parent == nil)
  }

  @Test(arguments: ["x11:", "x11:zz", "x11:0", "wayland:", "mir:1"])
  func aParentThatCannotBeUsedIsAWarningNotAnError(parent: String) throws {
    let parsed = try parse(["--parent", parent, "f"])
    #expect(parsed.parent == nil)
    #expect(parsed.warnings.count == 1)
  }

  @Test func resultDescriptor() throws {
    #expect(try parse(["--result-fd", "3", "f"]).resultDescriptor == 3)
    #expect(throws: SheetArguments.Problem.notADescriptor("three")) {
      try parse(["--result-fd", "three", "f"])
    }
    #expect(throws: SheetArguments.Problem.notADescriptor("-1")) { try parse(["--result-fd=-1", "f"]) }
  }

  @Test func problems() throws {
    // Nothing to share is no problem: the sheet asks for files.
    #expect(try parse([]).items.isEmpty)
    #expect(try parse(["--service", "org.example.x"]).service == "org.example.x")
    #expect(throws: SheetArguments.Problem.missingValue(option: "--url")) { try parse(["--url"]) }
    #expect(throws: SheetArguments.Problem.notALink("not a link")) { try parse(["--url", "not a link"]) }
    #expect(throws: SheetArguments.Problem.unknownOption("--frobnicate")) {
      try parse(["--frobnicate", "f"])
    }
  }

  @Test func helpNeedsNoItems() throws {
    #expect(try parse(["--help"]).showHelp)
  }
}
