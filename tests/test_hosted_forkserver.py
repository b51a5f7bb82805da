"""A hosted game's process is forked from a fork server that has loaded the game, and runs nothing of the main script.

The server runs as a script of its own in a fresh interpreter (as ``hedonic serve --play`` is the console script
``hedonic``), so the fork server is the one its start makes: the verifier starts it before hosted play does, and it
must preload the game (and rehearse it: ``roguelike.server.hosted.rehearsal``) all the same. multiprocessing would
run the script again in every process it starts (as ``__mp_main__``): the fork server's last preload
(``roguelike.server.prefork``) stops that, so a game's process carries no copy of what the main script imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

SERVER_SCRIPT = '''
import asyncio
import json
import os
import socket
import sys
from pathlib import Path

if __name__ == "__mp_main__":  # multiprocessing ran this script again in a process it started
    Path(sys.argv[1], "main-ran-again").touch()


def fork_server_command() -> str:
    """The command line of this process's fork server."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes().replace(b"\\0", b" ").decode()
            except OSError:
                continue
            if parent == os.getpid() and "multiprocessing.forkserver" in command:
                return command
    return ""


def first_frame(server) -> bool:
    """Start a game's process as the host does, send it a plan, and whether a frame comes back."""
    from roguelike.server.hosted.gameproc import run_game
    from roguelike.server.hosted.host import game_context
    from roguelike.server.hosted.wire import FRAME, PLAN, Channel, plan_bytes

    ours, theirs = socket.socketpair()
    process = game_context().Process(target=run_game, args=(theirs, server.config.play.limits()), daemon=True)
    process.start()
    theirs.close()
    plan = {"id": "g1", "name": "Tester", "seed": 43, "mode": "normal", "commands": [], "snapshot": None,
            "snapshot_seq": 0, "snapshot_every": 500, "columns": 80, "rows": 25, "notice": None}
    channel = Channel(ours)
    channel.send(PLAN, plan_bytes(plan))
    found = channel.receive(60)
    while found is not None and found[0] != FRAME:
        found = channel.receive(60)
    ours.close()
    process.join(30)
    return found is not None


async def serve(folder: Path) -> None:
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.server import store
    from roguelike.server.app import ScoreServer, ServerConfig
    from roguelike.server.hosted.host import PlayOptions

    class Nobody:
        def account_of(self, connection):
            return None

    config = ServerConfig(store.default_url(str(folder)), workers=1, play=PlayOptions(RULES_EPOCH))
    server = ScoreServer(config, identity=lambda engine: Nobody())
    async with server.lifespan(server.app):
        command = fork_server_command()
        framed = await asyncio.to_thread(first_frame, server)
    print(json.dumps({"fork_server": command, "frame": framed}))


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1])))
'''


def test_a_game_process_is_forked_from_the_loaded_fork_server_and_runs_nothing_of_the_main_script(
    tmp_path: Path,
) -> None:
    script = tmp_path / "serve_main.py"
    script.write_text(SERVER_SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY)}
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path)], env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["frame"], "the game's process sent no frame"
    # The verifier started the fork server first, and it preloaded the game and rehearsed it, then settled last.
    assert "'roguelike.server.hosted.rehearsal', 'roguelike.server.prefork']" in found["fork_server"], found
    assert not (tmp_path / "main-ran-again").exists(), "a process forked from the fork server ran the main script"
