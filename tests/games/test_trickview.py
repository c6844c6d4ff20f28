"""The trick games' shared view: ``ViewFields`` (the typed keyword set ``view_fields`` returns) must name
exactly ``TrickView``'s fields but the legal actions, or a field added to one silently misses the other."""

from __future__ import annotations

import dataclasses

from boneyard.server.games.trickview import TrickView, ViewFields


def test_view_fields_name_every_field_of_the_view_but_its_legal_actions() -> None:
    view = {field.name for field in dataclasses.fields(TrickView)}
    assert set(ViewFields.__annotations__) == view - {"legal_actions"}
