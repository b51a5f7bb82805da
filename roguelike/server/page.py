"""The board as an HTML page a person reads: the witnessed runs first, then the verified uploads, the rest apart,
every name escaped, a page at a time with links to the pages before and after."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import urlencode

from roguelike.server.board import PAGE

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; background: #fbfaf7; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; width: 100%; } th, td { padding: 0.35em 0.6em; text-align: left; }
th { border-bottom: 2px solid #999; } tr:nth-child(even) td { background: #f0eee8; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } .quiet { color: #666; font-size: 0.9em; }
nav a { margin-right: 0.8em; } code { font-size: 0.85em; }
"""


def board_page(board: dict[str, Any]) -> str:
    """The whole page for a board's JSON."""
    title = "Hall of fame" + (f", daily {board['daily']}" if board["daily"] else "")
    epoch = f"rules epoch {board['epoch']}" if board["epoch"] is not None else "all rules epochs"
    parts = [
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}</title>",
        f"<meta name=viewport content='width=device-width'><style>{STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1><p class=quiet>Hedonic Hypothesis, {escape(epoch)}. Every score here was "
        "recomputed by re-playing the uploaded game; nothing a player sent is believed.</p>",
        epoch_links(board),
        par_paragraph(board.get("par"), board["daily"]),
        page_links(board),
        witnessed_table(board.get("witnessed", [])),
        ranked_table(board["ranked"]),
        apart_table("Verified, not ranked", board["unranked"]),
        apart_table("Not verified here (shown apart, never ranked)", board["unverified"]),
        page_links(board),
        f"<p class=quiet>{board['pending']} uploads waiting to be verified.</p></body></html>",
    ]
    return "".join(parts)


def par_paragraph(par: dict[str, Any] | None, daily: str | None) -> str:
    """The daily's par, when a worker has worked it out (nothing on a board of every game)."""
    if daily is None:
        return ""
    if par is None:
        return "<p class=quiet>Par for this daily: not worked out yet.</p>"
    score, turns = par["score"], par["turns"]
    return (
        f"<p><strong>Par {band(score)}</strong> points, {band(turns)} turns: the {text(par.get('bot'))} bot "
        f"played this daily {text(par.get('runs'))} times from slightly shifted starts under rules epoch "
        f"{text(par.get('epoch'))} (the median and the range).</p>"
    )


def band(values: dict[str, Any]) -> str:
    """``4,100 (2,300-9,800)``."""
    return escape(f"{values['median']:,} ({values['low']:,}-{values['high']:,})")


def epoch_links(board: dict[str, Any]) -> str:
    """Links to the board of each epoch seen."""
    links = []
    for epoch in board["epochs"]:
        query = {"epoch": epoch, **({"daily": board["daily"]} if board["daily"] else {})}
        links.append(f"<a href='/board?{escape(urlencode(query))}'>epoch {epoch}</a>")
    return f"<nav>{''.join(links)}<a href='/board.json'>JSON</a></nav>"


def page_links(board: dict[str, Any]) -> str:
    """Which entries this page shows of how many, and links to the pages before and after (nothing when one page
    holds every list)."""
    offset, limit, totals = board["offset"], board["limit"], board["totals"]
    most = max(totals.values(), default=0)
    if offset == 0 and most <= limit:
        return ""
    shown = (
        f"{offset + 1:,}-{min(offset + limit, totals['ranked']):,} of {totals['ranked']:,}"
        if offset < totals["ranked"]
        else f"none of {totals['ranked']:,}"
    )
    links = [f"<a href='{escape(page_href(board, max(offset - limit, 0)))}'>previous</a>"] if offset > 0 else []
    if offset + limit < most:
        links.append(f"<a href='{escape(page_href(board, offset + limit))}'>next</a>")
    return f"<nav><span class=quiet>Ranked {shown}. </span>{''.join(links)}</nav>"


def page_href(board: dict[str, Any], offset: int) -> str:
    """The address of this board from another entry (by page when on a page's boundary)."""
    limit = board["limit"]
    query: dict[str, Any] = {"epoch": board["epoch"]} if board["epoch"] is not None else {}
    query.update({"daily": board["daily"]} if board["daily"] else {})
    query.update({"page": offset // limit + 1} if offset % limit == 0 else {"offset": offset})
    query.update({"limit": limit} if limit != PAGE else {})
    return f"/board?{urlencode(query)}"


def witnessed_table(rows: list[dict[str, Any]]) -> str:
    """The ranked witnessed runs: played on this server (or one it trusts), each with its account."""
    if not rows:
        return ""
    head = (
        "<tr><th>#</th><th>Account</th><th>Name</th><th>Score</th><th>Turns</th><th>Cause of death</th>"
        "<th>Daily</th><th></th></tr>"
    )
    body = "".join(
        f"<tr><td class=num>{row['rank']}</td><td>{text(row['witness']['account'])}</td><td>{text(row['name'])}</td>"
        f"<td class=num>{text(row['score'])}</td><td class=num>{text(row['turns'])}</td><td>{text(row['cause'])}</td>"
        f"<td>{text(row['daily'])}</td><td>{links(row['hash'])}</td></tr>"
        for row in rows
    )
    return (
        "<h2>Witnessed</h2><p class=quiet>Played on this server, or on one whose key it trusts: the server saw every "
        "key arrive and signed the run.</p>"
        f"<table>{head}{body}</table>"
    )


def ranked_table(rows: list[dict[str, Any]]) -> str:
    """The ranked verified uploads."""
    if not rows:
        return "<p>No verified upload ranks here yet.</p>"
    head = "<tr><th>#</th><th>Name</th><th>Score</th><th>Turns</th><th>Cause of death</th><th>Daily</th><th></th></tr>"
    body = "".join(
        f"<tr><td class=num>{row['rank']}</td><td>{text(row['name'])}</td><td class=num>{text(row['score'])}</td>"
        f"<td class=num>{text(row['turns'])}</td><td>{text(row['cause'])}</td><td>{text(row['daily'])}</td>"
        f"<td>{links(row['hash'])}{signer_note(row)}</td></tr>"
        for row in rows
    )
    return f"<h2>Ranked verified uploads</h2><table>{head}{body}</table>"


def signer_note(row: dict[str, Any]) -> str:
    """Whose key signed an upload's certificate, when it has one a key not trusted here signed."""
    witness = row.get("witness")
    if not witness or witness.get("trusted"):
        return ""
    return f" <span class=quiet>signed by another server's key {text(witness.get('key'))}</span>"


def apart_table(title: str, rows: list[dict[str, Any]]) -> str:
    """Entries listed without a rank, each with why."""
    if not rows:
        return ""
    head = "<tr><th>Name</th><th>Score</th><th>Turns</th><th>Why not ranked</th><th></th></tr>"
    body = "".join(
        f"<tr><td>{text(row['name'])}</td><td class=num>{text(row['score'])}</td>"
        f"<td class=num>{text(row['turns'])}</td>"
        f"<td>{text(row.get('why'))}</td><td>{links(row['hash'])}{signer_note(row)}</td></tr>"
        for row in rows
    )
    return f"<h2>{escape(title)}</h2><table>{head}{body}</table>"


def links(digest: str) -> str:
    """The verdict and the replay of a run."""
    safe = escape(digest)
    return f"<a href='/runs/{safe}'>verdict</a> <a href='/runs/{safe}/replay'>replay</a> <code>{safe[:12]}</code>"


def text(value: Any) -> str:
    """A value shown in a cell (a dash for none), escaped."""
    return "&ndash;" if value is None else escape(str(value))
