// The plugin protocol's values are ShareKit's API (`SharedDefaults` holds `JSONValue`s, a
// request's `userInfo` is one): an extension that imports ShareKit sees them, their cases and
// members, without naming the module they are defined in.
@_exported public import ShareProtocol
