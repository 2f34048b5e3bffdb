// TEMPORARY until the predicate parser lands.
public indirect enum Predicate: Sendable, Equatable { case truePredicate
  public func evaluate(_ selection: ActivationSelection) -> Bool { true } }
public enum PredicateParser { public static func parse(_ source: String) throws(PredicateSyntaxError) -> Predicate { .truePredicate } }
public struct PredicateSyntaxError: Error, Hashable, Sendable { public var message: String { "" } }
