import Foundation
import SharePOSIX
import Testing

@testable import ShareKit

@Suite("App Groups")
struct ShareGroupTests {
  private let folder: TemporaryFolder
  private let environment: [String: String]

  init() throws {
    folder = try TemporaryFolder()
    environment = ["HOME": "\(folder.path)/home", "XDG_DATA_HOME": "\(folder.path)/data"]
  }

  private func group(_ name: String = "group.ch.example.hoi", declared: String? = nil) throws -> ShareGroup {
    var environment = environment
    environment["XDG_SHARE_APPLICATION_GROUPS"] = declared
    return try ShareGroup(name, environment: environment)
  }

  @Test(
    "a malformed name is refused",
    arguments: ["ch.example.hoi", "group.", "group.ch..hoi", "group.ch/hoi", "Group.x"])
  func malformedName(name: String) throws {
    let error = #expect(throws: ShareError.self) { try group(name) }
    #expect(error?.code == 4)
    #expect(error?.message.contains("is not an App Group name") == true)
  }

  @Test("under the host, only declared groups may be used")
  func declaredGroups() throws {
    #expect(
      try group(declared: "group.ch.example.other:group.ch.example.hoi").identifier == "group.ch.example.hoi")
    for declared in ["", "group.ch.example.other", "group.ch.example.hoi.more"] {
      let error = #expect(throws: ShareError.self) { try group(declared: declared) }
      #expect(
        error?.message
          == "this share extension does not declare the App Group group.ch.example.hoi; list it under XDGShareApplicationGroups in its Info.plist"
      )
    }
    // Outside the host (a test, the containing application) any well-formed group will do.
    #expect(try group(declared: nil).identifier == "group.ch.example.hoi")
  }

  @Test("the container is made on first use, for this user only")
  func container() throws {
    let group = try group()
    let path = "\(folder.path)/data/xdg-share/groups/group.ch.example.hoi"
    #expect(!FileManager.default.fileExists(atPath: path))
    #expect(group.containerURL.path == path)
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    #expect(group.defaults.fileURL.path == path + "/defaults.json")
  }

  @Test("a container under a data folder that is not UTF-8 is made there and its store works")
  func containerNotUTF8() throws {
    let data = Array("\(folder.path)/data-".utf8) + [0xFF]
    let lossy = String(decoding: data, as: UTF8.self)
    let group = try ShareGroup(
      "group.ch.example.hoi", environment: ["HOME": "\(folder.path)/home", "XDG_DATA_HOME": lossy],
      inherited: ["XDG_DATA_HOME": data])
    let url = group.containerURL
    #expect(url.absoluteString.hasSuffix("/data-%FF/xdg-share/groups/group.ch.example.hoi"))
    try group.defaults.set("Jana", forKey: "name")
    #expect(group.defaults.string(forKey: "name") == "Jana")
    // The store is in the folder the bytes name, and nothing was made under the decoded name.
    let container = String(decoding: data, as: UTF8.self)
    #expect(!FileManager.default.fileExists(atPath: container))
    let store = data + Array("/xdg-share/groups/group.ch.example.hoi/defaults.json".utf8)
    #expect(try FileSystem.status(store).kind == .regular)
    #expect(try FileSystem.status(Array(store.dropLast("/defaults.json".utf8.count))).permissions == 0o700)
    #expect(
      group.defaults.fileURL.absoluteString.hasSuffix(
        "/data-%FF/xdg-share/groups/group.ch.example.hoi/defaults.json"))
  }

  @Test("values round-trip through defaults.json, a JSON object any program can read")
  func defaultsRoundTrip() throws {
    let defaults = try group().defaults
    #expect(defaults.value(forKey: "name") == nil)
    #expect(defaults.dictionaryRepresentation().isEmpty)
    try defaults.set("Jana", forKey: "name")
    try defaults.set(3, forKey: "count")
    try defaults.set(0.5, forKey: "ratio")
    try defaults.set(true, forKey: "enabled")
    try defaults.set(.object(["a": .array([.null, .string("b/c")])]), forKey: "nested")
    #expect(defaults.string(forKey: "name") == "Jana")
    #expect(defaults.integer(forKey: "count") == 3)
    #expect(defaults.double(forKey: "ratio") == 0.5)
    #expect(defaults.integer(forKey: "ratio") == nil)
    #expect(defaults.bool(forKey: "enabled") == true)
    #expect(defaults.string(forKey: "count") == nil)
    #expect(defaults.value(forKey: "nested") == .object(["a": .array([.null, .string("b/c")])]))

    try defaults.removeObject(forKey: "ratio")
    try defaults.set(nil, forKey: "enabled")
    #expect(defaults.value(forKey: "ratio") == nil)
    let text = try String(contentsOf: defaults.fileURL, encoding: .utf8)
    #expect(
      text == """
        {
          "count" : 3,
          "name" : "Jana",
          "nested" : {
            "a" : [
              null,
              "b/c"
            ]
          }
        }

        """)
    let attributes = try FileManager.default.attributesOfItem(atPath: defaults.fileURL.path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    // Nothing is left behind but the store and its lock file.
    let names = try FileManager.default.contentsOfDirectory(
      atPath: defaults.fileURL.deletingLastPathComponent().path)
    #expect(names.sorted() == ["defaults.json", "defaults.json.lock"])
  }

  @Test("a store that is no JSON object is left alone")
  func corruptStore() throws {
    let group = try group()
    let file = group.defaults.fileURL
    _ = group.containerURL
    try Data("[1, 2]".utf8).write(to: file)
    #expect(group.defaults.value(forKey: "a") == nil)
    let error = #expect(throws: ShareError.self) { try group.defaults.set("b", forKey: "a") }
    #expect(error?.code == 5)
    #expect(try String(contentsOf: file, encoding: .utf8) == "[1, 2]")
  }

  @Test("concurrent writers lose no keys and no increments")
  func concurrentTasks() async throws {
    let defaults = try group().defaults
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      for writer in 0..<8 {
        tasks.addTask {
          for index in 0..<20 {
            try defaults.set(.number(Double(index)), forKey: "w\(writer)-\(index)")
            try defaults.update { values in
              let count = if case .number(let count)? = values["count"] { count } else { 0.0 }
              values["count"] = .number(count + 1)
            }
          }
        }
      }
      try await tasks.waitForAll()
    }
    let values = defaults.dictionaryRepresentation()
    #expect(values.count == 8 * 20 + 1)
    #expect(defaults.integer(forKey: "count") == 8 * 20)
  }

  @Test(
    "a Python program following the documented protocol and Swift write at once",
    .enabled(if: pythonPath != nil, "needs python3"))
  func crossLanguageWriters() async throws {
    let defaults = try group().defaults
    let container = defaults.fileURL.deletingLastPathComponent().path
    _ = try group().containerURL
    let script = """
      import fcntl, json, os, sys
      container = sys.argv[1]
      for index in range(40):
          with open(os.path.join(container, "defaults.json.lock"), "a") as lock:
              fcntl.flock(lock, fcntl.LOCK_EX)
              path = os.path.join(container, "defaults.json")
              try:
                  with open(path, encoding="utf-8") as file:
                      values = json.load(file)
              except FileNotFoundError:
                  values = {}
              values[f"python-{index}"] = index
              values["count"] = values.get("count", 0) + 1
              temporary = os.path.join(container, f".defaults.json.py.{os.getpid()}")
              with open(temporary, "w", encoding="utf-8") as file:
                  json.dump(values, file)
              os.replace(temporary, path)
      """
    let python = Process()
    python.executableURL = URL(fileURLWithPath: try #require(pythonPath))
    python.arguments = ["-c", script, container]
    try python.run()
    for index in 0..<40 {
      try defaults.set(index, forKey: "swift-\(index)")
      try defaults.update { values in
        let count = if case .number(let count)? = values["count"] { count } else { 0.0 }
        values["count"] = .number(count + 1)
      }
    }
    python.waitUntilExit()
    #expect(python.terminationStatus == 0)
    let values = defaults.dictionaryRepresentation()
    #expect(values.count == 81)
    #expect(defaults.integer(forKey: "count") == 80)
    #expect(values["python-39"] == .number(39))
  }
}

/// `python3` on `PATH`, for the tests that run Python.
let pythonPath: String? = {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/python3" }.first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
}()
