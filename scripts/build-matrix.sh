#!/usr/bin/env bash
# Builds the generator matrix of issue #14: real documentation sites made by real
# tools, served on loopback by tests/fixtures/matrix.ts. Everything lands in
# .cache/matrix (sites, the sanitized Markdown they were built from, matrix.json);
# the SSGs are installed from scripts/matrix/<ssg>/package-lock.json into
# .cache/matrix-build/<ssg>, never into the project. Only Debian packages and the
# npm registry are used. A site is rebuilt only when its inputs change (.done holds
# their hash), so a warm run takes seconds. One line per site.
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/.cache/matrix
build=$PWD/.cache/matrix-build
debs=$PWD/.cache/debs
mkdir -p "$out" "$build" "$debs"
# Tests and benchmarks may start this at the same time: one build at a time, the others wait.
exec 9>"$PWD/.cache/matrix.lock"
flock 9
# No build may phone home: no telemetry, no update checks, no font CDNs (see prepare.mjs).
export DEBIAN_FRONTEND=noninteractive ASTRO_TELEMETRY_DISABLED=1 NO_UPDATE_NOTIFIER=1 \
  npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_loglevel=error

bash scripts/fetch-docs.sh >/dev/null # the Node corpus comes from nodejs-doc

hash() { { for f in "$@"; do if [ -f "$f" ]; then cat "$f"; else echo "$f"; fi; done; } | sha256sum | cut -c1-16; }

# site ID HASH CMD...: runs CMD (which fills $out/ID) unless ID was built from the same inputs.
# CMD runs under `if`, where set -e is off: build steps are chained with &&.
site() {
  local id=$1 key="$2 $PWD" t0=$SECONDS # entries hold absolute paths: a moved tree rebuilds
  shift 2
  if [ "$(cat "$out/$id/.done" 2>/dev/null)" != "$key" ]; then
    rm -f "$out/$id/.done"
    mkdir -p "$out/$id"
    if ! "$@" >"$out/$id.log" 2>&1; then
      echo "$id: FAILED (log: $out/$id.log)"; tail -n 30 "$out/$id.log"; exit 1
    fi
    echo "$key" >"$out/$id/.done"
    echo "$id: $(pages "$id") pages, built in $((SECONDS - t0)) s"
  else
    echo "$id: $(pages "$id") pages, up to date"
  fi
}
pages() { find -L "$(grep -o '"root": *"[^"]*"' "$out/$1/entry.json" | sed 's/.*"\([^"]*\)"$/\1/')" -name '*.html' 2>/dev/null | wc -l; }

deb() { # deb PKG: the downloaded .deb's path (downloads it once)
  local f; f=$(ls "$debs/$1"_*.deb 2>/dev/null | head -n 1 || true)
  if [ -z "$f" ]; then
    (cd "$debs" && apt-get download "$1" >/dev/null 2>&1) || { apt-get update -qq && (cd "$debs" && apt-get download "$1" >/dev/null); }
    f=$(ls "$debs/$1"_*.deb | head -n 1)
  fi
  echo "$f"
}

# entry ID ROOT JSON-FIELDS: a prebuilt site's entry (ROOT is the directory served).
entry() { printf '{\n  "id": "%s",\n  "root": "%s",\n%s\n}\n' "$1" "$2" "$3" >"$out/$1/entry.json"; }

unpack() { rm -rf "$out/$1/pkg" && mkdir -p "$out/$1/pkg" && dpkg-deb -x "$2" "$out/$1/pkg"; }

# --- Prebuilt HTML from Debian. topSections and siteName were read once off each start page.

# Sphinx's own docs, theme "sphinx13": the sidebar's "Site navigation" captions on index.html.
SPHINX='  "family": "Sphinx (sphinx13 theme)", "host": "sphinx-doc.matrix.test", "startPath": "/", "siteName": "Sphinx",
  "topSections": ["Get started", "User Guides", "Community", "Reference"]'
build_sphinx() { unpack sphinx-doc "$1" && entry sphinx-doc "$out/sphinx-doc/pkg/usr/share/doc/sphinx-doc/html" "$SPHINX"; }
d=$(deb sphinx-doc); site sphinx-doc "$(hash "$d" "$SPHINX")" build_sphinx "$d"

# Flask, the Pallets "flask" theme (pocoo): the H2s of index.html's table of contents. Has a 404.html.
FLASK='  "family": "Sphinx (Pallets flask theme)", "host": "flask.matrix.test", "startPath": "/", "siteName": "Flask",
  "topSections": ["User’s Guide", "API Reference", "Additional Notes"]'
build_flask() { unpack flask "$1" && entry flask "$out/flask/pkg/usr/share/doc/python-flask-doc/html" "$FLASK"; }
d=$(deb python-flask-doc); site flask "$(hash "$d" "$FLASK")" build_flask "$d"

# Requests, theme alabaster: the H2s of index.html that list pages ("Beloved Features" lists none).
REQUESTS='  "family": "Sphinx (alabaster)", "host": "requests.matrix.test", "startPath": "/", "siteName": "Requests",
  "topSections": ["The User Guide", "The Community Guide", "The API Documentation / Guide", "The Contributor Guide"]'
build_requests() { unpack requests "$1" && entry requests "$out/requests/pkg/usr/share/doc/python-requests-doc/html" "$REQUESTS"; }
d=$(deb python-requests-doc); site requests "$(hash "$d" "$REQUESTS")" build_requests "$d"

# The Rust Reference (mdBook) from rust-doc; never rust-doc's book/ (reserved for independent checks).
# topSections: the sidebar's top-level chapters that have sub-chapters (leaf chapters sit between them).
MDBOOK='  "family": "mdBook", "host": "mdbook-reference.matrix.test", "startPath": "/", "siteName": "The Rust Reference",
  "topSections": ["Lexical structure", "Macros", "Items", "Attributes", "Statements and expressions", "Type system", "Names", "Memory model", "Unsafety", "Appendices"]'
build_mdbook() {
  rm -rf "$out/mdbook-reference/pkg" && mkdir -p "$out/mdbook-reference/pkg" &&
    dpkg-deb --fsys-tarfile "$1" | tar -x -C "$out/mdbook-reference/pkg" ./usr/share/doc/rust-doc/html/reference &&
    entry mdbook-reference "$out/mdbook-reference/pkg/usr/share/doc/rust-doc/html/reference" "$MDBOOK"
}
d=$(deb rust-doc); site mdbook-reference "$(hash "$d" "$MDBOOK")" build_mdbook "$d"

# Git's manual pages and guides (AsciiDoc 10). index.html is git(1); its H2 groups that link pages.
GIT='  "family": "AsciiDoc", "host": "git-doc.matrix.test", "startPath": "/", "siteName": "Git",
  "topSections": ["High-level commands (porcelain)", "Low-level commands (plumbing)", "Guides", "Repository, command and file interfaces", "File formats, protocols and other developer interfaces"]'
build_git() { unpack git-doc "$1" && entry git-doc "$out/git-doc/pkg/usr/share/doc/git-doc" "$GIT"; }
d=$(deb git-doc); site git-doc "$(hash "$d" "$GIT")" build_git "$d"

# jsoup's API docs (Javadoc, as Debian builds them). The overview's package table (the top nav has no groups).
JAVADOC='  "family": "Javadoc", "host": "javadoc-jsoup.matrix.test", "startPath": "/", "siteName": "jsoup",
  "topSections": ["org.jsoup", "org.jsoup.examples", "org.jsoup.helper", "org.jsoup.internal", "org.jsoup.nodes", "org.jsoup.parser", "org.jsoup.safety", "org.jsoup.select"]'
build_javadoc() { unpack javadoc-jsoup "$1" && entry javadoc-jsoup "$out/javadoc-jsoup/pkg/usr/share/doc/libjsoup-java/api" "$JAVADOC"; }
d=$(deb libjsoup-java-doc); site javadoc-jsoup "$(hash "$d" "$JAVADOC")" build_javadoc "$d"

# json-c's API docs (Doxygen 1.9). The tabs are drawn by menu.js from menudata.js: its top
# level after "Main Page". The static HTML has no nav, so a crawl follows content links only.
DOXYGEN='  "family": "Doxygen", "host": "doxygen-json-c.matrix.test", "startPath": "/", "siteName": "json-c",
  "topSections": ["Related Pages", "Data Structures", "Files"]'
build_doxygen() { unpack doxygen-json-c "$1" && entry doxygen-json-c "$out/doxygen-json-c/pkg/usr/share/doc/libjson-c-dev/html" "$DOXYGEN"; }
d=$(deb libjson-c-doc); site doxygen-json-c "$(hash "$d" "$DOXYGEN")" build_doxygen "$d"

# --- More families, prebuilt by Debian (issue #32). topSections were read once off each start page.

# Debian compresses large files under /usr/share/doc; the generator wrote them as plain HTML.
gunzip_html() { find "$1" -name '*.html.gz' -exec gunzip -f {} +; }

# The MIT/GNU Scheme User's Manual: GNU Texinfo 6.8, split per node (each page opens with the
# "Next: … Previous: … Up: …" node bar). index.html's Table of Contents: the chapters that have
# sub-nodes, without their numbers.
TEXINFO='  "family": "GNU Texinfo", "host": "texinfo-mit-scheme.matrix.test", "startPath": "/", "siteName": "MIT/GNU Scheme",
  "topSections": ["Installation", "Running Scheme", "Using Scheme", "Compiling Programs", "Debugging", "Edwin", "GNU Free Documentation License"]'
build_texinfo() { unpack texinfo-mit-scheme "$1" && entry texinfo-mit-scheme "$out/texinfo-mit-scheme/pkg/usr/share/doc/mit-scheme-doc/html/mit-scheme-user" "$TEXINFO"; }
d=$(deb mit-scheme-doc); site texinfo-mit-scheme "$(hash "$d" "$TEXINFO")" build_texinfo "$d"

# The Network UPS Tools User Manual: DocBook XSL, chunked per section into one folder. It is an
# article: its sections 1-10 are a page each, its appendices a page per sub-section. index.html's
# Table of Contents: the entries with pages of their own under them.
DOCBOOK='  "family": "DocBook XSL", "host": "docbook-nut.matrix.test", "startPath": "/", "siteName": "Network UPS Tools",
  "topSections": ["Acknowledgements / Contributions", "NUT command and variable naming scheme", "Documentation", "Support instructions", "Cables information", "Configure options", "Upgrading notes", "Project history", "Prerequisites for building NUT on different OSes", "CI Farm configuration notes"]'
build_docbook() { unpack docbook-nut "$1" && entry docbook-nut "$out/docbook-nut/pkg/usr/share/doc/nut-doc/html/user-manual" "$DOCBOOK"; }
d=$(deb nut-doc); site docbook-nut "$(hash "$d" "$DOCBOOK")" build_docbook "$d"

# The proc_macro crate's API docs (rustdoc 1.63) with their hyperlinked source (src/proc_macro/…rs.html),
# taken out of rust-doc with the theme's files and nothing else (never its book/). The crate
# page's sidebar sections.
RUSTDOC='  "family": "rustdoc", "host": "rustdoc-proc-macro.matrix.test", "startPath": "/proc_macro/", "siteName": "proc_macro",
  "topSections": ["Modules", "Macros", "Structs", "Enums", "Traits", "Functions"]'
build_rustdoc() {
  local html=./usr/share/doc/rust-doc/html
  rm -rf "$out/rustdoc-proc-macro/pkg" && mkdir -p "$out/rustdoc-proc-macro/pkg" &&
    dpkg-deb --fsys-tarfile "$1" | tar -x -C "$out/rustdoc-proc-macro/pkg" --wildcards --no-wildcards-match-slash \
      "$html/proc_macro" "$html/src/proc_macro" "$html/*.css" "$html/*.js" "$html/*.svg" "$html/*.png" "$html/*.woff2" &&
    entry rustdoc-proc-macro "$out/rustdoc-proc-macro/pkg/usr/share/doc/rust-doc/html" "$RUSTDOC"
}
d=$(deb rust-doc); site rustdoc-proc-macro "$(hash "$d" "$RUSTDOC")" build_rustdoc "$d"

# megaparsec's API docs: Haddock 2.25 with hyperlinked source (src/). index.html's module tree
# has one root (Text); its groups are the modules that have submodules.
HADDOCK='  "family": "Haddock", "host": "haddock-megaparsec.matrix.test", "startPath": "/", "siteName": "megaparsec",
  "topSections": ["Text.Megaparsec", "Text.Megaparsec.Byte", "Text.Megaparsec.Char", "Text.Megaparsec.Error"]'
build_haddock() { unpack haddock-megaparsec "$1" && entry haddock-megaparsec "$out/haddock-megaparsec/pkg/usr/share/doc/libghc-megaparsec-doc/html" "$HADDOCK"; }
d=$(deb libghc-megaparsec-doc); site haddock-megaparsec "$(hash "$d" "$HADDOCK")" build_haddock "$d"

# cryptography, theme sphinx_rtd_theme (its CSS and fonts are links into Debian's theme package,
# left dangling as for the other Sphinx sites). The sidebar's captions on index.html.
RTD='  "family": "Sphinx (Read the Docs theme)", "host": "cryptography.matrix.test", "startPath": "/", "siteName": "Cryptography",
  "topSections": ["The recipes layer", "The hazardous materials layer", "The cryptography open source project"]'
build_rtd() {
  unpack cryptography "$1" && gunzip_html "$out/cryptography/pkg" &&
    entry cryptography "$out/cryptography/pkg/usr/share/doc/python-cryptography-doc/html" "$RTD"
}
d=$(deb python-cryptography-doc); site cryptography "$(hash "$d" "$RTD")" build_rtd "$d"

# structlog, theme Furo, with viewcode's source pages (_modules/). Its sidebar's toctrees have
# no captions: the H2s of index.html that hold them ("Sponsors" and "Indices and tables" list no pages).
FURO='  "family": "Sphinx (Furo theme)", "host": "structlog.matrix.test", "startPath": "/", "siteName": "structlog",
  "topSections": ["Basics", "Development Affordances", "Integration with Existing Systems", "structlog in Practice", "Deprecated Features", "API Reference", "Project Information"]'
build_furo() {
  unpack structlog "$1" && gunzip_html "$out/structlog/pkg" &&
    entry structlog "$out/structlog/pkg/usr/share/doc/python-structlog-doc/html" "$FURO"
}
d=$(deb python-structlog-doc); site structlog "$(hash "$d" "$FURO")" build_furo "$d"

# cairo's API reference: gtk-doc 1.33 (DocBook XSL underneath). index.html's chapters and its appendix, which have pages under them.
GTKDOC='  "family": "gtk-doc", "host": "gtkdoc-cairo.matrix.test", "startPath": "/", "siteName": "Cairo",
  "topSections": ["Drawing", "Fonts", "Surfaces", "Utilities", "Creating a language binding for cairo"]'
build_gtkdoc() { unpack gtkdoc-cairo "$1" && entry gtkdoc-cairo "$out/gtkdoc-cairo/pkg/usr/share/gtk-doc/html/cairo" "$GTKDOC"; }
d=$(deb libcairo2-doc); site gtkdoc-cairo "$(hash "$d" "$GTKDOC")" build_gtkdoc "$d"

# --- Node's sources as plain files, for the 'node' corpus of tests/fixtures/real-docs.ts.
api=.cache/docs/nodejs-doc/usr/share/doc/nodejs/api
build_node_sources() {
  rm -rf "$out/node/src" && mkdir -p "$out/node/src" || return
  for f in "$api"/*.md.gz; do gunzip -c "$f" >"$out/node/src/$(basename "$f" .gz)" || return; done
  printf '{ "id": "node", "root": "%s" }\n' "$PWD/$api" >"$out/node/entry.json"
}
site node "$(hash "$(deb nodejs-doc)" node-sources-1)" build_node_sources

# --- Static site generators, built from Markdown (scripts/matrix/prepare.mjs lays each project out).

npm_install() { # npm_install SSG: node_modules from the committed lockfile, once per lockfile
  local dir=$build/$1 key
  key=$(hash "scripts/matrix/$1/package.json" "scripts/matrix/$1/package-lock.json")
  if [ "$(cat "$dir/.installed" 2>/dev/null)" != "$key" ]; then
    rm -rf "$dir/node_modules" && mkdir -p "$dir"
    cp "scripts/matrix/$1/package.json" "scripts/matrix/$1/package-lock.json" "$dir/"
    # `npm install`, not `npm ci`: the registry lags on a few macOS/Windows-only optional
    # packages (rollup, pagefind), so the lockfile cannot list them and `npm ci` refuses it.
    # Install still takes every version the lockfile pins.
    (cd "$dir" && npm install --no-audit --no-fund >/dev/null)
    echo "$key" >"$dir/.installed"
  fi
}
npm_install corpus # npm's own docs: the Markdown of the VitePress and MkDocs sites

prepare() { node scripts/matrix/prepare.mjs "$1" "$2" "$out/$1/site"; }
publish() { # publish ID BUILT-DIR: swapped in at once, since a test may be serving the old copy
  rm -rf "$out/$1/site.new" "$out/$1/site.old" && cp -a "$2" "$out/$1/site.new" &&
    { [ ! -d "$out/$1/site" ] || mv "$out/$1/site" "$out/$1/site.old"; } && mv "$out/$1/site.new" "$out/$1/site" && rm -rf "$out/$1/site.old"
}
# own_llms ID BUILT-DIR PACKAGE [INSTALL]: the generator's own llms.txt and
# llms-full.txt (and any other llms*.txt or per-page .md its plugin wrote) moved out of the built
# site into $out/ID/generator-llms, for the head-to-head of `npm run quality` (#32). The served site
# stays what it is without the plugin: a crawl that found them would take them for the site's own
# and generate from them. .by names the plugin. INSTALL ($build/INSTALL, where PACKAGE is) defaults to ID.
own_llms() {
  local dest=$out/$1/generator-llms install=${4:-$1}
  rm -rf "$dest" && mkdir -p "$dest" &&
    (cd "$2" && find . -type f \( -name 'llms*.txt' -o -name '*.md' -o -path './_llms-txt/*' \) -print0 |
      while IFS= read -r -d '' f; do mkdir -p "$dest/$(dirname "$f")" && mv "$f" "$dest/$f" || exit 1; done) &&
    { [ ! -d "$2/_llms-txt" ] || rmdir "$2/_llms-txt"; } && [ -f "$dest/llms.txt" ] &&
    node -p 'const p = require(process.argv[1]); `${p.name}@${p.version}`' "$build/$install/node_modules/$3/package.json" >"$dest/.by"
}
node_in=("$(deb nodejs-doc)" scripts/matrix/corpora.mjs scripts/matrix/prepare.mjs)
npm_in=(scripts/matrix/corpus/package-lock.json scripts/matrix/corpora.mjs scripts/matrix/prepare.mjs)

build_docusaurus() {
  local dir=$build/docusaurus
  prepare docusaurus "$dir" && (cd "$dir" && rm -rf build .docusaurus && npx docusaurus build) &&
    own_llms docusaurus "$dir/build" docusaurus-plugin-llms && publish docusaurus "$dir/build"
}
npm_install docusaurus
site docusaurus "$(hash "${node_in[@]}" scripts/matrix/docusaurus/package-lock.json)" build_docusaurus

build_starlight() {
  local dir=$build/starlight
  node scripts/matrix/starlight/patch-astro.mjs "$dir/node_modules" && prepare starlight "$dir" &&
    (cd "$dir" && rm -rf dist .astro node_modules/.astro && npx astro build) &&
    own_llms starlight "$dir/dist" starlight-llms-txt && publish starlight "$dir/dist"
}
npm_install starlight
site starlight "$(hash "${node_in[@]}" scripts/matrix/starlight/package-lock.json scripts/matrix/starlight/patch-astro.mjs)" build_starlight

build_vitepress() {
  local dir=$build/vitepress
  prepare vitepress "$dir" && (cd "$dir" && npx vitepress build docs) &&
    own_llms vitepress "$dir/docs/.vitepress/dist" vitepress-plugin-llms && publish vitepress "$dir/docs/.vitepress/dist"
}
npm_install vitepress
site vitepress "$(hash "${npm_in[@]}" scripts/matrix/vitepress/package-lock.json)" build_vitepress

# Rspress 2 from npm's Markdown, with its built-in llms.txt (SSG-MD) for the head-to-head.
build_rspress() {
  local dir=$build/rspress
  prepare rspress "$dir" && (cd "$dir" && rm -rf doc_build && npx rspress build) &&
    own_llms rspress "$dir/doc_build" @rspress/core && publish rspress "$dir/doc_build"
}
npm_install rspress
site rspress "$(hash "${npm_in[@]}" scripts/matrix/rspress/package-lock.json)" build_rspress

# TypeDoc 0.28: the API reference of commander from its hand-written TypeScript declarations and its
# README (the start page; its Markdown is that page's ground truth). The sidebar is drawn by script
# from assets/navigation.js; its groups (navigation.includeGroups) are the top sections.
# typedoc-plugin-llms-txt: the generator's own llms.txt for the head-to-head (#32), with its defaults.
# TypeDoc runs in commander's own folder, where its maintainers would run it: the plugin takes the
# llms.txt's summary from the package.json there (the site is the same from any folder).
TYPEDOC='  "family": "TypeDoc", "host": "typedoc-commander.matrix.test", "startPath": "/", "siteName": "commander",
  "topSections": ["Classes", "Interfaces", "Type Aliases", "Variables", "Functions", "References"]'
build_typedoc() {
  local dir=$build/typedoc src=$out/typedoc-commander/src
  cp scripts/matrix/typedoc/typedoc.json scripts/matrix/typedoc/tsconfig.json "$dir/" &&
    (cd "$dir/node_modules/commander" && rm -rf ../../site && ../.bin/typedoc --options ../../typedoc.json) &&
    rm -rf "$src" && mkdir -p "$src" && cp "$dir/node_modules/commander/Readme.md" "$src/index.md" &&
    own_llms typedoc-commander "$dir/site" typedoc-plugin-llms-txt typedoc && publish typedoc-commander "$dir/site" &&
    entry typedoc-commander "$out/typedoc-commander/site" "$TYPEDOC,
  \"sources\": { \"/\": \"$src/index.md\" },
  \"generatorLlms\": \"$out/typedoc-commander/generator-llms\""
}
npm_install typedoc
site typedoc-commander "$(hash scripts/matrix/typedoc/package-lock.json scripts/matrix/typedoc/typedoc.json scripts/matrix/typedoc/tsconfig.json "$TYPEDOC")" build_typedoc

# MkDocs and the Material theme from Debian (python3 packages, not PyPI).
if ! command -v mkdocs >/dev/null || ! /usr/bin/python3 -c 'import material' 2>/dev/null; then
  { apt-get install -y -qq --no-install-recommends mkdocs mkdocs-material >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends mkdocs mkdocs-material >/dev/null; }; }
fi
build_mkdocs() {
  local dir=$build/mkdocs
  mkdir -p "$dir" && prepare mkdocs-material "$dir" && (cd "$dir" && rm -rf site && mkdocs build) && publish mkdocs-material "$dir/site"
}
site mkdocs-material "$(hash "${npm_in[@]}" "$(dpkg-query -W -f '${Version}' mkdocs mkdocs-material)")" build_mkdocs

# The same npm Markdown with MkDocs' own readthedocs theme (issue #32): its sidebar shows the nav's sections as captions.
build_mkdocs_rtd() {
  local dir=$build/mkdocs-readthedocs
  mkdir -p "$dir" && prepare mkdocs-readthedocs "$dir" && (cd "$dir" && rm -rf site && mkdocs build) && publish mkdocs-readthedocs "$dir/site"
}
site mkdocs-readthedocs "$(hash "${npm_in[@]}" "$(dpkg-query -W -f '${Version}' mkdocs)" mkdocs-readthedocs-1)" build_mkdocs_rtd

# --- matrix.json: every entry, in this order.
node -e '
  const fs = require("fs"), out = process.argv[1];
  const ids = process.argv.slice(2);
  const sites = ids.map((id) => JSON.parse(fs.readFileSync(`${out}/${id}/entry.json`, "utf8")));
  fs.writeFileSync(`${out}/matrix.json`, JSON.stringify({ builtAt: new Date().toISOString(), sites }, null, 2));
' "$out" sphinx-doc flask requests mdbook-reference git-doc javadoc-jsoup doxygen-json-c texinfo-mit-scheme docbook-nut rustdoc-proc-macro haddock-megaparsec cryptography structlog gtkdoc-cairo node docusaurus starlight vitepress rspress typedoc-commander mkdocs-material mkdocs-readthedocs
echo "matrix ready in .cache/matrix (matrix.json)"
