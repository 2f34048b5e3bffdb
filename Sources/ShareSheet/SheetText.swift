import ShareCore

/// The picker's words, in English, German or French: one table, looked up by the English text,
/// the language chosen as services' names are (`LANGUAGE`, `LC_ALL`, `LC_MESSAGES`, `LANG`).
///
/// Placeholders are named (`{service}`, `{count}`), so that a translation may put them anywhere.
public struct SheetText: Sendable {
  /// The languages with a table; English needs none.
  public enum Language: String, Sendable, CaseIterable {
    case english = "en", german = "de", french = "fr"
  }

  public let language: Language

  public init(language: Language) {
    self.language = language
  }

  /// The first language of the user's list that has a table, else English.
  public init(environment: [String: String]) {
    let preferred = Localization.preferredLanguages(environment: environment)
    language =
      preferred.lazy.compactMap { name in
        Language.allCases.first {
          name == $0.rawValue || name.hasPrefix($0.rawValue + "_") || name.hasPrefix($0.rawValue + "-")
        }
      }.first ?? .english
  }

  /// `english` in the language, its placeholders filled from `values`.
  public func callAsFunction(_ english: String, _ values: [String: String] = [:]) -> String {
    var text = Self.tables[language]?[english] ?? english
    for (name, value) in values {
      text = text.replacing("{\(name)}", with: value)
    }
    return text
  }

  /// Every English text with a translation; each table translates all of them (a test checks).
  static let tables: [Language: [String: String]] = [
    .german: [
      "Share": "Teilen",
      "{site} wants to share": "{site} möchte teilen",
      "Preview": "Vorschau",
      "Share from {app}": "Teilen aus {app}",
      "Search services": "Dienste durchsuchen",
      "Search": "Suchen",
      "Edit": "Bearbeiten",
      "Done": "Fertig",
      "Pin {service}": "{service} anheften",
      "Unpin {service}": "{service} lösen",
      "Hide {service}": "{service} ausblenden",
      "Show {service}": "{service} einblenden",
      "Hidden": "Ausgeblendet",
      "Pinned": "Angeheftet",
      "{count} files": "{count} Dateien",
      "{count} links": "{count} Links",
      "{count} items": "{count} Objekte",
      "Text": "Text",
      "Binary file": "Binärdatei",
      "Permissions: {list}": "Berechtigungen: {list}",
      "Network access": "Netzwerkzugriff",
      "Session bus: talk to {names}": "Sitzungsbus: mit {names} sprechen",
      "Application groups: {groups}": "Anwendungsgruppen: {groups}",
      "Display": "Bildschirm",
      "Items writable": "Objekte beschreibbar",
      "Folders: {folders} (read-write)": "Ordner: {folders} (lesen und schreiben)",
      "Downloads": "Downloads",
      "Pictures": "Bilder",
      "Music": "Musik",
      "Videos": "Videos",
      "Printing": "Drucken",
      "Bluetooth": "Bluetooth",
      "No sandbox (unconfined)": "Keine Sandbox (uneingeschränkt)",
      "Loading services…": "Dienste werden geladen …",
      "No service can share this": "Kein Dienst kann das teilen",
      "Share services that accept it can be installed, or hidden ones shown again with Edit.":
        "Dienste, die es annehmen, lassen sich installieren oder mit „Bearbeiten“ wieder einblenden.",
      "No service matches “{query}”": "Kein Dienst passt zu „{query}“",
      "Cannot read {file}": "{file} kann nicht gelesen werden",
      "Sharing with {service}…": "Teilen mit {service} …",
      "Cancel": "Abbrechen",
      "Choose Files to Share": "Dateien zum Teilen wählen",
      "Close": "Schließen",
      "Shared with {service}": "Mit {service} geteilt",
      "Copy": "Kopieren",
      "Copied": "Kopiert",
      "Copy link": "Link kopieren",
      "Show in folder": "Im Ordner anzeigen",
      "No file manager could show the file": "Kein Dateimanager konnte die Datei zeigen",
      "Retry": "Erneut versuchen",
      "{service} failed": "{service} ist fehlgeschlagen",
      "{service} cancelled": "{service} hat abgebrochen",
      "{service} took too long": "{service} hat zu lange gebraucht",
      "Cannot share with {service}": "Teilen mit {service} nicht möglich",
      "Stopped after {seconds} seconds": "Nach {seconds} Sekunden angehalten",
      "Stopped after {seconds} second": "Nach {seconds} Sekunde angehalten",
      "This window closes by itself.": "Dieses Fenster schließt sich von selbst.",
      "{service} finished": "{service} ist fertig",
      "Actions": "Aktionen",
      "Suggestions": "Vorschläge",
      "Suggest devices, people and folders": "Geräte, Personen und Ordner vorschlagen",
      "Save…": "Speichern …",
      "Save": "Speichern",
      "_Save": "_Speichern",
      "Saved": "Gespeichert",
      "Cannot save {file}": "{file} kann nicht gespeichert werden",
    ],
    .french: [
      "Share": "Partager",
      "{site} wants to share": "{site} veut partager",
      "Preview": "Aperçu",
      "Share from {app}": "Partager depuis {app}",
      "Search services": "Rechercher des services",
      "Search": "Rechercher",
      "Edit": "Modifier",
      "Done": "Terminé",
      "Pin {service}": "Épingler {service}",
      "Unpin {service}": "Désépingler {service}",
      "Hide {service}": "Masquer {service}",
      "Show {service}": "Afficher {service}",
      "Hidden": "Masqué",
      "Pinned": "Épinglé",
      "{count} files": "{count} fichiers",
      "{count} links": "{count} liens",
      "{count} items": "{count} éléments",
      "Text": "Texte",
      "Binary file": "Fichier binaire",
      "Permissions: {list}": "Autorisations : {list}",
      "Network access": "Accès au réseau",
      "Session bus: talk to {names}": "Bus de session : parler à {names}",
      "Application groups: {groups}": "Groupes d’applications : {groups}",
      "Display": "Affichage",
      "Items writable": "Éléments modifiables",
      "Folders: {folders} (read-write)": "Dossiers : {folders} (lecture et écriture)",
      "Downloads": "Téléchargements",
      "Pictures": "Images",
      "Music": "Musique",
      "Videos": "Vidéos",
      "Printing": "Impression",
      "Bluetooth": "Bluetooth",
      "No sandbox (unconfined)": "Sans bac à sable (non confiné)",
      "Loading services…": "Chargement des services…",
      "No service can share this": "Aucun service ne peut partager ceci",
      "Share services that accept it can be installed, or hidden ones shown again with Edit.":
        "Installez un service qui l’accepte, ou réaffichez un service masqué avec « Modifier ».",
      "No service matches “{query}”": "Aucun service ne correspond à « {query} »",
      "Cannot read {file}": "Impossible de lire {file}",
      "Sharing with {service}…": "Partage avec {service}…",
      "Cancel": "Annuler",
      "Choose Files to Share": "Choisir les fichiers à partager",
      "Close": "Fermer",
      "Shared with {service}": "Partagé avec {service}",
      "Copy": "Copier",
      "Copied": "Copié",
      "Copy link": "Copier le lien",
      "Show in folder": "Afficher dans le dossier",
      "No file manager could show the file": "Aucun gestionnaire de fichiers n’a pu afficher le fichier",
      "Retry": "Réessayer",
      "{service} failed": "Échec de {service}",
      "{service} cancelled": "{service} a annulé",
      "{service} took too long": "{service} a pris trop de temps",
      "Cannot share with {service}": "Impossible de partager avec {service}",
      "Stopped after {seconds} seconds": "Arrêté après {seconds} secondes",
      "Stopped after {seconds} second": "Arrêté après {seconds} seconde",
      "This window closes by itself.": "Cette fenêtre se ferme d’elle-même.",
      "{service} finished": "{service} a terminé",
      "Actions": "Actions",
      "Suggestions": "Suggestions",
      "Suggest devices, people and folders": "Suggérer des appareils, des personnes et des dossiers",
      "Save…": "Enregistrer…",
      "Save": "Enregistrer",
      "_Save": "_Enregistrer",
      "Saved": "Enregistré",
      "Cannot save {file}": "Impossible d’enregistrer {file}",
    ],
  ]
}

extension SheetText {
  /// What a service may reach beyond the items it is handed, for its row's details: "Permissions:
  /// Network access; Display"; `nil` for a service that asks for nothing. The sheet's words for
  /// what `xdg-share install` asks consent for.
  func permissions(_ entitlements: Entitlements) -> String? {
    let permissions = entitlements.permissions
    guard !permissions.isEmpty else { return nil }
    return self("Permissions: {list}", ["list": permissions.map(describe).joined(separator: "; ")])
  }

  private func describe(_ permission: Entitlements.Permission) -> String {
    switch permission {
    case .network: self("Network access")
    case .sessionBus(let names):
      self("Session bus: talk to {names}", ["names": names.joined(separator: ", ")])
    case .applicationGroups(let groups):
      self("Application groups: {groups}", ["groups": groups.joined(separator: ", ")])
    case .display: self("Display")
    case .itemsWritable: self("Items writable")
    case .folders(let folders):
      self("Folders: {folders} (read-write)", ["folders": folders.map(name).joined(separator: ", ")])
    case .print: self("Printing")
    case .bluetooth: self("Bluetooth")
    case .unconfined: self("No sandbox (unconfined)")
    }
  }

  private func name(_ folder: Entitlements.UserFolder) -> String {
    switch folder {
    case .downloads: self("Downloads")
    case .pictures: self("Pictures")
    case .music: self("Music")
    case .movies: self("Videos")
    }
  }
}
