import Foundation
import ShareKit

/// The Hoi app's side of the App Group, as a command: keeps the friends list the share extension
/// shows, in the group's shared defaults (key `HoiFriends`, an array of names), as the iOS app did
/// with `[extensionUserDefaults setObject:self.friends forKey:@"HoiFriends"]`.
///
///     hoi-friends add NAME…      add friends (a name already there is kept once)
///     hoi-friends remove NAME…   remove friends
///     hoi-friends list           print the friends, one a line
@main
enum HoiFriends {
  static let usage = "usage: hoi-friends add NAME… | remove NAME… | list"

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let command = arguments.first ?? ""
    let names = Array(arguments.dropFirst())
    switch command {
    case "add", "remove": if names.isEmpty { fail(usage, status: 2) }
    case "list": if !names.isEmpty { fail(usage, status: 2) }
    default: fail(usage, status: 2)
    }
    do {
      // iOS: [[NSUserDefaults alloc] initWithSuiteName:@"group.ch.iphonso.hoi"]
      let defaults = try ShareGroup("group.ch.iphonso.hoi").defaults
      // Read, change and write under the store's lock, so the extension never sees half a list.
      let friends = try defaults.update { values in
        var friends: [String] = []
        if case .array(let stored)? = values["HoiFriends"] {
          friends = stored.compactMap { if case .string(let name) = $0 { name } else { nil } }
        }
        switch command {
        case "add": for name in names where !friends.contains(name) { friends.append(name) }
        case "remove": friends.removeAll { names.contains($0) }
        default: return friends
        }
        values["HoiFriends"] = .array(friends.map { .string($0) })
        return friends
      }
      if command == "list" {
        for friend in friends { print(friend) }
      }
    } catch {
      fail("hoi-friends: \(error)", status: 1)
    }
  }

  static func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
  }
}
