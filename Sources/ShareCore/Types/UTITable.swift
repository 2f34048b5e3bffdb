/// Uniform type identifiers: their hierarchy and how they map to MIME types.
///
/// The table carries Apple's public identifiers so that an iOS extension's rule, written against
/// `public.image` or `com.adobe.pdf`, means the same thing here.
public struct UTITable: Sendable {
  /// One identifier: what it conforms to and the MIME types that name the same content.
  public struct Entry: Sendable, Hashable {
    public var identifier: String
    public var conformsTo: [String]
    /// The MIME types, preferred first. Abstract identifiers (`public.image`) have none.
    public var mimeTypes: [String]

    public init(_ identifier: String, conformsTo: [String], mimeTypes: [String] = []) {
      // `lowercase` leaves lowercase ASCII as it is: the standard table, built by every process
      // that answers a type question, is all of that.
      self.identifier = lowercase(identifier)
      // The arrays themselves when nothing in them changes: no copy for the standard table.
      self.conformsTo = conformsTo.allSatisfy(isLowercase) ? conformsTo : conformsTo.map(lowercase)
      self.mimeTypes = mimeTypes.allSatisfy(isLowercase) ? mimeTypes : mimeTypes.map(lowercase)
    }
  }

  private var entries: [String: Entry] = [:]
  private var byMIMEType: [String: String] = [:]

  public init(entries: [Entry]) {
    self.entries.reserveCapacity(entries.count)
    byMIMEType.reserveCapacity(entries.count * 2)
    // The first entry for an identifier or a MIME type wins, for both lookups alike.
    for entry in entries where self.entries[entry.identifier] == nil {
      self.entries[entry.identifier] = entry
      for mime in entry.mimeTypes where byMIMEType[mime] == nil {
        byMIMEType[mime] = entry.identifier
      }
    }
  }

  /// The entry for a (lowercase) identifier.
  public func entry(_ identifier: String) -> Entry? { entries[lowercase(identifier)] }

  /// The identifier whose MIME types include `mimeType`.
  public func identifier(forMIMEType mimeType: String) -> String? { byMIMEType[lowercase(mimeType)] }

  /// Every identifier in the table, for tests and documentation.
  public var allIdentifiers: [String] { entries.keys.sorted() }
}
