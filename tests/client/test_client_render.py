"""Rendering and input parsing, from mirrored views (no server needed)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from engine_feed import feed

from boneyard.clients.cli.core.mirror import Mirror
from boneyard.clients.cli.ui import render
from boneyard.clients.cli.ui.commands import InputError, help_text, parse_command, parse_create, parse_move
from boneyard.clients.cli.ui.describe import message_line
from boneyard.clients.cli.ui.forms import FormError, chat_text
from boneyard.protocol import BidAction, PassAction, PlayAction, TrumpAction


def _mirror_at(game: str, options: dict[str, Any], stop: Any) -> Mirror:
    """A mirror fed until ``stop(mirror)`` is true."""
    mirror = Mirror()
    mirror.table("t1").seat = 0  # as `seated` would say
    for message, _ in feed(game, options, 0, 5):
        if message is None:
            break
        mirror.apply(message)
        if stop(mirror.tables["t1"]):
            return mirror
    raise AssertionError("never reached")


def test_moon_board_shows_everything_a_player_needs() -> None:
    mirror = _mirror_at("moon", {}, lambda t: t.view.phase == "playing" and t.view.trick and t.my_turn)
    table = mirror.tables["t1"]
    table.seat = 0
    text = render.plain(render.board(table, 12.4) + render.legal_moves(table.view))
    for label in ("Moon", "Scores", "Bids", "Trump", "Trick", "Tricks", "Turn", "Hand", "Your move: "):
        assert label in text, label
    assert "12 s left" in text and "[" in text and "|" in text
    assert re.search(r"Your move: \d\)\[\d\|\d\]", text), text  # a tile by its number in the hand
    assert "*" in text or "no trump" in text  # trumps are marked without colour


def test_straight_board_shows_layout_ends_count_boneyard() -> None:
    mirror = _mirror_at("straight", {"players": 2}, lambda t: t.view.layout.spinner is not None and t.my_turn)
    table = mirror.tables["t1"]
    text = render.plain(render.board(table))
    for label in ("Straight", "Layout", "Ends", "count", "boneyard", "Tiles", "Hand"):
        assert label in text, label
    assert "*[" in text  # the spinner is marked


def test_every_event_has_words() -> None:
    for game, options in [("moon", {}), ("straight", {"players": 3}), ("straight", {"players": 4})]:
        mirror = Mirror()
        kinds = set()
        for message, _ in feed(game, options, 0, 2):
            if message is None:
                break
            mirror.apply(message)
            line = message_line(mirror, message)
            if message.type == "event":
                kinds.add(message.event.type)
                if message.event.type != "hand_dealt":
                    assert line is not None and render.plain(line).strip(), message.event.type
        assert "game_over" in kinds


def test_an_action_the_server_took_for_a_player_says_so() -> None:
    mirror = Mirror()
    for message, _ in feed("moon", {}, 0, 1):
        mirror.apply(message)
        if message.type == "event" and message.event.type == "bid_made":
            break
    plain = render.plain(message_line(mirror, message) or [])
    auto = render.plain(message_line(mirror, message.model_copy(update={"auto": True})) or [])
    assert "server played" not in plain
    assert auto.startswith(plain) and "the server played for them" in auto


def test_colour_is_never_the_only_signal() -> None:
    mirror = _mirror_at("moon", {}, lambda t: t.my_turn and t.view.phase == "bidding")
    table = mirror.tables["t1"]
    table.seat = 0
    fragments = render.legal_moves(table.view)
    assert "1)" in render.plain(fragments) and "pass" in render.plain(fragments)


def test_parse_moves() -> None:
    moon = [PassAction(type="pass"), BidAction(type="bid", bid=5), BidAction(type="bid", bid=21)]
    assert parse_move("1", moon) == moon[0]
    assert parse_move("pass", moon) == moon[0]
    assert parse_move("bid 21", moon) == moon[2]
    with pytest.raises(InputError, match="choices 1 to 3"):
        parse_move("9", moon)
    with pytest.raises(InputError, match="the high bid is 4: bid 5, 21 or pass"):
        parse_move("bid 4", moon)
    with pytest.raises(InputError, match="bids are 4, 5, 6, 7 or 21"):
        parse_move("bid 3", moon)
    with pytest.raises(InputError, match="trump is a number 0-6"):
        parse_move("trump 7", moon)
    trumps = [TrumpAction(type="trump", trump=t) for t in (*range(7), "doubles", "none")]
    assert parse_move("trump doubles", trumps).trump == "doubles"
    assert parse_move("trump 0", trumps).trump == 0
    plays = [PlayAction(type="play", tile=(2, 1)), PlayAction(type="play", tile=(6, 6))]
    hand = [(6, 6), (5, 3), (2, 1)]  # numbers name hand positions while tiles are played
    assert parse_move("21", plays, hand=hand) == plays[0]  # a legal tile beats number 21
    assert parse_move("[6|6]", plays, hand=hand) == plays[1]
    assert parse_move("6-6", plays, hand=hand) == plays[1]
    assert parse_move("1", plays, hand=hand) == plays[1]
    assert parse_move("3", plays, hand=hand) == plays[0]
    # A held tile that is not legal is sent all the same: the engine's refusal says why.
    held = PlayAction(type="play", tile=(5, 3))
    assert parse_move("2", plays, hand=hand) == held
    assert parse_move("5-3", plays, hand=hand) == held
    assert parse_move("35 up", plays, hand=hand) == PlayAction(type="play", tile=(5, 3), end="up")
    with pytest.raises(InputError, match=r"you do not hold \[4\|4\]"):
        parse_move("44", plays, hand=hand)
    with pytest.raises(InputError, match=r"\[4\|4\] is not a legal move now"):
        parse_move("4-4", plays)  # no hand known (e.g. a test): the generic refusal
    with pytest.raises(InputError, match="not your turn"):
        parse_move("1", [])
    straight = [PlayAction(type="play", tile=(5, 3), end=e) for e in ("left", "up")]
    assert parse_move("35 up", straight).end == "up"
    assert parse_move("5|3 l", straight).end == "left"
    with pytest.raises(InputError, match="say which"):
        parse_move("53", straight)
    assert parse_move("1 up", straight, hand=[(5, 3)]).end == "up"
    with pytest.raises(InputError, match="fits left or up: say which"):
        parse_move("1", straight, hand=[(5, 3)])


def test_parse_commands() -> None:
    assert parse_command("join t1 2").args == ["t1", "2"]
    assert parse_command("ls").name == "tables"
    assert parse_command("say hello   there").args == ["hello   there"]
    assert parse_command("6-4") is None
    create = parse_create(["straight", "players=4", "partnerships=off", "bots=1,2,3", "turn=none"])
    assert create == {
        "game": "straight",
        "options": {"players": 4, "partnerships": False},
        "bots": [1, 2, 3],
        "seat": 0,
        "turn_seconds": None,
    }
    for words, reason in [
        (["chess"], "game: create moon"),
        (["straight", "players=5"], "players must be 2, 3 or 4"),  # the model says
        (["moon", "players=4"], "moon is played by exactly 3 players"),
        (["texas42", "nello=maybe"], "nello must be true or false"),
        (["moon", "bots=1,2,3"], "bots: Moon has seats 0 to 2, not 3"),
        (["moon", "seat=5"], "seat: Moon has seats 0 to 2"),
        (["moon", "turn=0"], "turn: 5 to 3600 seconds"),
        (["straight", "players=2", "partnerships=on"], "partnerships need 4 players"),
        (["moon", "bots=0,1"], "bots: seat 0 is yours"),
        (["moon", "target=0"], "target must be a whole number from 1 to 1000"),
        (["moon", "colour=red"], "moon has no colour option (its options: all_pass, target)"),
    ]:
        with pytest.raises(FormError, match=re.escape(reason)):
            parse_create(words)
    with pytest.raises(FormError, match="at most 500 characters"):
        chat_text("x" * 501)
    text = help_text()
    for word in ("create", "join", "watch", "leave", "say", "rematch", "quit", "bid", "trump", "draw"):
        assert word in text
