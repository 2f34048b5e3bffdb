// An extension with a sheet imports ShareKitUI alone: ShareKit's context and items, and the
// widgets it fills its own sheet or configuration pages with (ShareGtk's Swift types; no C).
@_exported public import ShareGtk
@_exported public import ShareKit
