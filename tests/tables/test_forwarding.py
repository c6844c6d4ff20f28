"""Calls go to their owners (issue #27, "Forwarding chains"): a table's method whose whole body is one call
on one of its own parts (``self.cycle.x(...)``, ``self.server.y(...)``) only passes the call on, and its
callers should hold that part (through a small typed port) and call it themselves. The few that stay are
the table's side of a port another module declares and reads the table through; each is named here with
that port, so a new pass-through fails this test until its callers are routed, or it is named with why."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PORTS = {
    "listeners": "pushes.Listed: the lobby's pushes reach a table's members (local or another node's)",
    "deal_columns": "storage's LoggedTable: a table's row is read off the table as one object",
    "restored": "storage's RestoredTable: a restored table writes itself down, whole",
    "resume_turn": "storage's RestoredTable: the restore resumes each table once all are back",
    "seat_connected": "session.Place: a session tells its tables (or the cluster's RemotePlace) of itself",
    "seat_away": "session.Place: as seat_connected",
}
"""``Table``'s one-call members that stay, each with the port (declared elsewhere) it implements."""


def _passes_on(value: ast.expr) -> bool:
    """A call on one of ``self``'s parts (``self.part.f(...)``, deeper too), in either arm of a ``... if
    ... else ...``."""
    if isinstance(value, ast.IfExp):
        return _passes_on(value.body) or _passes_on(value.orelse)
    if not isinstance(value, ast.Call):
        return False
    function, hops = value.func, 0
    while isinstance(function, ast.Attribute):
        function, hops = function.value, hops + 1
    return isinstance(function, ast.Name) and function.id == "self" and hops >= 2


def pass_throughs(path: Path, class_name: str) -> dict[str, str]:
    """The methods of ``class_name`` whose body, but its docstring, is one call on one of its parts."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    (cls,) = (node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    found = {}
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        body = method.body
        if ast.get_docstring(method) is not None:
            body = body[1:]
        one = body[0] if len(body) == 1 else None
        if isinstance(one, ast.Return | ast.Expr) and one.value is not None and _passes_on(one.value):
            found[method.name] = ast.unparse(one)
    return found


def test_the_table_passes_no_call_on_but_to_the_ports_it_implements() -> None:
    found = pass_throughs(ROOT / "server" / "table.py", "Table")
    assert {name: line for name, line in found.items() if name not in PORTS} == {}
    assert set(PORTS) <= set(found)  # a member routed away (or made a decision) leaves this list too


def test_the_check_sees_a_pass_through(tmp_path: Path) -> None:
    source = tmp_path / "table.py"
    source.write_text(
        "class Table:\n"
        "    def ready(self, seat):\n"
        '        """Doc."""\n'
        "        self.cycle.breaks.ready(seat)\n"
        "    def left(self):\n"
        "        return self.match.turns.left() if self.match is not None else None\n"
        "    def own(self):\n"
        "        return self.decide()\n"
        "    def decides(self, seat):\n"
        "        if seat:\n"
        "            self.cycle.go(seat)\n",
        encoding="utf-8",
    )
    assert set(pass_throughs(source, "Table")) == {"ready", "left"}
