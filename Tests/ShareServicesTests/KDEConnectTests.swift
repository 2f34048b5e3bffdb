import Foundation
import ShareTestSupport
import Testing

/// Send via KDE Connect, with a stand-in kdeconnect-cli that lists the devices a test gives it.
@Suite struct KDEConnectTests {
  let desktop: TemporaryDesktop
  let fakes: FakePrograms
  let id = ServiceBundles.kdeConnect

  init() throws {
    desktop = try TemporaryDesktop()
    fakes = try FakePrograms(desktop: desktop)
    try desktop.installServices([id])
  }

  /// A kdeconnect-cli whose `--list-available --id-name-only` prints `devices`, one per line.
  func installCLI(devices: [String], shareStatus: Int = 0) throws {
    try fakes.install(
      "kdeconnect-cli",
      body: """
        case "$1" in
          --list-available) printf '%s' '\(devices.map { $0 + "\n" }.joined())' ;;
          *) [ \(shareStatus) -eq 0 ] || { echo "error: device went away" >&2; exit \(shareStatus); } ;;
        esac
        """)
  }

  func configure(device: String) throws {
    try FileManager.default.createDirectory(
      atPath: "\(desktop.root)/config/xdg-share", withIntermediateDirectories: true)
    try "[KDE Connect]\nDevice=\(device)\n".write(
      toFile: "\(desktop.root)/config/xdg-share/kdeconnect.ini", atomically: true, encoding: .utf8)
  }

  func run(_ attachments: [RequestAttachment]) throws -> ServiceRun {
    try ServiceRunner.run(id, attachments, on: desktop, environment: ["PATH": fakes.path])
  }

  @Test func filesLinksAndTextsGoToTheOnlyDevice() throws {
    try installCLI(devices: ["a1b2c3 Pixel 7"])
    let paths = try HostileNames.write(on: desktop)
    let run = try run(
      paths.map { .file($0) } + [.link("https://example.org/x?y=1"), .text("-n hello $(id)\nbye")])
    #expect(run.completed, "\(run.cancelMessage ?? run.standardError)")
    #expect(fakes.callCount("kdeconnect-cli") == paths.count + 3)
    #expect(
      try fakes.arguments("kdeconnect-cli", call: 1)
        == ["--list-available", "--id-name-only"].map { Array($0.utf8) })
    for (index, path) in paths.enumerated() {
      #expect(
        try fakes.arguments("kdeconnect-cli", call: index + 2)
          == [Array("--device=a1b2c3".utf8), Array("--share=".utf8) + path])
    }
    #expect(
      try fakes.arguments("kdeconnect-cli", call: paths.count + 2)
        == ["--device=a1b2c3", "--share=https://example.org/x?y=1"].map { Array($0.utf8) })
    #expect(
      try fakes.arguments("kdeconnect-cli", call: paths.count + 3)
        == ["--device=a1b2c3", "--share-text=-n hello $(id)\nbye"].map { Array($0.utf8) })
    #expect(run.progress.contains { $0.message == "Sending the text to Pixel 7" })
    #expect(!FileManager.default.fileExists(atPath: "\(desktop.files)/pwned"))
  }

  @Test func theConfiguredDeviceIsChosenAmongSeveral() throws {
    try installCLI(devices: ["a1 Pixel 7", "b2 Laptop"])
    try configure(device: "laptop")
    let run = try run([.text("hi")])
    #expect(run.completed)
    #expect(
      try fakes.arguments("kdeconnect-cli", call: 2)
        == ["--device=b2", "--share-text=hi"].map { Array($0.utf8) })
  }

  @Test func noReachableDeviceIsAClearMessage() throws {
    try installCLI(devices: [])
    #expect(
      try run([.text("hi")]).cancelMessage
        == "No phone or computer is reachable through KDE Connect: check that one is paired and on the same network"
    )
    try installCLI(devices: ["a1 Pixel 7", "b2 Laptop"])
    #expect(
      try run([.text("hi")]).cancelMessage
        == "Several devices are reachable (Pixel 7, Laptop): choose one with Device= in \(desktop.root)/config/xdg-share/kdeconnect.ini"
    )
    try configure(device: "Tablet")
    #expect(
      try run([.text("hi")]).cancelMessage
        == "Tablet is not reachable through KDE Connect: check that it is on, paired and on the same network")
  }

  @Test func aFailedTransferSaysWhatFailed() throws {
    try installCLI(devices: ["a1 Pixel 7"], shareStatus: 1)
    let file = try desktop.writeFile(named: "photo.jpg", contents: "x")
    #expect(
      try run([.file(file)]).cancelMessage
        == "KDE Connect could not send photo.jpg to Pixel 7: error: device went away")
  }
}
