import Foundation
import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// The D-Bus service watches folders that do not exist yet through their nearest existing
/// parent: for the entry that leads to them, never for every file written beside it (a home
/// folder changes all the time, and each reload reads every bundle).
@Suite struct FolderWatchTests {
  /// A reload is seen by a service that becomes available without any watched folder changing:
  /// its required program appears in a `PATH` folder no one watches, so only a reload finds it,
  /// and `ServicesChanged` says one happened.
  @Test func filesWrittenBesideAFolderNotMadeYetReloadNothing() throws {
    let desktop = try TemporaryDesktop()
    let bus = try desktop.startBus()
    let home = "\(desktop.root)/home"
    let bin = "\(desktop.root)/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try BundleFixture(
      id: "com.example.late", name: "Late",
      ruleXML: BundleFixture.activationDictionary([("SupportsText", "<true/>")]),
      extraXML: "<key>XDGShareRequiredPrograms</key><array><string>late-tool</string></array>"
    ).write(into: desktop.systemExtensions)
    // The settings, the direct targets and the user's bundles are all in folders not made yet.
    let daemon = try desktop.startDaemon(environment: [
      "XDG_CONFIG_HOME": "\(home)/.config", "XDG_STATE_HOME": "\(home)/.local/state",
      "XDG_DATA_HOME": "\(home)/.local/share", "PATH": "\(bin):/usr/bin:/bin",
    ])
    defer {
      daemon.signal(Signal.terminate)
      _ = daemon.wait()
    }
    let client = try BusConnection.connect(address: bus.address)
    try client.addMatch("type='signal',interface='org.xdgshare.Share1',member='ServicesChanged'")
    func servicesChanged(within seconds: Double) -> Bool {
      client.waitForMessage(timeout: seconds) { $0.member == "ServicesChanged" } != nil
    }

    try "#!/bin/sh\n".write(toFile: "\(bin)/late-tool", atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(bin)/late-tool")
    // What a desktop writes in a home folder all day long.
    for turn in 0..<20 {
      try "\(turn)\n".write(toFile: "\(home)/.bash_history", atomically: true, encoding: .utf8)
      try "\(turn)\n".write(toFile: "\(home)/recently-used-\(turn).xbel", atomically: false, encoding: .utf8)
      Thread.sleep(forTimeInterval: 0.02)
    }
    #expect(!servicesChanged(within: 1.5), "a file beside a folder not made yet reloaded the services")

    // The entry that leads to the missing folders is still noticed.
    try FileManager.default.createDirectory(atPath: "\(home)/.local", withIntermediateDirectories: false)
    #expect(servicesChanged(within: 5), "making ~/.local reloaded nothing")
  }
}
