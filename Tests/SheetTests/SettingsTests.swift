import ShareCore
import Testing

/// `[Services] Pinned=` read and written over the user's settings file, every other line kept.
@Suite struct SettingsTests {
  @Test func pinnedKeepsItsOrderWithoutRepeats() {
    let settings = UserSettings(parsing: "[Services]\nPinned=b;a;b;\nHidden=x;\n")
    #expect(settings.pinnedServices == ["b", "a"])
    #expect(settings.hiddenServices == ["x"])
  }

  @Test func writtenOverNothingMakesTheGroup() {
    let settings = UserSettings(pinnedServices: ["org.a", "org.b"])
    #expect(settings.written(over: "") == "[Services]\nPinned=org.a;org.b;\n")
  }

  @Test func commentsOtherKeysAndGroupsStayAsWritten() {
    let text = """
      # my settings
      [General]
      Colour = blue  

      ; services I do not want
      [Services]
      Hidden=org.x;
      Other=1

      [Later]
      Key=Value
      """
    var settings = UserSettings(parsing: text)
    settings.pinnedServices = ["org.p"]
    let written = settings.written(over: text)
    #expect(
      written == """
        # my settings
        [General]
        Colour = blue  

        ; services I do not want
        [Services]
        Hidden=org.x;
        Other=1
        Pinned=org.p;

        [Later]
        Key=Value
        """)
    #expect(UserSettings(parsing: written) == settings)
  }

  @Test func anExistingKeyIsReplacedInPlace() {
    let text = "[Services]\nPinned=a;\nHidden=x;\n"
    let settings = UserSettings(hiddenServices: ["x"], pinnedServices: ["a", "b"])
    #expect(settings.written(over: text) == "[Services]\nPinned=a;b;\nHidden=x;\n")
  }

  @Test func unchangedSettingsLeaveTheTextAlone() {
    let text = "[Services]\nHidden = b;a;\nPinned=c;\n"
    #expect(UserSettings(parsing: text).written(over: text) == text)
  }

  @Test func hiddenServicesKeepTheirPlaceAndNewOnesFollowSorted() {
    let text = "[Services]\nHidden=zeta;alpha;\n"
    let settings = UserSettings(hiddenServices: ["alpha", "zeta", "mid", "beta"])
    #expect(settings.written(over: text) == "[Services]\nHidden=zeta;alpha;beta;mid;\n")
  }

  @Test func theLastPinGoneTakesTheKeyAway() {
    let text = "[Services]\nPinned=a;\nHidden=x;\n"
    #expect(UserSettings(hiddenServices: ["x"]).written(over: text) == "[Services]\nHidden=x;\n")
  }

  @Test func repeatedKeysAreWrittenOnce() {
    let text = "[Services]\nPinned=a;\nPinned=b;\n"
    #expect(UserSettings(pinnedServices: ["c"]).written(over: text) == "[Services]\nPinned=c;\n")
  }

  @Test func theGroupIsAddedAfterTheLastLineEvenWithoutItsLineEnd() {
    #expect(
      UserSettings(pinnedServices: ["a"]).written(over: "[Other]\nK=V")
        == "[Other]\nK=V\n\n[Services]\nPinned=a;\n")
    #expect(
      UserSettings(pinnedServices: ["a"]).written(over: "[Services]") == "[Services]\nPinned=a;\n")
  }

  @Test func windowsLineEndsStay() {
    let text = "[Services]\r\nHidden=x;\r\n"
    #expect(
      UserSettings(hiddenServices: ["x"], pinnedServices: ["a"]).written(over: text)
        == "[Services]\r\nHidden=x;\r\nPinned=a;\r\n")
  }

  @Test func theLastGroupOfTheNameIsTheOneEdited() {
    let text = "[Services]\nPinned=old;\n[Other]\nA=1\n[Services]\nHidden=x;\n"
    let settings = UserSettings(parsing: text)
    #expect(settings.pinnedServices.isEmpty)
    var changed = settings
    changed.pinnedServices = ["new"]
    #expect(
      changed.written(over: text)
        == "[Services]\nPinned=old;\n[Other]\nA=1\n[Services]\nHidden=x;\nPinned=new;\n")
  }

  @Test(arguments: [" leading space", "back\\slash", "two\nlines", "tab\there", "plain"])
  func valuesAreEscapedSoTheyReadBack(value: String) {
    let text = KeyFile.setting("Key", in: "Group", to: value, in: "# c\n")
    #expect(KeyFile(parsing: text).value("Key", in: "Group") == value)
    #expect(text.hasPrefix("# c\n"))
  }

  @Test func removingAMissingKeyChangesNothing() {
    let text = "[Services]\nHidden=x;\n"
    #expect(KeyFile.setting("Pinned", in: "Services", to: nil, in: text) == text)
    #expect(KeyFile.setting("Pinned", in: "Nowhere", to: nil, in: text) == text)
  }
}
