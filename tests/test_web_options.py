"""``hedonic --web``'s options: loopback by default, a play and a watch token everywhere, a taken port said in one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from roguelike.cli.main import main
from roguelike.frontend.web.run import DEFAULT_HOST, WebOptions, address


@pytest.mark.parametrize("host", ["127.0.0.1", "::1", "0.0.0.0"])
def test_every_address_gets_a_play_token_and_another_to_watch(host: str) -> None:
    made = [WebOptions(host=host).guard() for _ in range(2)]
    assert made[0].loopback == (host != "0.0.0.0")
    assert len(made[0].play_token) >= 20 and len(made[0].watch_token) >= 20
    assert made[0].play_token != made[0].watch_token
    assert made[0].play_token != made[1].play_token and made[0].watch_token != made[1].watch_token
    assert DEFAULT_HOST == "127.0.0.1"
    given = WebOptions(host="192.168.1.5", token="sesame").guard()
    assert given.play_token == "sesame" and given.watch_token != "sesame"


def test_the_printed_address_carries_the_token() -> None:
    assert address("127.0.0.1", 8026, "/play", "p") == "http://127.0.0.1:8026/play?token=p"
    assert address("::1", 8026, "/watch/ab", "t") == "http://[::1]:8026/watch/ab?token=t"


def test_a_taken_port_is_said_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        status = main(["play", "--web", "--no-browser", "--port", str(port), "--data-dir", str(tmp_path)])
    assert status == 1
    assert f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err
