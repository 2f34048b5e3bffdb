internal import CSecret

/// A schema: the name stored with each password and the string attributes it is found by.
public struct KeyringSchema: Hashable, Sendable {
  /// The schema's name, e.g. `org.xdgshare.Configuration`; libsecret stores it as `xdg:schema`
  /// and only finds passwords stored under the same name.
  public var name: String
  /// The attributes' names; every attribute is a string.
  public var attributes: [String]

  public init(name: String, attributes: [String]) {
    self.name = name
    self.attributes = attributes
  }

  /// The services' configuration passwords: `service` is the service's identifier
  /// (`org.xdgshare.webdav`), `item` the configuration item's `Identifier` (`password`).
  public static let configuration = KeyringSchema(
    name: "org.xdgshare.Configuration", attributes: ["service", "item"])
}

/// The desktop's keyring, through the Secret Service (gnome-keyring, KWallet, KeePassXC) on the
/// session bus: passwords stored, looked up and cleared by their attributes.
///
/// Every call is synchronous: it blocks until the keyring answers, which takes a prompt's time
/// when the keyring is locked. A password crosses into C only for the call and is wiped from
/// libsecret's memory afterwards.
public struct Keyring: Sendable {
  public let schema: KeyringSchema

  public init(schema: KeyringSchema = .configuration) {
    self.schema = schema
  }

  /// The password stored under `attributes`, or `nil` when there is none.
  ///
  /// - Throws: ``KeyringError`` when the keyring cannot be asked.
  public func password(for attributes: [String: String]) throws(KeyringError) -> String? {
    try validate(attributes)
    return try withSchema { schema throws(KeyringError) in
      try withAttributes(attributes) { table throws(KeyringError) in
        let found = try withGError { error in secret_password_lookupv_sync(schema, table, nil, error) }
        guard let found else { return nil }
        defer { secret_password_free(found) }
        return String(cString: found)
      }
    }
  }

  /// Stores `password` under `attributes` in the default keyring, replacing a password stored
  /// under the same attributes. `label` is what a keyring manager (Seahorse) shows.
  ///
  /// - Throws: ``KeyringError`` when the keyring cannot store it.
  public func store(_ password: String, label: String, for attributes: [String: String]) throws(KeyringError)
  {
    try validate(attributes)
    guard !password.utf8.contains(0) else { throw .containsNUL(field: "password") }
    guard !label.utf8.contains(0) else { throw .containsNUL(field: "label") }
    try withSchema { schema throws(KeyringError) in
      try withAttributes(attributes) { table throws(KeyringError) in
        _ = try withGError { error in
          label.withCString { label in
            password.withCString { password in
              secret_password_storev_sync(schema, table, nil, label, password, nil, error)
            }
          }
        }
      }
    }
  }

  /// Removes every password stored under `attributes`; returns whether there was one.
  ///
  /// - Throws: ``KeyringError`` when the keyring cannot be asked.
  @discardableResult
  public func clear(_ attributes: [String: String]) throws(KeyringError) -> Bool {
    try validate(attributes)
    return try withSchema { schema throws(KeyringError) in
      try withAttributes(attributes) { table throws(KeyringError) in
        try withGError { error in secret_password_clearv_sync(schema, table, nil, error) } != 0
      }
    }
  }

  /// libsecret only warns on standard error about an attribute its schema lacks, and then fails
  /// without a `GError`: refuse it here, with a reason.
  private func validate(_ attributes: [String: String]) throws(KeyringError) {
    for (name, value) in attributes {
      guard schema.attributes.contains(name) else {
        throw .unknownAttribute(name: name, schema: schema.name)
      }
      guard !name.utf8.contains(0), !value.utf8.contains(0) else {
        throw .containsNUL(field: "attribute \(name)")
      }
    }
  }

  private func withSchema<T>(_ body: (UnsafePointer<CSecret.SecretSchema>) throws(KeyringError) -> T)
    throws(KeyringError)
    -> T
  {
    let names = schema.attributes.map { g_strdup($0) }
    defer { names.forEach { g_free($0) } }
    let made = schema.name.withCString { name in
      names.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
        xs_string_schema_new(name, buffer.baseAddress, UInt32(buffer.count))
      }
    }
    guard let made else { throw .failed(domain: "libsecret", code: 0, message: "cannot make the schema") }
    defer { secret_schema_unref(made) }
    return try body(made)
  }

  private func withAttributes<T>(
    _ attributes: [String: String], _ body: (OpaquePointer) throws(KeyringError) -> T
  ) throws(KeyringError) -> T {
    guard let table = xs_string_table_new() else {
      throw .failed(domain: "glib", code: 0, message: "cannot make the attributes' table")
    }
    defer { g_hash_table_unref(table) }
    for (name, value) in attributes {
      name.withCString { name in value.withCString { value in xs_string_table_insert(table, name, value) } }
    }
    return try body(table)
  }
}
