import ShareCore
import ShareHost
import SharePOSIX

/// `xdg-share configure ID`: the configuration items of a service's compose sheet, asked one by
/// one on the terminal, or given with `--set`; remembered as the next shares' defaults.
enum ConfigureCommand {
  static func run(id: String, settings: [ConfigurationSetting], context: ToolContext) -> ExitCode {
    guard let (service, _) = ServiceCatalog.service(withID: id, environment: context.environment) else {
      let refusal = ShareRefusal.noSuchService(id)
      context.output.error(
        refusal.message { context.loadCatalog(reportProblems: false).registry.services.map(\.id) })
      return ShareEnd.refused(refusal).exitCode
    }
    guard let sheet = service.composeSheet, !sheet.configurationItems.isEmpty else {
      context.output.error(Wording.noConfigurationItems(service))
      return .failure
    }
    let step = context.composeStep
    var (values, warnings) = step.currentValues(of: service)
    for warning in warnings { context.output.error(warning.message) }

    if settings.isEmpty && Terminal.isTerminal(0) {
      guard ask(sheet.configurationItems, values: &values, output: context.output) else {
        context.output.error(Wording.composeCancelled)
        return .cancelled
      }
    } else {
      for setting in settings {
        guard let item = sheet.item(setting.identifier) else {
          context.output.error(Wording.unknownItem(setting.identifier, of: service))
          return .usage
        }
        guard item.accepts(setting.value) else {
          context.output.error(Wording.notAChoice(setting.value, of: item))
          return .usage
        }
        values[item.identifier] = setting.value
      }
    }
    warnings = step.remember(values, for: service)
    for warning in warnings { context.output.error(warning.message) }
    let missing = sheet.configurationItems.filter { values[$0.identifier] == nil }
    if !missing.isEmpty {
      context.output.error(Wording.stillMissing(missing))
      return .failure
    }
    guard warnings.isEmpty else { return .failure }
    context.output.writeError(
      Wording.configured(service, file: step.configuration.file(for: service.id)) + "\n")
    return .success
  }

  /// Asks each item on the terminal (questions on standard error, answers on standard input);
  /// `false` when input ends (Ctrl-D), which changes nothing.
  private static func ask(
    _ items: [ComposeSheetDeclaration.Item], values: inout [String: String], output: Output
  ) -> Bool {
    for item in items {
      output.writeError("\n" + Wording.itemHeading(item) + "\n")
      for (index, choice) in (item.choices ?? []).enumerated() {
        output.writeError(Wording.choiceLine(index + 1, choice))
      }
      while true {
        output.writeError(Wording.itemPrompt(item, current: values[item.identifier]))
        let line: String?
        if item.isSecure {
          line = Terminal.withoutEcho { readLine(strippingNewline: true) }
          output.writeError("\n")
        } else {
          line = readLine(strippingNewline: true)
        }
        guard let line else { return false }
        // A password is taken as typed; other answers without the spaces around them.
        let answer = item.isSecure ? line : line.trimmingSpaces()
        if answer.isEmpty {
          if values[item.identifier] != nil { break }
          output.writeError(Wording.valueRequired(item))
          continue
        }
        guard let choices = item.choices else {
          values[item.identifier] = answer
          break
        }
        if let number = Int(answer), choices.indices.contains(number - 1) {
          values[item.identifier] = choices[number - 1]
          break
        }
        if choices.contains(answer) {
          values[item.identifier] = answer
          break
        }
        output.writeError(Wording.choiceHint(answer, count: choices.count))
      }
    }
    return true
  }
}
