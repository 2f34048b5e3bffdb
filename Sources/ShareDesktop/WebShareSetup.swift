/// What the browsers' manifests of the Web Share host need: the host program, and whose browsers.
public struct WebShareSetup: Equatable, Sendable {
  public var program: String
  public var scope: FileManagerIntegration.Scope

  public init(program: String, scope: FileManagerIntegration.Scope) {
    self.program = program
    self.scope = scope
  }
}

extension FileManagerIntegration {
  /// The Web Share host that belongs to the xdg-share at `executable`, for the browsers' manifests
  /// of `scope`; nil when it is not there.
  public static func webShareSetup(executable: String, scope: Scope) -> WebShareSetup? {
    helperProgram(NativeMessagingHosts.program, besides: executable).map {
      WebShareSetup(program: $0, scope: scope)
    }
  }
}
