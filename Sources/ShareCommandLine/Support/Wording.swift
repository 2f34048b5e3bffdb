import ShareCore

/// Wording of runtime problems the command line reports (bundle problems: ``Diagnostics``).
enum Wording {
  static func describe(_ problem: FileProblem) -> String {
    let reason =
      switch problem.reason {
      case .notFound: "no such file or directory"
      case .permissionDenied: "permission denied"
      case .other(let message): message
      }
    return "\(problem.path.displayString): \(reason)"
  }
}
