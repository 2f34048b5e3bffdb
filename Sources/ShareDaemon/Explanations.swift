import ShareCore
import ShareDBus
import ShareHost

/// `Explain`: why a service is offered for some items, or why not; what `xdg-share why --json`
/// prints, as D-Bus values.
enum Explanations {
  static func explain(
    _ message: DBusMessage, catalog: ServiceCatalog, caller: Caller, detection: DetectionMemo
  ) throws(BusError) -> DBusMessage {
    guard case .string(let id) = message.cursor(atArgument: 0).value() else {
      throw .invalidArgument("service_id", .notAString)
    }
    // Nothing is shared: a file handed over is looked at through its descriptor.
    let items = try AdmittedItems(message, argument: 1, named: "items", caller: caller).lookedAt()
    let selection: PreparedSelection
    do {
      selection = try catalog.inspect(items, inspector: QueryInspector(items: items, memo: detection))
    } catch {
      throw .refused(.unreadableFiles(error.problems))
    }
    guard let explanation = catalog.explain(id, selection, survey: catalog.survey()) else {
      throw .refused(.noSuchService(id))
    }
    return message.reply([.boolean(explanation.accepted), value(.object(explanation.report))])
  }

  /// A report's value as D-Bus carries it: objects as `a{sv}`, arrays typed by what they hold.
  static func value(_ value: ReportValue) -> DBusValue {
    switch value {
    case .string(let string): .string(string)
    case .bool(let bool): .boolean(bool)
    case .integer(let integer): .int64(Int64(integer))
    case .strings(let strings): .array(elementSignature: "s", strings.map(DBusValue.string))
    case .objects(let objects): .array(elementSignature: "a{sv}", objects.map { self.value(.object($0)) })
    case .object(let members):
      .vardict(members.keys.sorted().map { ($0, self.value(members[$0]!)) })
    }
  }
}
