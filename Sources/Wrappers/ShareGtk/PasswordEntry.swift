internal import CGtk

/// A one-line field for a password (`GtkPasswordEntry`): each character is drawn as a dot, with
/// an eye to show the text while held, a Caps Lock warning, and the role assistive technologies
/// know as "password text", so that a screen reader does not read what is typed.
public final class PasswordEntry: Editable {
  public init(text: String = "") {
    super.init(gtk_password_entry_new())
    gtk_password_entry_set_show_peek_icon(cast(widget), 1)
    gtk_editable_set_text(cast(widget), text)
  }
}
