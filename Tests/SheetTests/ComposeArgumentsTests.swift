import ShareCore
import ShareHost
import Testing

@testable import ShareSheet

/// `xdg-share-sheet --compose SERVICE-ID …`, as `SheetComposePrompt` starts it.
@Suite struct ComposeArgumentsTests {
  @Test func theArgumentsTheComposeStepGivesAreUnderstood() throws {
    let items: [ShareItem] = [.webURL("https://x.org/"), .text("hi"), .file(FilePath("/tmp/-a.png"))]
    let arguments = SheetProgram.composeArguments(
      program: "xdg-share-sheet", service: "org.example.micro", items: items, parent: "x11:4a0000b")
    let parsed = try SheetArguments.parse(Array(arguments.dropFirst()))
    #expect(parsed.compose == "org.example.micro")
    #expect(parsed.service == nil)
    #expect(parsed.parent == .x11(0x4a0000b))
    #expect(parsed.resultDescriptor == 3)
    #expect(parsed.items == items)
  }

  @Test func withoutComposeThePickerIsShown() throws {
    #expect(try SheetArguments.parse([Array("a.png".utf8)]).compose == nil)
    #expect(throws: SheetArguments.Problem.missingValue(option: "--compose")) {
      try SheetArguments.parse([Array("--compose".utf8)])
    }
  }
}
