extension UTITable {
  /// Apple's public type identifiers with their hierarchy and MIME types.
  ///
  /// Identifiers and parents are Apple's: the `UTCoreTypes.h` of UniformTypeIdentifiers, and the
  /// system declarations of macOS where the header is silent or older (`public.mpeg-4-audio` is only
  /// `public.audio` there, so an `.m4a` does not count as a movie; the CSV and TSV types are also
  /// `public.plain-text`). Office formats follow what Spotlight reports for a `.docx`
  /// (`org.openxmlformats.openxml`, `public.composite-content`), with `public.spreadsheet` and
  /// `public.presentation` for sheets and slides.
  ///
  /// How the MIME types are chosen, because ``TypeSystem`` relies on it:
  /// - The first MIME type of an entry is the canonical name in shared-mime-info 2.2. It counts as
  ///   the same type as the identifier: conformance crosses from the identifier to it and back, so
  ///   it must never be an alias.
  /// - Further MIME types only lead to the identifier. They are names that other systems or
  ///   versions of shared-mime-info use (`application/x-gzip`, `application/yaml`), or distinct
  ///   types for the same content (`image/svg+xml-compressed`).
  /// - Abstract identifiers (`public.image`, `public.movie`) carry no MIME type. The exceptions:
  ///   `public.data` and `public.plain-text`, as `application/octet-stream` and `text/plain` are
  ///   the roots of shared-mime-info, and `public.email-message`, whose file is `message/rfc822`.
  /// - When two entries share a MIME type, the first one in this list gets it.
  public static let standard = UTITable(entries: [
    // Roots and file system objects.
    Entry("public.item", conformsTo: []),
    Entry("public.content", conformsTo: []),
    Entry("public.composite-content", conformsTo: ["public.content"]),
    Entry("public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"]),
    Entry("public.directory", conformsTo: ["public.item"]),
    Entry("public.folder", conformsTo: ["public.directory"], mimeTypes: ["inode/directory"]),
    Entry("public.volume", conformsTo: ["public.folder"], mimeTypes: ["inode/mount-point"]),
    Entry("com.apple.resolvable", conformsTo: []),
    Entry(
      "public.symlink", conformsTo: ["public.item", "com.apple.resolvable"], mimeTypes: ["inode/symlink"]),
    Entry("public.block-special", conformsTo: ["public.item"], mimeTypes: ["inode/blockdevice"]),
    Entry("public.character-special", conformsTo: ["public.item"], mimeTypes: ["inode/chardevice"]),
    Entry("public.named-pipe", conformsTo: ["public.item"], mimeTypes: ["inode/fifo"]),
    Entry("public.socket", conformsTo: ["public.item"], mimeTypes: ["inode/socket"]),
    Entry("public.executable", conformsTo: ["public.item"]),
    Entry(
      "public.unix-executable", conformsTo: ["public.data", "public.executable"],
      mimeTypes: ["application/x-executable"]),
    Entry(
      "com.microsoft.windows-executable", conformsTo: ["public.data", "public.executable"],
      mimeTypes: ["application/x-ms-dos-executable", "application/x-msdownload"]),

    // Links.
    Entry("public.url", conformsTo: ["public.data"]),
    Entry("public.file-url", conformsTo: ["public.url"]),

    // Text.
    Entry("public.text", conformsTo: ["public.data", "public.content"]),
    Entry("public.plain-text", conformsTo: ["public.text"], mimeTypes: ["text/plain"]),
    Entry("public.utf8-plain-text", conformsTo: ["public.plain-text"]),
    Entry("public.delimited-values-text", conformsTo: ["public.text"]),
    Entry(
      "public.comma-separated-values-text",
      conformsTo: ["public.plain-text", "public.delimited-values-text"],
      mimeTypes: ["text/csv"]),
    Entry(
      "public.tab-separated-values-text", conformsTo: ["public.plain-text", "public.delimited-values-text"],
      mimeTypes: ["text/tab-separated-values"]),
    Entry("public.rtf", conformsTo: ["public.text"], mimeTypes: ["application/rtf"]),
    Entry("public.html", conformsTo: ["public.text"], mimeTypes: ["text/html"]),
    Entry("public.xml", conformsTo: ["public.text"], mimeTypes: ["application/xml"]),
    Entry("public.xhtml", conformsTo: ["public.xml"], mimeTypes: ["application/xhtml+xml"]),
    Entry("public.rss", conformsTo: ["public.xml"], mimeTypes: ["application/rss+xml"]),
    Entry("public.css", conformsTo: ["public.text"], mimeTypes: ["text/css"]),
    Entry("public.json", conformsTo: ["public.text"], mimeTypes: ["application/json"]),
    Entry("public.yaml", conformsTo: ["public.text"], mimeTypes: ["application/x-yaml", "application/yaml"]),
    Entry("net.daringfireball.markdown", conformsTo: ["public.plain-text"], mimeTypes: ["text/markdown"]),
    Entry("public.patch-file", conformsTo: ["public.plain-text"], mimeTypes: ["text/x-patch"]),
    Entry("org.w3.webvtt", conformsTo: ["public.text"], mimeTypes: ["text/vtt"]),
    Entry("public.log", conformsTo: ["public.item"]),
    Entry("com.apple.log", conformsTo: ["public.plain-text", "public.log"], mimeTypes: ["text/x-log"]),
    Entry("com.apple.property-list", conformsTo: ["public.data"]),
    Entry("com.apple.xml-property-list", conformsTo: ["public.xml", "com.apple.property-list"]),

    // Contacts, calendars, messages.
    Entry("public.contact", conformsTo: []),
    Entry("public.vcard", conformsTo: ["public.text", "public.contact"], mimeTypes: ["text/vcard"]),
    Entry("public.calendar-event", conformsTo: []),
    Entry(
      "com.apple.ical.ics", conformsTo: ["public.text", "public.calendar-event"], mimeTypes: ["text/calendar"]
    ),
    Entry("public.message", conformsTo: []),
    Entry("public.email-message", conformsTo: ["public.message"], mimeTypes: ["message/rfc822"]),

    // Source code and scripts.
    Entry("public.source-code", conformsTo: ["public.plain-text"]),
    Entry("public.c-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-csrc"]),
    Entry("public.c-header", conformsTo: ["public.source-code"], mimeTypes: ["text/x-chdr"]),
    Entry("public.c-plus-plus-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-c++src"]),
    Entry("public.c-plus-plus-header", conformsTo: ["public.source-code"], mimeTypes: ["text/x-c++hdr"]),
    Entry("public.objective-c-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-objcsrc"]),
    Entry(
      "public.objective-c-plus-plus-source", conformsTo: ["public.source-code"],
      mimeTypes: ["text/x-objc++src"]),
    // shared-mime-info 2.2 has no type for Swift; `*.swift` files are `text/plain` here.
    Entry("public.swift-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-swift"]),
    Entry("com.sun.java-source", conformsTo: ["public.source-code"], mimeTypes: ["text/x-java"]),
    Entry("public.script", conformsTo: ["public.source-code"]),
    Entry("public.shell-script", conformsTo: ["public.script"], mimeTypes: ["application/x-shellscript"]),
    Entry("public.csh-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-csh"]),
    Entry(
      "public.python-script", conformsTo: ["public.shell-script"],
      mimeTypes: ["text/x-python", "text/x-python3"]),
    Entry("public.ruby-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-ruby"]),
    Entry("public.perl-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-perl"]),
    Entry("public.php-script", conformsTo: ["public.shell-script"], mimeTypes: ["application/x-php"]),
    Entry(
      "com.netscape.javascript-source", conformsTo: ["public.script", "public.executable"],
      mimeTypes: ["application/javascript", "text/javascript"]),
    Entry("public.make-source", conformsTo: ["public.script"], mimeTypes: ["text/x-makefile"]),

    // Images.
    Entry("public.image", conformsTo: ["public.data", "public.content"]),
    Entry("public.jpeg", conformsTo: ["public.image"], mimeTypes: ["image/jpeg"]),
    Entry("public.png", conformsTo: ["public.image"], mimeTypes: ["image/png"]),
    Entry("public.tiff", conformsTo: ["public.image"], mimeTypes: ["image/tiff"]),
    Entry("com.compuserve.gif", conformsTo: ["public.image"], mimeTypes: ["image/gif"]),
    Entry("com.microsoft.bmp", conformsTo: ["public.image"], mimeTypes: ["image/bmp"]),
    Entry("com.microsoft.ico", conformsTo: ["public.image"], mimeTypes: ["image/vnd.microsoft.icon"]),
    Entry("com.apple.icns", conformsTo: ["public.image"], mimeTypes: ["image/x-icns"]),
    Entry("public.jpeg-2000", conformsTo: ["public.image"], mimeTypes: ["image/jp2"]),
    Entry("public.heif-standard", conformsTo: ["public.image"]),
    // shared-mime-info calls both `image/heif` (`image/heic` is an alias). The file is nearly always
    // an iPhone's `.heic`, so rules for `public.heic` must match it: `public.heic` comes first.
    Entry("public.heic", conformsTo: ["public.heif-standard"], mimeTypes: ["image/heif", "image/heic"]),
    Entry("public.heif", conformsTo: ["public.heif-standard"], mimeTypes: ["image/heif"]),
    Entry("public.avif", conformsTo: ["public.image"], mimeTypes: ["image/avif"]),
    Entry("org.webmproject.webp", conformsTo: ["public.image"], mimeTypes: ["image/webp"]),
    Entry(
      "public.svg-image", conformsTo: ["public.image", "public.xml"],
      mimeTypes: ["image/svg+xml", "image/svg+xml-compressed"]),
    // `image/x-dcraw` is the parent of every camera's raw format in shared-mime-info.
    Entry("public.camera-raw-image", conformsTo: ["public.image"], mimeTypes: ["image/x-dcraw"]),
    Entry(
      "com.adobe.photoshop-image", conformsTo: ["public.image"], mimeTypes: ["image/vnd.adobe.photoshop"]),

    // Audio and video.
    Entry("public.audiovisual-content", conformsTo: ["public.data", "public.content"]),
    Entry("public.movie", conformsTo: ["public.audiovisual-content"]),
    Entry("public.video", conformsTo: ["public.movie"]),
    Entry("public.audio", conformsTo: ["public.audiovisual-content"]),
    Entry("com.apple.quicktime-movie", conformsTo: ["public.movie"], mimeTypes: ["video/quicktime"]),
    Entry("public.mpeg", conformsTo: ["public.movie"], mimeTypes: ["video/mpeg"]),
    Entry("public.mpeg-2-transport-stream", conformsTo: ["public.movie"], mimeTypes: ["video/mp2t"]),
    Entry("public.mpeg-4", conformsTo: ["public.movie"], mimeTypes: ["video/mp4"]),
    Entry("public.3gpp", conformsTo: ["public.movie"], mimeTypes: ["video/3gpp"]),
    Entry("public.3gpp2", conformsTo: ["public.movie"], mimeTypes: ["video/3gpp2"]),
    Entry("public.avi", conformsTo: ["public.movie"], mimeTypes: ["video/x-msvideo"]),
    Entry("org.webmproject.webm", conformsTo: ["public.movie"], mimeTypes: ["video/webm"]),
    Entry("org.matroska.mkv", conformsTo: ["public.movie"], mimeTypes: ["video/x-matroska"]),
    Entry("public.mp3", conformsTo: ["public.audio"], mimeTypes: ["audio/mpeg"]),
    Entry("public.mpeg-4-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/mp4"]),
    Entry("public.aac-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/aac"]),
    Entry("public.aifc-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/x-aifc"]),
    Entry("public.aiff-audio", conformsTo: ["public.aifc-audio"], mimeTypes: ["audio/x-aiff"]),
    Entry(
      "com.microsoft.waveform-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/x-wav", "audio/wav"]),
    Entry("public.midi-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/midi"]),
    Entry("public.au-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/basic"]),
    Entry("org.xiph.flac", conformsTo: ["public.audio"], mimeTypes: ["audio/flac"]),
    Entry("org.xiph.ogg-audio", conformsTo: ["public.audio"], mimeTypes: ["audio/ogg"]),
    Entry("public.playlist", conformsTo: []),
    Entry(
      "public.m3u-playlist", conformsTo: ["public.plain-text", "public.playlist"],
      mimeTypes: ["audio/x-mpegurl", "application/vnd.apple.mpegurl"]),
    Entry(
      "public.pls-playlist", conformsTo: ["public.text", "public.playlist"], mimeTypes: ["audio/x-scpls"]),

    // Documents.
    Entry(
      "com.adobe.pdf", conformsTo: ["public.data", "public.composite-content"], mimeTypes: ["application/pdf"]
    ),
    Entry("public.spreadsheet", conformsTo: ["public.content"]),
    Entry("public.presentation", conformsTo: ["public.composite-content"]),
    Entry("org.openxmlformats.openxml", conformsTo: ["public.data"]),
    Entry(
      "org.openxmlformats.wordprocessingml.document",
      conformsTo: ["org.openxmlformats.openxml", "public.composite-content"],
      mimeTypes: ["application/vnd.openxmlformats-officedocument.wordprocessingml.document"]),
    Entry(
      "org.openxmlformats.spreadsheetml.sheet",
      conformsTo: ["org.openxmlformats.openxml", "public.spreadsheet", "public.composite-content"],
      mimeTypes: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"]),
    Entry(
      "org.openxmlformats.presentationml.presentation",
      conformsTo: ["org.openxmlformats.openxml", "public.presentation"],
      mimeTypes: ["application/vnd.openxmlformats-officedocument.presentationml.presentation"]),
    Entry(
      "com.microsoft.word.doc", conformsTo: ["public.data", "public.composite-content"],
      mimeTypes: ["application/msword"]),
    Entry(
      "com.microsoft.excel.xls",
      conformsTo: ["public.data", "public.spreadsheet", "public.composite-content"],
      mimeTypes: ["application/vnd.ms-excel"]),
    Entry(
      "com.microsoft.powerpoint.ppt", conformsTo: ["public.data", "public.presentation"],
      mimeTypes: ["application/vnd.ms-powerpoint"]),
    Entry("org.oasis-open.opendocument", conformsTo: ["public.data"]),
    Entry(
      "org.oasis-open.opendocument.text",
      conformsTo: ["org.oasis-open.opendocument", "public.composite-content"],
      mimeTypes: ["application/vnd.oasis.opendocument.text"]),
    Entry(
      "org.oasis-open.opendocument.spreadsheet",
      conformsTo: ["org.oasis-open.opendocument", "public.spreadsheet", "public.composite-content"],
      mimeTypes: ["application/vnd.oasis.opendocument.spreadsheet"]),
    Entry(
      "org.oasis-open.opendocument.presentation",
      conformsTo: ["org.oasis-open.opendocument", "public.presentation"],
      mimeTypes: ["application/vnd.oasis.opendocument.presentation"]),
    Entry(
      "org.idpf.epub-container", conformsTo: ["public.data", "public.composite-content"],
      mimeTypes: ["application/epub+zip"]),

    // Archives.
    Entry("public.archive", conformsTo: []),
    Entry("com.pkware.zip-archive", conformsTo: ["public.data", "public.archive"]),
    Entry("public.zip-archive", conformsTo: ["com.pkware.zip-archive"], mimeTypes: ["application/zip"]),
    Entry(
      "org.gnu.gnu-zip-archive", conformsTo: ["public.data", "public.archive"],
      mimeTypes: ["application/gzip", "application/x-gzip"]),
    Entry(
      "org.gnu.gnu-zip-tar-archive", conformsTo: ["org.gnu.gnu-zip-archive"],
      mimeTypes: ["application/x-compressed-tar"]),
    Entry("org.gnu.gnu-tar-archive", conformsTo: ["public.data", "public.archive"]),
    Entry("public.tar-archive", conformsTo: ["org.gnu.gnu-tar-archive"], mimeTypes: ["application/x-tar"]),
    Entry(
      "public.bzip2-archive", conformsTo: ["public.data", "public.archive"],
      mimeTypes: ["application/x-bzip", "application/x-bzip2"]),
    Entry(
      "public.tar-bzip2-archive", conformsTo: ["public.bzip2-archive"],
      mimeTypes: ["application/x-bzip-compressed-tar", "application/x-bzip2-compressed-tar"]),
    Entry(
      "org.tukaani.xz-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/x-xz"]
    ),
    Entry(
      "org.tukaani.tar-xz-archive", conformsTo: ["org.tukaani.xz-archive"],
      mimeTypes: ["application/x-xz-compressed-tar"]),
    Entry(
      "org.7-zip.7-zip-archive", conformsTo: ["public.data", "public.archive"],
      mimeTypes: ["application/x-7z-compressed"]),
    Entry(
      "com.rarlab.rar-archive", conformsTo: ["public.data", "public.archive"],
      mimeTypes: ["application/vnd.rar", "application/x-rar"]),
    Entry(
      "public.cpio-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/x-cpio"]),
    Entry(
      "public.z-archive", conformsTo: ["public.data", "public.archive"], mimeTypes: ["application/x-compress"]
    ),
    Entry(
      "com.sun.java-archive", conformsTo: ["public.zip-archive", "public.executable"],
      mimeTypes: ["application/x-java-archive"]),

    // Fonts.
    Entry("public.font", conformsTo: ["public.data"]),
    Entry("public.truetype-font", conformsTo: ["public.font"]),
    Entry("public.truetype-ttf-font", conformsTo: ["public.truetype-font"], mimeTypes: ["font/ttf"]),
    Entry(
      "public.truetype-collection-font", conformsTo: ["public.truetype-font"], mimeTypes: ["font/collection"]),
    Entry("public.opentype-font", conformsTo: ["public.font"], mimeTypes: ["font/otf"]),

    // Certificates.
    Entry(
      "public.x509-certificate", conformsTo: ["public.data"],
      mimeTypes: ["application/pkix-cert", "application/x-x509-ca-cert"]),
    Entry(
      "com.rsa.pkcs-12", conformsTo: ["public.data"],
      mimeTypes: ["application/pkcs12", "application/x-pkcs12"]),
  ])
}
