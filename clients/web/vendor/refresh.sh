#!/bin/sh
# Refresh the vendored msgpack library from npm, at the version tests/protocol/package.json pins.
# To move to a new version: npm install --save-exact --prefix tests/protocol @msgpack/msgpack@VERSION,
# then run this script; tests/web/test_web_vendor.py checks the copy against the installed package,
# which npm ci checked against the integrity hash in tests/protocol/package-lock.json.
set -eu
cd "$(dirname "$0")/../../.."
npm ci --prefix tests/protocol
source=tests/protocol/node_modules/@msgpack/msgpack
target=clients/web/vendor/msgpack
rm -rf "$target"
mkdir -p "$target/utils"
cp "$source/LICENSE" "$source/package.json" "$target/"
cp "$source"/dist.esm/*.mjs "$target/"
cp "$source"/dist.esm/utils/*.mjs "$target/utils/"
echo "vendored @msgpack/msgpack $(node -p "require('./$source/package.json').version") into $target"
