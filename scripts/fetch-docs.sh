#!/usr/bin/env bash
# Unpacks the real documentation sites that tests and the benchmark crawl
# (Debian's python3.11-doc and nodejs-doc) into .cache/docs, without installing
# them: `apt-get install nodejs-doc` removes a NodeSource nodejs, node included.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=.cache/docs
mkdir -p "$dest" .cache/debs
for pkg in python3.11-doc nodejs-doc; do
  [ -f "$dest/$pkg.done" ] && continue
  if ! ls .cache/debs/"${pkg}"_*.deb >/dev/null 2>&1; then
    (cd .cache/debs && apt-get download "$pkg" 2>/dev/null) || { apt-get update -qq && (cd .cache/debs && apt-get download "$pkg"); }
  fi
  rm -rf "${dest:?}/$pkg"
  dpkg-deb -x .cache/debs/"${pkg}"_*.deb "$dest/$pkg"
  touch "$dest/$pkg.done"
done
echo "docs ready in $dest: $(find "$dest" -name '*.html' | wc -l) HTML files"
