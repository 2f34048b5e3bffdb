import Foundation
import ShareCore
import Testing

@testable import ShareHost

/// The order of the picker: pinned, then frecency for this kind of content, then name.
@Suite struct RankingTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let image: Set<ServiceRanking.Kind> = [.image]

  func service(_ id: String, _ name: String) -> ShareService {
    ShareService(
      id: id, name: name, bundlePath: "/x/\(id).shareext", executablePath: "/x/\(id).shareext/share",
      rule: .dictionary(DictionaryRule()))
  }

  func use(_ id: String, _ kinds: Set<ServiceRanking.Kind>, daysAgo: Double, completed: Bool = true)
    -> ServiceRanking.Use
  {
    ServiceRanking.Use(
      serviceID: id, kinds: kinds, date: now.addingTimeInterval(-daysAgo * 86_400), completed: completed)
  }

  func order(_ ranking: ServiceRanking, _ services: [ShareService], _ kinds: Set<ServiceRanking.Kind>)
    -> [String]
  {
    ranking.order(services, for: kinds).map(\.id)
  }

  var services: [ShareService] {
    [service("a", "alpha"), service("b", "Bravo"), service("c", "charlie"), service("d", "Delta")]
  }

  @Test func withoutPinsOrHistoryByNameIgnoringCase() {
    let ranking = ServiceRanking(pinned: [], uses: [], now: now)
    #expect(order(ranking, services.reversed(), image) == ["a", "b", "c", "d"])
  }

  @Test func equalNamesAreOrderedByIdentifier() {
    let ranking = ServiceRanking(pinned: [], uses: [], now: now)
    #expect(order(ranking, [service("z", "Same"), service("m", "same")], image) == ["m", "z"])
  }

  @Test func pinnedComeFirstInPinOrderAndUnknownPinsAreIgnored() {
    let ranking = ServiceRanking(
      pinned: ["gone", "d", "b"], uses: [use("a", image, daysAgo: 0), use("a", image, daysAgo: 0)], now: now)
    #expect(order(ranking, services, image) == ["d", "b", "a", "c"])
  }

  @Test func serviceUsedThreeTimesTodayOutranksOneNeverUsed() {
    let uses = (0..<3).map { _ in use("d", image, daysAgo: 0.1) }
    let ranking = ServiceRanking(pinned: [], uses: uses, now: now)
    #expect(order(ranking, services, image) == ["d", "a", "b", "c"])
    #expect(ranking.frecency(of: "d", for: image) == 300)
    #expect(ranking.frecency(of: "a", for: image) == 0)
  }

  @Test func usesForOtherContentDoNotCount() {
    let uses = (0..<3).map { _ in use("d", [.text], daysAgo: 0) }
    let ranking = ServiceRanking(pinned: [], uses: uses, now: now)
    #expect(order(ranking, services, image) == ["a", "b", "c", "d"])
    #expect(order(ranking, services, [.text]) == ["d", "a", "b", "c"])
  }

  @Test func usesSharingSomeOfTheKindsCountHalf() {
    let ranking = ServiceRanking(
      pinned: [], uses: [use("c", [.image, .text], daysAgo: 0), use("b", image, daysAgo: 0)], now: now)
    #expect(ranking.frecency(of: "c", for: image) == 50)
    #expect(ranking.frecency(of: "b", for: image) == 100)
    #expect(order(ranking, services, image) == ["b", "c", "a", "d"])
  }

  @Test func recentUsesOutweighOldOnes() {
    let uses =
      (0..<3).map { _ in use("d", image, daysAgo: 1) } + (0..<5).map { _ in use("c", image, daysAgo: 100) }
    let ranking = ServiceRanking(pinned: [], uses: uses, now: now)
    #expect(ranking.frecency(of: "d", for: image) == 300)
    #expect(ranking.frecency(of: "c", for: image) == 50)
    #expect(order(ranking, services, image) == ["d", "c", "a", "b"])
  }

  @Test func frequencyCountsBeyondTheSampledUses() {
    // Twenty uses 20 days ago: 20 × 50 points; two today: 2 × 100.
    let uses =
      (0..<20).map { _ in use("c", image, daysAgo: 20) } + (0..<2).map { _ in use("d", image, daysAgo: 0) }
    let ranking = ServiceRanking(pinned: [], uses: uses, now: now)
    #expect(ranking.frecency(of: "c", for: image) == 1000)
    #expect(order(ranking, services, image).prefix(2) == ["c", "d"])
  }

  @Test func usesThatDidNotCompleteCountHalf() {
    let ranking = ServiceRanking(
      pinned: [], uses: [use("a", image, daysAgo: 0, completed: false), use("b", image, daysAgo: 0)], now: now
    )
    #expect(ranking.frecency(of: "a", for: image) == 50)
    #expect(order(ranking, services, image).prefix(2) == ["b", "a"])
  }

  @Test(arguments: [
    (0.0, 100.0), (3.9, 100), (4, 70), (13.9, 70), (14, 50), (30.9, 50), (31, 30), (89, 30), (90, 10),
    (900, 10),
    (-2, 100),
  ])
  func ageBuckets(days: Double, points: Double) {
    #expect(ServiceRanking.agePoints(days: days) == points)
  }

  @Test func recordsAreToldApartByWhatTheyShared() {
    let types = TypeSystem(mime: MIMEHierarchy())
    let byName: (String) -> String = { name in
      switch name.split(separator: ".").last {
      case "png": "image/png"
      case "mp4": "video/mp4"
      case "pdf": "application/pdf"
      default: "application/octet-stream"
      }
    }
    func kinds(_ items: [RecordedItem]) -> Set<ServiceRanking.Kind>? {
      let record = HistoryRecord(
        id: "1", serviceId: "s", serviceName: "S", items: items, started: now, status: .completed)
      return ServiceRanking.use(of: record, types: types, contentType: byName)?.kinds
    }
    #expect(kinds([.file(url: "file:///home/u/photo.png")]) == [.image])
    #expect(kinds([.file(url: "file:///home/u/film.mp4")]) == [.movie])
    #expect(kinds([.file(url: "file:///home/u/paper.pdf")]) == [.otherFile])
    #expect(kinds([.webURL("https://example.org/")]) == [.webURL])
    #expect(kinds([.text("hello")]) == [.text])
    #expect(kinds([.file(url: "file:///a.png"), .text("hi")]) == [.image, .text])
    #expect(kinds([]) == nil)
  }

  @Test func selectionKinds() {
    let types = TypeSystem(mime: MIMEHierarchy())
    let selection = ActivationSelection(
      attachments: [
        ShareCore.Attachment(
          item: .file(FilePath("/a.png")), typeIdentifiers: types.typeIdentifiers(forMIMEType: "image/png")),
        ShareCore.Attachment(item: .webURL("https://x.org"), typeIdentifiers: TypeSystem.webURLIdentifiers),
      ], types: types)
    #expect(ServiceRanking.kinds(of: selection) == [.image, .webURL])
  }
}
