import Foundation
import SharePOSIX

/// This repository as a plugin author's package depends on it, by version: a clone of its
/// committed HEAD with a version tag on it, reached through a `file://` URL, offline (as
/// `Tests/Scripts/depend-by-version.sh` does). Tagging the clone leaves the repository's own tags
/// alone; uncommitted changes are not in the clone.
public enum TaggedClone {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The repository's root, from this file's place in it.
  public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path

  /// Clones the repository into `destination` and tags its HEAD `tag` there; returns the clone's
  /// `file://` URL.
  @discardableResult
  public static func make(at destination: String, tag: String, environment: [String: String]) throws -> String
  {
    try git(["clone", "--quiet", "--no-hardlinks", repository, destination], environment: environment)
    try git(
      [
        "-C", destination, "-c", "user.name=test", "-c", "user.email=test@localhost", "tag", "--no-sign",
        "-f", tag,
      ],
      environment: environment)
    return "file://"
      + (destination.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? destination)
  }

  private static func git(_ arguments: [String], environment: [String: String]) throws {
    let path = (environment["PATH"] ?? "") + ":/usr/bin:/bin"
    guard
      let git = path.split(separator: ":").map({ "\($0)/git" }).first(
        where: FileManager.default.isExecutableFile)
    else { throw Failure(description: "git is not installed") }
    let run = try CapturedRun.run(([git] + arguments).map { Array($0.utf8) }, environment: environment)
    guard run.status == 0 else {
      throw Failure(
        description:
          "git \(arguments.joined(separator: " ")): \(String(decoding: run.standardError, as: UTF8.self))")
    }
  }
}
