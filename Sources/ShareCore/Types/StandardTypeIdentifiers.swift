extension UTITable {
  /// Apple's public type identifiers with their hierarchy and MIME types.
  public static let standard = UTITable(entries: [
    Entry("public.item", conformsTo: []),
    Entry("public.content", conformsTo: []),
    Entry("public.data", conformsTo: ["public.item"], mimeTypes: ["application/octet-stream"]),
    Entry("public.image", conformsTo: ["public.data", "public.content"]),
    Entry("public.png", conformsTo: ["public.image"], mimeTypes: ["image/png"]),
    Entry("public.jpeg", conformsTo: ["public.image"], mimeTypes: ["image/jpeg"]),
    Entry("public.movie", conformsTo: ["public.audiovisual-content"]),
    Entry("public.audiovisual-content", conformsTo: ["public.data", "public.content"]),
    Entry("public.text", conformsTo: ["public.data", "public.content"]),
    Entry("public.plain-text", conformsTo: ["public.text"], mimeTypes: ["text/plain"]),
    Entry("public.url", conformsTo: ["public.data"]),
    Entry("public.folder", conformsTo: ["public.directory"], mimeTypes: ["inode/directory"]),
    Entry("public.directory", conformsTo: ["public.item"]),
    Entry("com.adobe.pdf", conformsTo: ["public.data", "public.composite-content"], mimeTypes: ["application/pdf"]),
    Entry("public.composite-content", conformsTo: ["public.content"]),
  ])
}
