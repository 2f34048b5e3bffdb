public import ShareCore

/// A ``RequirementChecker`` whose desktop has exactly the programs and bus names it is given: no
/// `PATH` search, no session bus.
///
/// ```swift
/// let desktop = FixedRequirements(programs: ["xclip"], busNames: ["org.kde.kdeconnect"])
/// #expect(desktop.satisfies(Requirements(programs: ["wl-copy|xclip"])))
/// #expect(desktop.unmet(Requirements(programs: ["qrencode"])) == ["qrencode"])
/// ```
///
/// The contract:
/// - ``isProgramAvailable(_:)`` is true exactly for the names in ``programs``, and
///   ``isBusNameAvailable(_:)`` exactly for those in ``busNames``; names are compared as they are
///   written, case and all.
/// - It is asked about single names: `RequirementChecker.unmet(_:)` splits a list of
///   alternatives (`wl-copy|xclip`) before asking, so an alternative is met when any one of its
///   programs is in ``programs``. A name holding `|` itself is only available if listed so.
/// - The answers never change: the same value answers the same on every call and every thread.
public struct FixedRequirements: RequirementChecker, Equatable {
  /// The programs this desktop has (as a `PATH` search would find them).
  public var programs: Set<String>
  /// The bus names owned or activatable on this desktop's session bus.
  public var busNames: Set<String>

  /// A desktop with `programs` and `busNames`, and nothing else.
  public init(programs: Set<String> = [], busNames: Set<String> = []) {
    self.programs = programs
    self.busNames = busNames
  }

  /// Whether `name` is in ``programs``.
  public func isProgramAvailable(_ name: String) -> Bool {
    programs.contains(name)
  }

  /// Whether `name` is in ``busNames``.
  public func isBusNameAvailable(_ name: String) -> Bool {
    busNames.contains(name)
  }
}
