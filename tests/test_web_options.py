"""``hedonic --web``'s options: loopback by default, a token beyond it, a taken port said in one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from roguelike.cli.main import main
from roguelike.frontend.web.run import DEFAULT_HOST, WebOptions, address


def test_loopback_needs_no_token_and_any_other_address_gets_one() -> None:
    assert WebOptions().guard().loopback and WebOptions().guard().token is None
    assert DEFAULT_HOST == "127.0.0.1"
    made = [WebOptions(host="0.0.0.0").guard() for _ in range(2)]
    assert not made[0].loopback and made[0].token and len(made[0].token) >= 20
    assert made[0].token != made[1].token
    assert WebOptions(host="192.168.1.5", token="sesame").guard().token == "sesame"
    assert WebOptions(host="::1").guard().loopback


def test_the_printed_address_carries_the_token() -> None:
    assert address("127.0.0.1", 8026, "/play", None) == "http://127.0.0.1:8026/play"
    assert address("::1", 8026, "/watch/ab", "t") == "http://[::1]:8026/watch/ab?token=t"


def test_a_taken_port_is_said_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        status = main(["play", "--web", "--no-browser", "--port", str(port), "--data-dir", str(tmp_path)])
    assert status == 1
    assert f"cannot serve on 127.0.0.1:{port}" in capsys.readouterr().err
