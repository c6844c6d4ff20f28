#!/usr/bin/env bash
# The table tier compiled with mypyc, in a throwaway clone: how much of Boneyard's CPU per action is
# CPython's interpreter. A measurement, not a build we ship (bench/README.md, "Where the CPU per action goes, and a compiled table tier").
#
#   bash bench/try_mypyc.sh [DIR]        # DIR: where the clone goes (default /tmp/boneyard-mypyc)
#
# Then, in DIR with its venv active: python bench/bench_table_tier.py --actions 20000 --target 21, or
# python bench/loadgen.py --target both --tables 300 --pace flat ... (boneyard-server is the compiled one).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-/tmp/boneyard-mypyc}"
rm -rf "$dir" && git clone -q "$here" "$dir" && cd "$dir"
python -m venv .venv && . .venv/bin/activate
pip install -q -e '.[test]' mypy
# The tree of links that spells out the boneyard.* mapping, as the type check builds it.
bash .ci/typecheck --version >/dev/null
cd build/typecheck
# The act path: Moon's engine (its lean state and the trick games' base), translation, fan-out, timer,
# match, table, sessions, commands, outbox, codec; and the two interpreted subclasses of compiled classes
# (Client, RelaySession), which must be compiled too.
mypyc boneyard/server/games/{trickgame,tricks}.py boneyard/server/games/moon/{state,game}.py \
  boneyard/server/{wire,fanout,turns,match,table,session,seats,commands,outbox,connection}.py \
  boneyard/server/cluster/relay.py boneyard/protocol/codec.py > ../mypyc.log 2>&1 \
  || { tail -20 ../mypyc.log; exit 1; }
cp ./*__mypyc*.so "$(python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
cd ../.. && python -c "import boneyard.server.match as m; assert m.__file__.endswith('.so'), m.__file__"
echo "compiled: $dir (activate $dir/.venv)"
