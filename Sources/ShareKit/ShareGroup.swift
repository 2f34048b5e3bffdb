public import FoundationEssentials
internal import ShareCore
public import ShareProtocol

/// An App Group: a folder that a share extension and its containing application both use, with a
/// shared key-value store in it.
///
/// The container of `group.ch.example.hoi` is
/// `$XDG_DATA_HOME/xdg-share/groups/group.ch.example.hoi/` (`~/.local/share/…` by default); a
/// program in any language finds it with `xdg-share group path group.ch.example.hoi`. An
/// extension may use only the groups its `Info.plist` lists under `XDGShareApplicationGroups`:
///
/// ```swift
/// let group = try ShareGroup("group.ch.example.hoi")
/// try group.defaults.set("Jana", forKey: "lastRecipient")
/// let inbox = group.containerURL.appendingPathComponent("inbox")
/// ```
public struct ShareGroup: Sendable {
  /// The group's name, `group.` followed by a reverse-DNS name.
  public let identifier: String
  /// The container, byte for byte (under a `HOME` that need not be UTF-8).
  private let location: FilePath

  /// The group `identifier`.
  ///
  /// - Throws: ``ShareError/applicationGroup(_:)`` when the name is malformed or, when running
  ///   under the host (`XDG_SHARE_APPLICATION_GROUPS` is set), the bundle does not declare it.
  public init(_ identifier: String) throws {
    try self.init(identifier, environment: ProcessInfo.processInfo.environment)
  }

  /// - Parameter inherited: the process's environment as bytes, from which a value that
  ///   `ProcessInfo` decoded lossily is taken back.
  init(
    _ identifier: String, environment: [String: String],
    inherited: [String: [UInt8]] = SystemCalls.environmentBytes
  ) throws {
    guard let group = ApplicationGroup(identifier) else {
      throw ShareError.applicationGroup(
        "'\(identifier)' is not an App Group name; expected group.<reverse-DNS name>, e.g. group.ch.example.hoi"
      )
    }
    if let declared = environment["XDG_SHARE_APPLICATION_GROUPS"],
      !declared.split(separator: ":").contains(Substring(identifier))
    {
      throw ShareError.applicationGroup(
        "this share extension does not declare the App Group \(identifier); "
          + "list it under XDGShareApplicationGroups in its Info.plist")
    }
    self.identifier = identifier
    location = FilePath(
      bytes: group.containerLocation(
        environment: SystemCalls.environmentBytes(restoring: environment, inherited: inherited)))
  }

  /// The group's folder, created (mode 0700) when it does not exist yet. A folder whose path is
  /// not UTF-8 is given as a `file://` URL that keeps its bytes percent-encoded (`h%F6me`).
  public var containerURL: URL {
    try? Self.ensureContainer(location)
    return Self.url(of: location, isDirectory: true)
  }

  /// The key-value store shared with the containing application: `defaults.json` in the container.
  public var defaults: SharedDefaults {
    SharedDefaults(container: location)
  }

  /// `path` as a URL: by its text when it is UTF-8, as before; otherwise from its `file://` URL.
  static func url(of path: FilePath, isDirectory: Bool) -> URL {
    if let text = path.string { return URL(fileURLWithPath: text, isDirectory: isDirectory) }
    return URL(string: path.fileURL) ?? URL(fileURLWithPath: path.text, isDirectory: isDirectory)
  }
}

/// A key-value store shared by an extension and its containing application, in any language: the
/// JSON object in `<container>/defaults.json`.
///
/// Reading needs no lock: the file is only ever replaced whole. Every change is a
/// read-modify-write under an exclusive `flock(2)` on `<container>/defaults.json.lock`, written to
/// a temporary file in the container and renamed over `defaults.json`. Programs in other languages
/// that write the store do the same, so no writer loses another's keys. In Python:
///
/// ```python
/// with open(f"{container}/defaults.json.lock", "a") as lock:
///     fcntl.flock(lock, fcntl.LOCK_EX)
///     # read defaults.json, change it, write a temporary file, os.replace() it
/// ```
public struct SharedDefaults: Sendable {
  /// `defaults.json` in the container.
  public let fileURL: URL
  private let container: FilePath

  init(container: FilePath) {
    self.container = container
    fileURL = ShareGroup.url(of: container.appending("defaults.json"), isDirectory: false)
  }

  private var file: FilePath { container.appending("defaults.json") }
  private var lockFile: FilePath { container.appending("defaults.json.lock") }

  // MARK: Reading

  /// Every key and value; empty when the store does not exist or cannot be read.
  public func dictionaryRepresentation() -> [String: JSONValue] {
    (try? read()) ?? [:]
  }

  /// The value for `key`, or `nil`.
  public func value(forKey key: String) -> JSONValue? {
    dictionaryRepresentation()[key]
  }

  /// The string for `key`, or `nil` when there is none or the value is no string.
  public func string(forKey key: String) -> String? {
    if case .string(let value)? = value(forKey: key) { value } else { nil }
  }

  /// The number for `key`, or `nil` when there is none or the value is no number.
  public func double(forKey key: String) -> Double? {
    if case .number(let value)? = value(forKey: key) { value } else { nil }
  }

  /// The number for `key` as an integer, or `nil` when there is none or it is no whole number.
  public func integer(forKey key: String) -> Int? {
    double(forKey: key).flatMap { Int(exactly: $0) }
  }

  /// The Boolean for `key`, or `nil` when there is none or the value is no Boolean.
  public func bool(forKey key: String) -> Bool? {
    if case .bool(let value)? = value(forKey: key) { value } else { nil }
  }

  // MARK: Writing

  /// Sets `value` for `key`; `nil` removes the key.
  ///
  /// - Throws: ``ShareError/storage(_:)`` when the store cannot be read, locked or written.
  public func set(_ value: JSONValue?, forKey key: String) throws {
    try update { $0[key] = value }
  }

  /// Sets a string for `key`.
  public func set(_ value: String, forKey key: String) throws {
    try set(.string(value), forKey: key)
  }

  /// Sets a number for `key`.
  public func set(_ value: Double, forKey key: String) throws {
    try set(.number(value), forKey: key)
  }

  /// Sets a whole number for `key`.
  public func set(_ value: Int, forKey key: String) throws {
    try set(.number(Double(value)), forKey: key)
  }

  /// Sets a Boolean for `key`.
  public func set(_ value: Bool, forKey key: String) throws {
    try set(.bool(value), forKey: key)
  }

  /// Removes `key`.
  public func removeObject(forKey key: String) throws {
    try set(nil, forKey: key)
  }

  /// Changes several keys in one step, or one key from its old value (a counter), while every
  /// other writer waits: `try defaults.update { $0["count"] = .number(count + 1) }`.
  ///
  /// - Returns: what `body` returns.
  /// - Throws: ``ShareError/storage(_:)`` when the store cannot be read, locked or written; or
  ///   what `body` throws, in which case nothing is written.
  @discardableResult
  public func update<Result>(_ body: (inout [String: JSONValue]) throws -> Result) throws -> Result {
    try ShareGroup.ensureContainer(container)
    return try SystemCalls.withExclusiveLock(onFile: lockFile) {
      let before = try read()
      var values = before
      let result = try body(&values)
      if values != before { try write(values) }
      return result
    }
  }

  // MARK: The file

  /// The store's contents; empty when the file does not exist.
  private func read() throws -> [String: JSONValue] {
    guard let data = try SystemCalls.contents(of: file) else { return [:] }
    if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [:] }
    do {
      return try JSONDecoder().decode([String: JSONValue].self, from: Data(data))
    } catch {
      throw ShareError.storage("\(file.text) is not a JSON object; it is left as it is")
    }
  }

  private func write(_ values: [String: JSONValue]) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let data: Data
    do {
      data = try encoder.encode(values) + Data("\n".utf8)
    } catch {
      throw ShareError.storage(
        "cannot encode the values for \(file.text): \(FoundationErrors.localizedDescription(of: error))")
    }
    let temporary = container.appending(
      ".defaults.json.\(ProcessInfo.processInfo.processIdentifier).\(UUID().uuidString)")
    guard SystemCalls.createFile(temporary, contents: Array(data), mode: 0o600) else {
      SystemCalls.remove(temporary)
      throw ShareError.storage("cannot write \(temporary.text)")
    }
    do {
      try SystemCalls.replace(file, with: temporary)
    } catch {
      SystemCalls.remove(temporary)
      throw error
    }
  }
}

extension ShareGroup {
  /// Creates a container folder (mode 0700) when it is missing.
  static func ensureContainer(_ location: FilePath) throws {
    // A path that is not UTF-8 is made by bytes; a UTF-8 one as it always was.
    guard let path = location.string else {
      try SystemCalls.makeDirectories(location, mode: 0o700)
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw ShareError.storage(
        "cannot create the App Group folder \(path): \(FoundationErrors.localizedDescription(of: error))")
    }
  }
}
