"""A cluster's reports: one JetStream stream, ``boneyard-reports``, which every node appends to and the
operator reads (``boneyard-server players reports --cluster URL``), so that the reports made on every
node are in one place, in the order the cluster received them.

Each message is one report as ``players reports`` prints it (``moderation.Report.line``: the fields of a
single server's ``reports`` table). A node appends through its
:class:`~boneyard.server.cluster.writes.Writes`: the reporter's ``ok`` waits for JetStream's
acknowledgement, as a single durable server's waits for its commit.
"""

from __future__ import annotations

import logging

from nats.js import JetStreamContext, api
from nats.js.errors import NotFoundError

from boneyard.server.cluster.writes import Writes
from boneyard.server.moderation import Report

log = logging.getLogger("boneyard.cluster")

REPORTS_STREAM = "boneyard-reports"
REPORTS_SUBJECT = "boneyard.reports"


async def ensure_reports(js: JetStreamContext) -> None:
    """Create the reports stream if it does not exist."""
    try:
        await js.stream_info(REPORTS_STREAM)
    except NotFoundError:
        await js.add_stream(name=REPORTS_STREAM, subjects=[REPORTS_SUBJECT], storage=api.StorageType.FILE)


class ClusterReports:
    """A node's ``ReportLog``: each report appended to the cluster's stream."""

    def __init__(self, js: JetStreamContext, writes: Writes) -> None:
        self._js = js
        self._writes = writes

    def reported(self, report: Report) -> None:
        data = report.line().encode()

        async def append() -> None:
            try:
                await self._js.publish(REPORTS_SUBJECT, data, stream=REPORTS_STREAM)
            except Exception as error:  # said in the log, as every report is
                log.warning("reports: cannot store a report of %s: %s", report.player, error)

        self._writes.write(append, REPORTS_STREAM)


async def stored_reports(js: JetStreamContext) -> list[str]:
    """Every report in the cluster's stream, oldest first, as ``players reports`` prints them (none if
    no node has made the stream yet)."""
    try:
        state = (await js.stream_info(REPORTS_STREAM)).state
    except NotFoundError:
        return []
    lines = []
    for sequence in range(state.first_seq, state.last_seq + 1) if state.messages else ():
        try:
            message = await js.get_msg(REPORTS_STREAM, sequence)
        except NotFoundError:  # removed by hand (nats stream rmm): a gap
            continue
        lines.append((message.data or b"").decode())
    return lines
