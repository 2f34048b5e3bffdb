/// The files `xdg-share new --swift|--shell|--python` writes, as text. Each program speaks the
/// plugin protocol (docs/plugin-protocol.md): it reads the request, reports progress, looks at
/// every file (decoding its `file://` URL to the exact bytes of its path) and link, and completes
/// with a one-line summary, which `xdg-share` prints.
enum NewTemplates {
  /// What the templates accept, said in the bundle's own words.
  static let ruleComment =
    "What the service accepts (docs/activation-rules.md): text, up to 10 links, up to 100 files."

  /// The bundle's Info.plist; `programs` are programs it needs on `PATH`.
  static func infoPlist(name: String, identifier: String, programs: [String]) -> String {
    let required =
      programs.isEmpty
      ? ""
      : "\n  <key>XDGShareRequiredPrograms</key>   <array>"
        + programs.map { "<string>\($0)</string>" }.joined() + "</array>"
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
        <key>CFBundleIdentifier</key>         <string>\(identifier)</string>
        <key>CFBundleDisplayName</key>        <string>\(name)</string>
        <key>CFBundleExecutable</key>         <string>\(name)</string>
        <key>CFBundleShortVersionString</key> <string>1.0</string>
        <key>CFBundleVersion</key>            <string>1</string>\(required)
        <key>NSExtension</key>
        <dict>
          <key>NSExtensionPointIdentifier</key> <string>com.apple.share-services</string>
          <key>NSExtensionAttributes</key>
          <dict>
            <!-- \(ruleComment) -->
            <key>NSExtensionActivationRule</key>
            <dict>
              <key>NSExtensionActivationSupportsText</key>               <true/>
              <key>NSExtensionActivationSupportsWebURLWithMaxCount</key> <integer>10</integer>
              <key>NSExtensionActivationSupportsFileWithMaxCount</key>   <integer>100</integer>
            </dict>
          </dict>
        </dict>
      </dict>
      </plist>

      """
  }

  // MARK: sh

  static func shell(name: String) -> String {
    #"""
    #!/bin/sh
    # \#(name): a share service for xdg-share, in POSIX sh (awk, no jq). The host writes the request,
    # one line of JSON, on standard input and reads events, one JSON object a line, on standard
    # output; what this writes on standard error goes to the request's log. The plugin protocol:
    # docs/plugin-protocol.md in xdg-share's repository.
    set -eu

    request=$(cat)

    # Every "url" of the request, one a line: files' and links'. A file's URL is percent-encoded
    # byte by byte, so it holds no quote, backslash or line break; a link's \" and \/ are undone.
    # (Texts come as "text", JSON-escaped: decode them with python3 or jq when you need them.)
    urls() {
      printf '%s\n' "$request" | awk '{
        rest = $0
        while (match(rest, /"url"[ \t]*:[ \t]*"([^"\\]|\\.)*"/)) {
          value = substr(rest, RSTART + 1, RLENGTH - 2)
          rest = substr(rest, RSTART + RLENGTH)
          sub(/^url"[ \t]*:[ \t]*"/, "", value)
          gsub(/\\\//, "/", value)
          gsub(/\\"/, "\"", value)
          print value
        }
      }'
    }

    # The path a file:// URL names, byte for byte: each %XX becomes the byte XX (through printf's
    # octal escapes), so a name with a line break or bytes that are not UTF-8 works too. Other
    # than %XX the URL holds only A-Z a-z 0-9 - . _ ~ /, which printf prints as they are. The x
    # keeps a trailing line break from being cut by $( ); the caller removes it.
    file_path() {
      format=$(printf '%s' "${1#file://}" | awk '
        BEGIN {
          for (i = 0; i < 16; i++) {
            hex[substr("0123456789abcdef", i + 1, 1)] = i
            hex[substr("0123456789ABCDEF", i + 1, 1)] = i
          }
        }
        {
          out = ""
          rest = $0
          while ((at = index(rest, "%")) > 0) {
            out = out substr(rest, 1, at - 1)
            code = substr(rest, at + 1, 2)
            out = out sprintf("\\%03o", hex[substr(code, 1, 1)] * 16 + hex[substr(code, 2, 1)])
            rest = substr(rest, at + 3)
          }
          printf "%s", out rest
        }')
      # shellcheck disable=SC2059 # the format is the path, made into printf's escapes above
      printf "${format}x"
    }

    total=$(urls | wc -l)
    number=0 files=0 bytes=0 links=0
    while IFS= read -r url; do
      [ -n "$url" ] || continue
      number=$((number + 1))
      printf '{"progress": %s, "message": "Looking at %d of %d"}\n' \
        "$(awk "BEGIN { print $number / $total }")" "$number" "$total"
      case $url in
        file://*)
          path=$(file_path "$url")
          path=${path%x}
          files=$((files + 1))
          if [ -f "$path" ]; then
            size=$(wc -c <"$path" | tr -d ' ')
            bytes=$((bytes + size))
            printf '%s: %s bytes\n' "$path" "$size" >&2
          fi
          ;;
        *) links=$((links + 1)) ;;
      esac
    done <<EOF
    $(urls)
    EOF

    # What the service returns: xdg-share prints each returned text, link or path. To give up
    # instead, write {"cancel": {"error": {"code": 1, "message": "why"}}}.
    printf '{"complete": {"returningItems": [{"attachments": [{"typeIdentifiers": ["public.plain-text", "text/plain"], "text": "%d files (%d bytes), %d links"}]}]}}\n' \
      "$files" "$bytes" "$links"

    """#
  }

  // MARK: Python

  static func python(name: String) -> String {
    #"""
    #!/usr/bin/env python3
    """\#(name): a share service for xdg-share, in Python 3 with the standard library alone.

    The host writes the request, one JSON object, on standard input and reads events, one JSON
    object a line, on standard output; what this writes on standard error goes to the request's
    log. The plugin protocol: docs/plugin-protocol.md in xdg-share's repository.
    """

    import json
    import os
    import sys
    import urllib.parse


    def send(event):
        """Writes one event: a line of JSON on standard output, at once."""
        print(json.dumps(event), flush=True)


    request = json.load(sys.stdin)
    attachments = [attachment for item in request["inputItems"] for attachment in item["attachments"]]
    files = links = texts = size = 0
    for number, attachment in enumerate(attachments, start=1):
        send({"progress": number / len(attachments), "message": f"Looking at {number} of {len(attachments)}"})
        if "text" in attachment:
            texts += 1
        elif attachment["url"].startswith("file://"):
            # The URL is percent-encoded byte by byte: decode it to bytes, and any name works.
            path = urllib.parse.unquote_to_bytes(attachment["url"][len("file://"):])
            files += 1
            if os.path.isfile(path):
                size += os.path.getsize(path)
                # The log gets the name's bytes as they are.
                sys.stderr.buffer.write(path + b": %d bytes\n" % os.path.getsize(path))
        else:
            links += 1

    # What the service returns: xdg-share prints each returned text, link or path. To give up
    # instead, send {"cancel": {"error": {"code": 1, "message": "why"}}}.
    summary = f"{files} files ({size} bytes), {links} links, {texts} texts"
    send({"complete": {"returningItems": [{"attachments": [
        {"typeIdentifiers": ["public.plain-text", "text/plain"], "text": summary}]}]}})

    """#
  }

  // MARK: Swift

  /// The program a Swift bundle holds until it is built: it cancels, saying how to build.
  static func unbuilt(name: String) -> String {
    """
    #!/bin/sh
    # Stands in for the Swift program until it is built: \(name)/build.sh builds it and puts it here.
    cat >/dev/null
    printf '%s\\n' '{"cancel": {"error": {"code": 1, "message": "not built yet: run \(name)/build.sh"}}}'

    """
  }

  /// `Package.swift`, depending on ShareKit from `url` (a package whose identity is `identity`)
  /// by version.
  static func package(name: String, url: String, identity: String, version: String) -> String {
    """
    // swift-tools-version:6.0
    // \(name): a share service for xdg-share. ./build.sh builds it into ../\(name).shareext.
    import PackageDescription

    let package = Package(
      name: "\(name)",
      dependencies: [.package(url: "\(url)", from: "\(version)")],
      targets: [
        .executableTarget(name: "\(name)", dependencies: [.product(name: "ShareKit", package: "\(identity)")])
      ]
    )

    """
  }

  /// `Sources/NAME/NAME.swift`; `type` is the name as a Swift type name.
  static func swift(name: String, type: String) -> String {
    """
    import ShareKit

    /// \(name): a share service for xdg-share. ShareKit reads the request, calls `perform(context:)`
    /// and writes the events; `print` goes to the request's log.
    @main
    struct \(type): ShareExtension {
      func perform(context: ExtensionContext) async throws {
        let attachments = context.inputItems.flatMap(\\.attachments)
        var files = 0
        var links = 0
        var texts = 0
        var size: UInt64 = 0
        for (number, attachment) in attachments.enumerated() {
          context.setProgress(
            Double(number + 1) / Double(attachments.count),
            message: "Looking at \\(number + 1) of \\(attachments.count)")
          if attachment.isFile {
            // filePathBytes is the path byte for byte, whatever the name; fileURL works for UTF-8 names.
            files += 1
            size += attachment.size ?? 0
            print("\\(attachment.name ?? "a file"): \\(attachment.size ?? 0) bytes")
          } else if attachment.text != nil {
            texts += 1
          } else {
            links += 1
          }
        }
        // What the service returns: xdg-share prints each returned text, link or path. Throwing
        // an error instead cancels the request with its message.
        let summary = "\\(files) files (\\(size) bytes), \\(links) links, \\(texts) texts"
        context.completeRequest(returningItems: [ExtensionItem(attachments: [ItemProvider(text: summary)])])
      }
    }

    """
  }

  /// `build.sh`: builds in release mode and copies the program into the bundle, from any folder.
  static func buildScript(name: String) -> String {
    """
    #!/bin/sh
    # Builds \(name) in release mode and copies the program into ../\(name).shareext.
    set -eu
    package=$(dirname "$0")
    swift build -c release --package-path "$package"
    cp "$(swift build -c release --package-path "$package" --show-bin-path)/\(name)" "$package/../\(name).shareext/\(name)"

    """
  }

  /// The stub `--from-xcode` puts where the bundle's program goes.
  static let notPorted = """
    #!/bin/sh
    # Written by xdg-share new --from-xcode: the program of this service is not ported yet.
    # Replace this file with one that speaks the plugin protocol (docs/plugin-protocol.md);
    # xdg-share new --shell, --python or --swift write working examples.
    cat >/dev/null
    printf '%s\\n' '{"cancel": {"error": {"code": 1, "message": "not ported yet"}}}'

    """
}
