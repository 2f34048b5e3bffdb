import FoundationEssentials
import ShareCore
import ShareHost

/// What the picker lists and in which order: pure, so that it is tested without a display.
struct PickerModel: Sendable {
  /// A service as listed.
  struct Row: Equatable, Sendable {
    var service: ShareService
    var isPinned: Bool
    var isHidden: Bool
  }

  /// Every service that accepts the selection, hidden ones included.
  let accepting: [ShareService]
  var settings: UserSettings
  let kinds: Set<ServiceRanking.Kind>
  let uses: [ServiceRanking.Use]
  let now: Date

  /// The services in the order to offer them; hidden ones only in edit mode.
  func rows(editing: Bool) -> [Row] {
    let ranking = ServiceRanking(pinned: settings.pinnedServices, uses: uses, now: now)
    let pinned = Set(settings.pinnedServices)
    return ranking.order(accepting, for: kinds).compactMap { service in
      let hidden = settings.hiddenServices.contains(service.id)
      guard editing || !hidden else { return nil }
      return Row(service: service, isPinned: pinned.contains(service.id), isHidden: hidden)
    }
  }

  /// The direct targets in the order to offer them: none when the user turned suggestions off.
  func targetRows(_ targets: [(service: ShareService, target: DirectTarget)]) -> [(
    service: ShareService, target: DirectTarget
  )] {
    guard settings.suggestions else { return [] }
    let ranking = ServiceRanking(pinned: settings.pinnedServices, uses: uses, now: now)
    return ranking.order(targets.filter { !settings.hiddenServices.contains($0.service.id) }, for: kinds)
  }

  /// Whether `service` is found by `query`: every word of it in the name or the identifier,
  /// ignoring case.
  static func matches(_ service: ShareService, query: String) -> Bool {
    let words = query.lowercased().split(whereSeparator: \.isWhitespace)
    guard !words.isEmpty else { return true }
    let name = service.name.lowercased()
    let id = service.id.lowercased()
    return words.allSatisfy { name.contains($0) || id.contains($0) }
  }

  /// Pins `id` last, or unpins it.
  static func togglePin(_ id: String, in settings: inout UserSettings) {
    if let index = settings.pinnedServices.firstIndex(of: id) {
      settings.pinnedServices.remove(at: index)
    } else {
      settings.pinnedServices.append(id)
    }
  }

  /// Hides `id`, or shows it again.
  static func toggleHidden(_ id: String, in settings: inout UserSettings) {
    if settings.hiddenServices.remove(id) == nil { settings.hiddenServices.insert(id) }
  }
}
