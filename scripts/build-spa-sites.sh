#!/usr/bin/env bash
# Builds the client-rendered fixture sites of issue #16 into .cache/spa (served by
# tests/fixtures/spa-sites.ts): docsify 5 from the npm registry (installed from
# scripts/spa/docsify/package-lock.json into .cache/spa-build, never into the project), and a
# React app built with the project's own Vite and React (tests/fixtures/spa-react/).
# Each part is rebuilt only when its inputs change (.done holds their hash).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$PWD/.cache/spa
build=$PWD/.cache/spa-build
mkdir -p "$out" "$build"
export NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_loglevel=error

hash() { cat "$@" | sha256sum | cut -c1-16; }

key=$(hash scripts/spa/docsify/package-lock.json)
if [ "$(cat "$out/docsify/.done" 2>/dev/null)" != "$key" ]; then
  rm -rf "$build/docsify" "$out/docsify" && mkdir -p "$build/docsify" "$out/docsify"
  cp scripts/spa/docsify/package.json scripts/spa/docsify/package-lock.json "$build/docsify/"
  (cd "$build/docsify" && npm ci --ignore-scripts >/dev/null)
  cp "$build/docsify/node_modules/docsify/dist/docsify.min.js" "$build/docsify/node_modules/docsify/dist/themes/core.min.css" "$out/docsify/"
  echo "$key" >"$out/docsify/.done"
  echo "docsify: $(node -p "require('$build/docsify/node_modules/docsify/package.json').version") installed"
else
  echo "docsify: up to date"
fi

key=$(hash tests/fixtures/spa-react/* package-lock.json)
if [ "$(cat "$out/react.done" 2>/dev/null)" != "$key" ]; then
  npx vite build --config tests/fixtures/spa-react/vite.config.ts
  echo "$key" >"$out/react.done"
  echo "react: built ($(ls "$out/react/assets" | wc -l) assets)"
else
  echo "react: up to date"
fi
