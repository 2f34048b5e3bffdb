/// An App Group: a folder that an application and its share extension both use, with a shared
/// key-value store in it (`defaults.json`).
///
/// The container of `group.ch.example.hoi` is `$XDG_DATA_HOME/xdg-share/groups/group.ch.example.hoi/`
/// (`~/.local/share/…` by default). `xdg-share group path GROUP` prints it for programs in any
/// language.
public struct ApplicationGroup: Hashable, Sendable {
  public let identifier: String

  /// `nil` unless `identifier` is `group.` followed by a reverse-DNS name.
  public init?(_ identifier: String) {
    let name = identifier.dropFirst("group.".count)
    guard identifier.hasPrefix("group."), !name.isEmpty, identifier.utf8.count <= 255,
      name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }),
      !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
    else { return nil }
    self.identifier = identifier
  }

  /// The container folder, given the environment (`XDG_DATA_HOME`, else `HOME`).
  public func containerPath(environment: [String: String]) -> String {
    String(decoding: containerLocation(environment: environment.mapValues { Array($0.utf8) }), as: UTF8.self)
  }

  /// The container folder as bytes, given the environment as bytes: an `XDG_DATA_HOME` or `HOME`
  /// that is not UTF-8 leads to the folder itself. In a service's sandbox, where `XDG_DATA_HOME`
  /// is its own container's, `XDG_SHARE_GROUPS_HOME` names the groups' folder as it is outside.
  public func containerLocation(environment: [String: [UInt8]]) -> [UInt8] {
    if let groups = environment["XDG_SHARE_GROUPS_HOME"], groups.first == UInt8(ascii: "/") {
      return groups + Array("/\(identifier)".utf8)
    }
    let dataHome =
      environment["XDG_DATA_HOME"].flatMap { $0.first == UInt8(ascii: "/") ? $0 : nil }
      ?? (environment["HOME"] ?? []) + Array("/.local/share".utf8)
    return dataHome + Array("/xdg-share/groups/\(identifier)".utf8)
  }

  /// The shared key-value store's file in the container: a JSON object.
  public func defaultsPath(environment: [String: String]) -> String {
    containerPath(environment: environment) + "/defaults.json"
  }
}
