/// The introspection data of the service's objects: `data/org.xdgshare.Share1.xml` and
/// `data/org.xdgshare.Request1.xml`, which a test keeps identical.
enum InterfaceXML {
  static let share = #"""
    \#(doctype)
    <!--
      xdg-share's session service: which share services accept some content, and sharing it.

      Bus name: org.xdgshare.Share (D-Bus activatable; the service exits when idle).
      Object:   /org/xdgshare/Share

      Errors:
        org.xdgshare.Share1.Error.NoSuchService   no installed service has the identifier
        org.xdgshare.Share1.Error.NotAccepted     the service's activation rule refuses the items; the
                                                  message says what it takes and what it was given
        org.xdgshare.Share1.Error.LimitExceeded   too many items in one call, or too many requests in flight
        org.xdgshare.Share1.Error.Failed          a file cannot be read, the request cannot be recorded,
                                                      a file handed over cannot be copied, or the
                                                      share sheet cannot be started
        org.freedesktop.DBus.Error.InvalidArgs    a malformed argument; the message names it and says why
        org.freedesktop.DBus.Error.UnknownInterface, .UnknownProperty, .PropertyReadOnly
                                                  from org.freedesktop.DBus.Properties

      The request objects Share and ShowPicker return are described in org.xdgshare.Request1.xml.
    -->
    <node name="/org/xdgshare/Share">
      <!--
        org.xdgshare.Share1:
        @short_description: Share services of the desktop

        A service is described by a dictionary (a{sv}) with these keys:
          id           s  the bundle's CFBundleIdentifier, e.g. "org.xdgshare.save-to-folder"
          name         s  the display name, in the service's locale
          icon         s  a freedesktop icon name, or the absolute path of an image file
          description  s  a one-line description; present only when the bundle gives one
          version      s  CFBundleShortVersionString; present only when the bundle gives one

        An item is a dictionary (a{sv}) with exactly one of:
          path       ay  a local file's path, as bytes; a trailing NUL is allowed. Non-UTF-8
                         names survive this way.
          fd         h   a file handed over as a descriptor (added in version 3): a regular file
                         open for reading (or an O_PATH descriptor of one). Its type is detected
                         from its content and `name`; the service reads it without moving its
                         offset, and the plugin gets a path to it: the document portal's
                         (org.freedesktop.portal.Documents) when one runs and takes the file, else a
                         read-only copy in a private folder under $XDG_RUNTIME_DIR (at most 1 GiB),
                         removed when the request ends. Its path is named after `name`; the
                         history records the name, not the path. A directory, socket, FIFO, device
                         or a descriptor open for writing only is refused with InvalidArgs, and the
                         descriptor closed. D-Bus carries at most 16 descriptors in one message.
          url        s   a link (http, https, mailto, ...); a file:// URL is taken as the file
          text       s   a piece of text
        and optionally:
          mime-type  s   the item's MIME type when the caller knows it; it replaces detection
                         for a file and the text/plain type of a text
          name       s   a file handed over as `fd`: its name where it comes from (added in
                         version 3)

        A sandboxed caller (a Flatpak app, known by the /.flatpak-info of its process) must hand
        files over as descriptors: its paths are its sandbox's, and a `path` item, or a file://
        `url`, from one is refused with InvalidArgs saying so.

        The services are ordered by name, then identifier; hidden services and those whose
        requirements (programs, bus names) are not met are left out. Added in version 1.
      -->
      <interface name="org.xdgshare.Share1">
        <!--
          ListServices:
          @services: every installed service the user can use.
        -->
        \#(method("ListServices", out: "aa{sv} services"))

        <!--
          QueryItems:
          @items: what the caller wants to share (at most 10000 items).
          @options: a{sv}; unknown keys are ignored:
            fields  as  the keys each service's dictionary carries; `id` always does, and names
                        this version does not know are left out. A client that keeps the answer
                        of ListServices (refreshed on ServicesChanged) asks for ["id"]: for 100
                        services the reply is a quarter of the size, the call 40 % shorter.
          @services: the services whose activation rules accept all @items together, as one
            selection; the same answer as `xdg-share list` for the same items. A service that published
            direct targets (docs/direct-targets.md) has `targets` (aa{sv}: id, title, and subtitle and
            icon when given): those that take @items, none when the user turned suggestions off
            (added in version 4; `fields` may name it).

          A file item's mime-type is trusted: that file is not looked at, so it need not exist
          (Share still checks every file). A file without one is looked at once; its type is
          remembered until its name, device, inode, size or modification time changes.
        -->
        \#(method("QueryItems", "aa{sv} items", "a{sv} options", out: "aa{sv} services"))

        <!--
          Explain:
          @service_id: the service asked about (installed, or an invalid bundle with that identifier).
          @items: the items to explain its answer for, as for QueryItems.
          @options: a{sv}; none is defined yet, unknown keys are ignored.
          @accepted: whether the service is offered for @items: its rule accepts them and nothing
            keeps it out of every sheet (hidden by the user, an invalid bundle, a program or bus name
            it needs). What `xdg-share why` exits 0 for.
          @trace: what `xdg-share why` prints as JSON, as a{sv} (objects as a{sv}, lists of them as
            aa{sv}, of strings as as); docs/why.md describes every key:
              service       s      @service_id
              name          s      the service's name, when known
              bundle        s      the bundle whose rule was traced, or the invalid one
              accepted      b      as @accepted
              obstacles     aa{sv} what keeps it out of every sheet, first: reason (s: hidden,
                                   invalid, missing-requirements), message (s), and problems (as),
                                   programs (as), busNames (as) or settingsFile (s)
              otherBundles  aa{sv} other bundles with the identifier: bundle, state (shadowed,
                                   invalid), problems
              items         aa{sv} each item as the rule saw it: name, kind (file, folder, link,
                                   text), path or url, mimeType, foundBy (name, content, filesystem,
                                   caller, detected, kind), typeIdentifiers (as: the UTI, the MIME
                                   type, its parents), conformsTo (as)
              rule          a{sv}  form (dictionary, predicate) and text
              ruleAccepts   b      the rule's own verdict
              clauses       aa{sv} the rule clause by clause: clause (s), holds (b), found (s, what
                                   it compared), clauses (aa{sv}, the clauses or elements inside)
              refusedBy     s      the first clause that refused, when the rule refuses
              message       s      what a person is told: "MyShare takes up to 2 images; notes.txt
                                   is a text document (public.plain-text)"
              entitlements  a{sv}  what the service may reach beyond its items, by Apple's key names
                                   (b true, or as: com.apple.security.network.client,
                                   org.xdgshare.session-bus.talk...); empty when none
            Fails with NoSuchService when no bundle has the identifier. Added in version 4.
        -->
        \#(method("Explain", "s service_id", "aa{sv} items", "a{sv} options", out: "b accepted", "a{sv} trace"))

        <!--
          Share:
          @service_id: the service to share with.
          @items: what to share (at most 10000 items).
          @options: a{sv}:
            handle_token  s  a token the caller chooses, [A-Za-z0-9_]+, so it can subscribe to
                             the request's signals before it calls: the handle is then
                             /org/xdgshare/Share/request/SENDER/TOKEN, SENDER being the caller's
                             unique name without the leading ':' and with '.' replaced by '_'.
            target        s  one of the service's direct targets, by its id (as QueryItems lists
                             them): the service gets it in the request, and its compose sheet is
                             not shown; NoSuchService when it has none by that id, NotAccepted
                             when the target does not take @items (added in version 4).
          @handle: the request object (org.xdgshare.Request1), which emits Progress and, exactly
            once, Response.

          The rule of the service is checked again; the call fails with NotAccepted when it
          refuses the items, with NoSuchService for an unknown @service_id, and with
          LimitExceeded when the caller has 64 requests in flight.
        -->
        \#(method("Share", "s service_id", "aa{sv} items", "a{sv} options", out: "o handle"))

        <!--
          ShowPicker:
          @parent_window: the caller's window the share sheet stays above, as xdg-desktop-portal
            names it: "" (none), "x11:<XID in hexadecimal>" or "wayland:<exported handle>".
          @items: what to share, as for Share (at least one).
          @options: a{sv}; unknown keys are ignored, a known one of another type is InvalidArgs
            naming it:
            handle_token  s   as for Share.
            exclude       as  services (by id) to leave out (added in version 3).
            include       as  the only services to offer, by id; a service of the caller's own is
                              offered only when included (added in version 3).
            kinds         as  the kinds of service to offer: "share" (share extensions, the list),
                              "action" (action extensions, the row of actions) (added in version 3).
            title         s   the preview's line, instead of the one made from @items (added in
                              version 3).
            preview       h   an image to show in the preview instead of the first item's
                              thumbnail (added in version 3).
            modal         b   keep @parent_window from input while the sheet is shown (added in
                              version 3).
          @handle: the request object (org.xdgshare.Request1). It emits, exactly once, Response:
            0 completed (results: service, returned, request); 1 cancelled, by the user (closing
            the sheet before choosing counts) or by the service (results: message, and service and
            request once a service was chosen); 2 failed (results: message, and service and
            request once a service was chosen). Every Response carries `outcome` (s): completed,
            cancelled, failed or timed-out (added in version 3). `service` (s) is the chosen
            service's id, `returned` (aa{sv}) what it returned, as in Request1's Response (for an
            action extension (com.apple.ui-services) its result: a text, a link or a file), and
            `request` (s) the request's id in the history (`xdg-share history`); version 2's names
            service-id, returned-items and request-id are there too. Cancel closes the sheet (and
            cancels what it runs).

          The caller is known by its process: the sheet names an app ("Share from Example Notes":
          the Name of its desktop entry, else its app id), the history records it, and the
          services it provides itself (XDGShareApplication in their Info.plist, or an identifier
          under its app id) are left out unless it includes them.

          Shows the share sheet: the services that accept @items, in the order the user needs;
          the user chooses one (a share service in the list, or an action in the row of actions),
          it runs, and the sheet shows its progress and outcome. When the service says it has
          posted (the plugin protocol's {"posted": {}}), the sheet's window goes at once and the
          share goes on in the background, its progress in a desktop notification with a Cancel
          action; Response comes when it ends. Cancel still cancels it; the caller leaving the bus
          does not. Fails with Failed when the sheet is not installed.
          Added in version 2.
        -->
        \#(method("ShowPicker", "s parent_window", "aa{sv} items", "a{sv} options", out: "o handle"))

        <!--
          ServicesChanged:
          Emitted when share services are added, changed or removed (a bundle in any extensions
          folder, or a requirement that came or went), or their direct targets change. Callers
          then ask again.
        -->
        <signal name="ServicesChanged"/>

        <!--
          Version:
          The version of this interface: 4 (3 had no Explain and no direct targets; 2 had no fd
          items and no ShowPicker options beyond handle_token; 1 had no ShowPicker).
        -->
        <property name="Version" type="u" access="read"/>
      </interface>

      \#(introspectable)
      <interface name="org.freedesktop.DBus.Properties">
        \#(method("Get", "s interface_name", "s property_name", out: "v value"))
        \#(method("GetAll", "s interface_name", out: "a{sv} properties"))
        \#(method("Set", "s interface_name", "s property_name", "v value"))
      </interface>
      \#(peer)
    </node>

    """#

  /// A request object's introspection data.
  static let request = #"""
    \#(doctype)
    <!--
      A share request of xdg-share's session service: the object Share returns, at
      /org/xdgshare/Share/request/SENDER/TOKEN (see org.xdgshare.Share1.xml).
    -->
    <node>
      <!--
        org.xdgshare.Request1:
        @short_description: One share request, at /org/xdgshare/Share/request/SENDER/TOKEN

        Only the caller that started the request may cancel it. The object goes away after
        Response.

        Errors:
          org.freedesktop.DBus.Error.AccessDenied    Cancel from another caller than the one that
                                                     started the request
          org.freedesktop.DBus.Error.UnknownObject   Cancel on a request that has ended
      -->
      <interface name="org.xdgshare.Request1">
        <!--
          Cancel:
          Stops the request: the service's process group gets SIGTERM, then SIGKILL. Response
          follows with code 1.
        -->
        \#(method("Cancel"))

        <!--
          Progress:
          @fraction: how much is done, 0 to 1; -1 when the service does not say.
          @message: what the service is doing; may be empty.
        -->
        <signal name="Progress">
          <arg type="d" name="fraction"/>
          <arg type="s" name="message"/>
        </signal>

        <!--
          Response:
          @code: 0 completed, 1 cancelled (by the service or the caller), 2 failed (the service
            crashed, timed out, or said nothing).
          @results: a{sv}:
            returned-items  aa{sv}  with code 0: what the service returned, one dictionary per
                                    attachment with "url" (s), "path" (ay) or "text" (s), and
                                    "type-identifiers" (as)
            message         s       with codes 1 and 2: why
            request-id      s       the request's id in `xdg-share history`
            outcome         s       completed, cancelled, failed or timed-out (added in version 3)
            service         s       the service's id (added in version 3)
            request         s       as request-id (added in version 3)
            returned        aa{sv}  as returned-items (added in version 3)
        -->
        <signal name="Response">
          <arg type="u" name="code"/>
          <arg type="a{sv}" name="results"/>
        </signal>
      </interface>

      \#(introspectable)
      \#(peer)
    </node>

    """#

  /// Introspection of a path above the object, so tools can walk down to it.
  static func parent(child: String) -> String {
    """
    \(doctype)
    <node>
      \(introspectable)
      <node name="\(child)"/>
    </node>

    """
  }

  /// The document type every introspection document starts with.
  private static let doctype = """
    <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
    """

  /// `org.freedesktop.DBus.Introspectable`, which every object has; from its first line on, indented
  /// as a child of the top `<node>` (as ``peer`` is).
  private static let introspectable = """
    <interface name="org.freedesktop.DBus.Introspectable">
        \(method("Introspect", out: "s xml_data"))
      </interface>
    """

  /// `org.freedesktop.DBus.Peer`, which the service's and the requests' objects have.
  private static let peer = """
    <interface name="org.freedesktop.DBus.Peer">
        \(method("Ping"))
        \(method("GetMachineId", out: "s machine_uuid"))
      </interface>
    """

  /// A method's element, in an interface that is a child of the top `<node>`: the arguments it
  /// takes, then those it returns, each written "TYPE NAME". The first line is not indented (the
  /// line it is put in is); the others are.
  private static func method(_ name: String, _ inputs: String..., out outputs: String...) -> String {
    let arguments = inputs.map { ($0, "in") } + outputs.map { ($0, "out") }
    guard !arguments.isEmpty else { return #"<method name="\#(name)"/>"# }
    let lines = arguments.map { argument, direction in
      let type = argument.prefix { $0 != " " }
      let argumentName = argument.dropFirst(type.count + 1)
      return #"      <arg type="\#(type)" name="\#(argumentName)" direction="\#(direction)"/>"#
    }
    return ([#"<method name="\#(name)">"#] + lines + ["    </method>"]).joined(separator: "\n")
  }
}
