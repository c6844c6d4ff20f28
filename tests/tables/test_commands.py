"""The seam on its own: typed commands into ``CommandSeam``, frames and closes out of it, no sockets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from table_kit import settings

from boneyard.protocol import COMMAND_ADAPTER, Hello, Limits, SignIn, decode_server_message
from boneyard.server.accounts.book import Account
from boneyard.server.commands import CommandSeam
from boneyard.server.host import ManualClock
from boneyard.server.lobby import Lobby
from boneyard.server.metrics import Metrics
from boneyard.server.record_store import MemoryRecordStore
from boneyard.server.session import Session
from boneyard.server.wire import body_of


class FakeLink:
    """A connection as the table tier sees it: frames decoded strictly, closes noted."""

    def __init__(self) -> None:
        self.session: Session | None = None
        self.seq = 0
        self.messages: list[Any] = []
        self.closed: tuple[int, str] | None = None

    def write(self, frame: bytes) -> None:
        message = decode_server_message(frame)
        assert message.seq == len(self.messages) + 1  # numbered without gaps from the hello on
        self.messages.append(message)

    def close_with(self, code: int, reason: str) -> None:
        self.closed = self.closed or (code, reason)

    def peer(self) -> str | None:
        return "test"

    def client_address(self) -> str:
        return "127.0.0.1"

    def charge(self, reply_bytes: int) -> None:
        self.charged = getattr(self, "charged", 0) + reply_bytes


def front() -> tuple[CommandSeam, Lobby, ManualClock]:
    clock = ManualClock()
    lobby = Lobby(settings(), Metrics(lambda: []), MemoryRecordStore(10), clock)
    return CommandSeam(lobby, hello_body()), lobby, clock


def hello_body() -> bytes:
    """The ``hello`` of a test server."""
    limits = Limits(
        max_frame_bytes=4096,
        commands_per_second=20,
        command_burst=40,
        chat_max_chars=280,
        send_queue_frames=512,
    )
    hello = Hello(type="hello", seq=1, protocol=1, server="test", limits=limits, heartbeat_seconds=20)
    return body_of(hello)


def command(**fields: Any) -> Any:
    return COMMAND_ADAPTER.validate_python(fields)


def connect(commands: CommandSeam, name: str) -> FakeLink:
    link = FakeLink()
    commands.connected(link)
    commands.handle(link, command(type="identify", id=1, name=name))
    hello, welcome = link.messages
    assert (hello.type, welcome.type, welcome.name, welcome.resumed) == ("hello", "welcome", name, False)
    return link


def test_a_command_before_identify_is_refused_and_closes_with_4001() -> None:
    commands, _, _ = front()
    link = FakeLink()
    commands.connected(link)
    commands.handle(link, command(type="ping", id=3))
    commands.handle(link, command(type="list_tables", id=4))
    assert [m.type for m in link.messages] == ["hello", "pong", "error"]
    assert link.messages[-1].code == "not_identified" and link.closed is not None and link.closed[0] == 4001


def test_an_undecodable_first_frame_closes_and_a_later_one_is_only_an_error() -> None:
    commands, _, _ = front()
    link = FakeLink()
    commands.connected(link)
    assert not commands.refuse(link, "invalid_message", "not msgpack", None)
    assert link.closed is not None and link.closed[0] == 4001
    ana = connect(commands, "ana")
    assert commands.refuse(ana, "invalid_message", "not msgpack", 9)
    assert ana.messages[-1].code == "invalid_message" and ana.closed is None


def test_commands_reach_the_table_and_are_answered_ok() -> None:
    commands, lobby, _ = front()
    ana, bo = connect(commands, "ana"), connect(commands, "bo")
    create = command(type="create_table", id=2, game="straight", options={"players": 2}, seat=0)
    commands.handle(ana, create)
    table_id = next(iter(lobby.tables))
    commands.handle(bo, command(type="join", id=5, table_id=table_id, seat=1))
    assert lobby.tables[table_id].status == "playing"
    assert [m.type for m in bo.messages if getattr(m, "reply_to", None) == 5] == ["seated"]
    commands.handle(bo, command(type="chat", id=7, table_id=table_id, text="hi"))
    assert [m.type for m in bo.messages if getattr(m, "reply_to", None) == 7] == ["ok"]
    assert ana.messages[-1].type == "chat" and ana.messages[-1].text == "hi"
    commands.handle(bo, command(type="join", id=6, table_id="t99", seat=1))
    assert bo.messages[-1].type == "error" and bo.messages[-1].code == "no_such_table"


def test_a_resume_takes_the_session_over_and_closes_the_old_connection_with_4003() -> None:
    commands, lobby, _ = front()
    ana = connect(commands, "ana")
    commands.handle(ana, command(type="create_table", id=2, game="moon", seat=0, bots=[1, 2]))
    token = next(m.token for m in ana.messages if m.type == "seated")
    last = ana.messages[-1].seq

    again = FakeLink()
    commands.connected(again)
    commands.handle(
        again, command(type="identify", id=1, name="ana", resume={"token": token, "last_seq": last})
    )
    assert ana.closed is not None and ana.closed[0] == 4003 and ana.session is None
    welcome = again.messages[1]
    assert (welcome.type, welcome.resumed, welcome.replayed) == ("welcome", True, 0)
    assert [(s.table_id, s.seat) for s in welcome.seats] == [(next(iter(lobby.tables)), 0)]
    commands.disconnected(ana)  # the old connection's close does not drop the resumed session
    assert again.session is not None and again.session.client is again

    stranger = FakeLink()
    commands.connected(stranger)
    commands.handle(
        stranger, command(type="identify", id=1, name="x", resume={"token": "a" * 32, "last_seq": 0})
    )
    assert stranger.closed is not None and stranger.closed[0] == 4002


def test_a_dropped_session_keeps_its_seat_through_the_grace_period() -> None:
    commands, lobby, clock = front()
    ana = connect(commands, "ana")
    commands.handle(ana, command(type="create_table", id=2, game="moon", seat=0, bots=[1, 2]))
    table = next(iter(lobby.tables.values()))
    commands.disconnected(ana)
    assert not table.seats[0].connected and table.seats[0].session is not None
    clock.advance(lobby.settings.grace_seconds)
    assert table.seats[0].auto  # away: the server plays for her until she is back or expires


class HeldAccounts:
    """A cluster's accounts (``AccountStore``) whose update before an ``identify`` finishes when the test
    says: on a cluster it takes a round trip to the bucket, and a connection may close meanwhile."""

    def __init__(self) -> None:
        self.waiting: list[Callable[[], None]] = []

    def prepare(self, request: SignIn | None, nonce: str | None, then: Callable[[], None]) -> None:
        self.waiting.append(then)

    def created(self, request: SignIn) -> Account | None:
        return None


def test_a_connection_closed_while_its_identify_waits_for_the_accounts_is_not_identified() -> None:
    # It used to be: a session on a dead connection, in the lobby for good (nobody drops it), a leak
    # any client could repeat at will on a cluster.
    commands, lobby, _ = front()
    commands.accounts.store = accounts = HeldAccounts()
    gone, stays = FakeLink(), FakeLink()
    for link, name in ((gone, "ghost"), (stays, "bea")):
        commands.connected(link)
        commands.handle(link, command(type="identify", id=1, name=name))
    commands.disconnected(gone)
    for then in accounts.waiting:
        then()
    assert gone.session is None and [m.type for m in gone.messages] == ["hello"]
    assert stays.session is not None and [m.type for m in stays.messages] == ["hello", "welcome"]
    assert {session.name for session in lobby.presence.idle} == {"bea"}
