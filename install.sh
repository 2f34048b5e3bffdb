#!/usr/bin/env bash
# Builds and installs xdg-share, or (with --test) runs its whole test suite.
#
#   ./install.sh                 install for this user: ~/.local/bin/xdg-share, services in
#                                ~/.local/share/xdg-share/extensions
#   PREFIX=/opt/x ./install.sh   install under another prefix
#   ./install.sh --system        install for everyone under /usr/local (run as root)
#   ./install.sh --test          install what the tests need and run them all
set -euo pipefail
cd "$(dirname "$0")"

mode=install
system=false
for argument in "$@"; do
  case "$argument" in
    --test) mode=test ;;
    --system) system=true ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown argument '$argument'" >&2; exit 2 ;;
  esac
done

say() { printf '==> %s\n' "$*"; }

# Debian packages, installed only when missing; `apt-get update` first, since a new machine starts
# with empty package lists.
# What building needs (GTK 4 and libadwaita for the share sheet, libsecret for the keyring,
# libseccomp for the sandbox's seccomp filter), what the bundled services use at run time
# (xdg-email, xdg-open), and the sandbox every service runs in, which is not optional (bubblewrap,
# and xdg-dbus-proxy for a service entitled to names on the session bus); binutils strips what is
# installed.
build_packages=(pkg-config binutils libglib2.0-dev libdbus-1-dev libcurl4-openssl-dev libsecret-1-dev shared-mime-info
  libseccomp-dev libglib2.0-bin dbus
  xdg-utils man-db libgtk-4-dev libadwaita-1-dev adwaita-icon-theme bubblewrap xdg-dbus-proxy)
# The tests run real components: a private dbus-daemon and python3-dbus as an outside client,
# desktop-file-validate, lighttpd as a WebDAV server, xclip under Xvfb, qrencode and zbarimg,
# real file managers under Xvfb, the share sheet driven through the accessibility bus (AT-SPI), and
# gnome-keyring as a real Secret Service on the private bus (secret-tool as a second client), KDE
# Purpose (Dolphin's Share menu, Okular's; its job dialog needs Kirigami, which Debian's Purpose
# does not depend on) and what builds a small host of its library for the
# tests (Tests/Tools/purpose-driver), and web pages' navigator.share in Chromium (chromedriver,
# Selenium) and Firefox ESR (its own WebDriver BiDi, over websocket-client), and sandboxed apps
# in a sandbox made of Flatpak's own parts (bubblewrap, xdg-dbus-proxy), with the document portal
# (xdg-desktop-portal's xdg-document-portal, which needs FUSE).
test_packages=(dbus-daemon desktop-file-utils python3-dbus python3-gi xvfb xclip qrencode zbar-tools
  gnome-keyring libsecret-tools
  at-spi2-core python3-pyatspi gir1.2-atspi-2.0
  lighttpd lighttpd-mod-webdav xdotool imagemagick tesseract-ocr thunar pcmanfm libfm-modules nemo caja caja-actions
  nautilus python3-nautilus librsvg2-common dolphin fonts-dejavu-core bash-completion
  libkf5purpose-bin qml-module-org-kde-purpose qml-module-org-kde-kirigami2 okular
  libkf5purpose-dev libkf5kio-dev qtbase5-dev cmake extra-cmake-modules g++
  chromium chromium-driver python3-selenium python3-websocket firefox-esr
  bubblewrap xdg-dbus-proxy xdg-desktop-portal fuse3)
ensure_packages() {
  local missing=()
  for package in "$@"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # lighttpd is wanted as a program the tests start, not as a web server on port 80.
  if [[ " ${missing[*]} " == *" lighttpd "* ]] && command -v systemctl >/dev/null \
    && systemctl is-system-running >/dev/null 2>&1; then
    "${sudo[@]}" systemctl disable --now lighttpd >/dev/null 2>&1 || true
  fi
}

if ! command -v swift >/dev/null; then
  echo "install.sh: the Swift toolchain (swift) is not on PATH; see https://swift.org/install" >&2
  exit 1
fi

if [ "$mode" = test ]; then
  ensure_packages "${build_packages[@]}" "${test_packages[@]}"
  say "building and running the tests"
  # The tests start their own private bus where they need one; none of them may reach the
  # developer's session bus or desktop.
  unset DBUS_SESSION_BUS_ADDRESS DISPLAY WAYLAND_DISPLAY
  say "checking the format"
  swift format lint --strict -r Sources Tests Benchmarks examples Package.swift Fuzz/Targets Fuzz/Package.swift
  say "checking that every target declares what it imports"
  Tests/Scripts/check-imports.py
  # Warnings are errors here rather than in Package.swift, which a package depended on by
  # version may not carry (unsafe flags).
  swift build --build-tests -Xswiftc -warnings-as-errors
  swift test -Xswiftc -warnings-as-errors
  # The core targets (the protocol, the core, the host, the wrappers, ShareKit, the D-Bus service)
  # again under AddressSanitizer, in a build folder of its own. ThreadSanitizer is run by hand
  # (Tests/Scripts/sanitize.sh thread): it cannot see the futex under Swift's Mutex contended, so
  # its reports there come and go with timing. Both: docs/reliability.md.
  say "running the core targets under AddressSanitizer"
  Tests/Scripts/sanitize.sh address
  say "building a ShareKit extension that depends on this package by version"
  Tests/Scripts/depend-by-version.sh
  # Each parser and generator under libFuzzer briefly (a few minutes with the build); a crash or
  # a broken round trip fails the run and is saved in Fuzz/crashes/. Longer runs: docs/reliability.md.
  say "fuzzing each parser for 10 s"
  Fuzz/run.sh 10
  exit 0
fi

ensure_packages "${build_packages[@]}"

if [ "$system" = true ]; then
  PREFIX=${PREFIX:-/usr/local}
  data_dir="$PREFIX/share"
else
  PREFIX=${PREFIX:-$HOME/.local}
  data_dir="${XDG_DATA_HOME:-$HOME/.local/share}"
fi
bin_dir="$PREFIX/bin"

say "building (release)"
swift build -c release --static-swift-stdlib --product xdg-share
swift build -c release --static-swift-stdlib --product xdg-share-services
swift build -c release --static-swift-stdlib --product xdg-share-sheet
swift build -c release --static-swift-stdlib --product xdg-share-guard
swift build -c release --static-swift-stdlib --product xdg-share-purpose
swift build -c release --static-swift-stdlib --product xdg-share-webshare
build_dir="$(swift build -c release --static-swift-stdlib --show-bin-path)"

# Each program is copied beside its old self and renamed over it: a running one is never cut.
# Installed stripped: the symbol tables are half of a static Swift binary and no one at a desktop
# reads them (the build folder keeps the unstripped programs for debugging).
install_program() { # source destination
  mkdir -p "$(dirname "$2")"
  install -s -m 0755 "$1" "$2.new"
  mv -f "$2.new" "$2"
}
say "installing $bin_dir/xdg-share"
install_program "$build_dir/xdg-share" "$bin_dir/xdg-share"
libexec_dir="$PREFIX/libexec/xdg-share"
install_program "$build_dir/xdg-share-services" "$libexec_dir/xdg-share-services"
# The share sheet, the one program that links GTK; xdg-share finds it here.
install_program "$build_dir/xdg-share-sheet" "$libexec_dir/xdg-share-sheet"
# What every request's program runs under, so that it ends with its host (docs/reliability.md).
install_program "$build_dir/xdg-share-guard" "$libexec_dir/xdg-share-guard"
# KDE applications' Share menus run it, through the Purpose plugins `register` writes.
install_program "$build_dir/xdg-share-purpose" "$libexec_dir/xdg-share-purpose"
# Web pages' navigator.share, through the browser extension: the browsers start it by the
# manifests `register` writes (docs/web-share.md).
install_program "$build_dir/xdg-share-webshare" "$libexec_dir/xdg-share-webshare"

extensions="$data_dir/xdg-share/extensions"
if [ -d data/extensions ] && compgen -G 'data/extensions/*.shareext' >/dev/null; then
  say "installing the bundled share services into $extensions"
  mkdir -p "$extensions"
  for bundle in data/extensions/*.shareext; do
    name=$(basename "$bundle")
    rm -rf "$extensions/$name.new"
    cp -R "$bundle" "$extensions/$name.new"
    # The bundled services share one program, installed once.
    [ -e "$bundle/share" ] || ln -s "$libexec_dir/xdg-share-services" "$extensions/$name.new/share"
    rm -rf "$extensions/$name"
    mv "$extensions/$name.new" "$extensions/$name"
  done
fi

# The browser extension, to load unpacked from here (docs/web-share.md); its packed archive is
# made by data/browser-extension/pack.py.
web_extension="$data_dir/xdg-share/browser-extension"
say "installing the Web Share browser extension into $web_extension"
rm -rf "$web_extension.new"
mkdir -p "$web_extension.new"
for file in data/browser-extension/manifest.json data/browser-extension/*.js; do
  install -m 0644 "$file" "$web_extension.new/$(basename "$file")"
done
rm -rf "$web_extension"
mv "$web_extension.new" "$web_extension"

# The D-Bus interfaces, where code generators (gdbus-codegen, zbus) and D-Feet look for them.
interfaces="$data_dir/dbus-1/interfaces"
mkdir -p "$interfaces"
for file in data/org.xdgshare.Share1.xml data/org.xdgshare.Request1.xml; do
  install -m 0644 "$file" "$interfaces/$(basename "$file")"
done

# The manual page and the bash, zsh and fish completions: generated from the tables of the
# parser and --help (`xdg-share man`, `xdg-share completion SHELL`), checked in under data/.
# man finds $PREFIX/share/man through $PREFIX/bin on PATH (~/.local/bin for this user).
install_data() { # source destination
  mkdir -p "$(dirname "$2")"
  install -m 0644 "$1" "$2.new"
  mv -f "$2.new" "$2"
}
say "installing the manual page xdg-share(1) and the shell completions"
install_data data/man/xdg-share.1 "$PREFIX/share/man/man1/xdg-share.1"
install_data data/completions/xdg-share.bash "$data_dir/bash-completion/completions/xdg-share"
install_data data/completions/_xdg-share "$data_dir/zsh/site-functions/_xdg-share"
install_data data/completions/xdg-share.fish "$data_dir/fish/vendor_completions.d/xdg-share.fish"

# Share in every file manager's menu, and the D-Bus activation file; `register` owns those files
# and keeps them in step with the installed services from now on.
say "adding Share to the file managers"
if [ "$system" = true ]; then
  XDG_DATA_DIRS="$data_dir:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" "$bin_dir/xdg-share" register --system
else
  "$bin_dir/xdg-share" register
fi

say "done: $("$bin_dir/xdg-share" --version)"
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "note: $bin_dir is not on your PATH; add it, e.g. in ~/.profile: PATH=\"$bin_dir:\$PATH\"" ;;
esac
