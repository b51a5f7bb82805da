"""The RQ job a worker runs by name (``roguelike.server.job.verify_upload``), in RQ's forked work-horse.

Its arguments are JSON (the queue's serializer is RQ's JSON one: nothing on the queue is
unpickled): the replay's bytes in base64 and the child's limits. It verifies in a child
process exactly as the server does without a queue, and returns the verdict.
"""

from __future__ import annotations

import base64
from typing import Any

from roguelike.server.child import ChildLimits, verify_bytes

VERIFIER: list[str] | None = None  # set by ``hedonic serve worker --verifier`` before the worker starts


def verify_upload(data: str, limits: dict[str, Any]) -> dict[str, Any]:
    """Verify one uploaded replay; its verdict."""
    return verify_bytes(base64.b64decode(data, validate=True), ChildLimits.from_plain(limits), VERIFIER)
