"""The pages of accounts (sign up, log in), in the look of the board's page: every name and message escaped, and
characters a terminal would act on (ANSI escapes, other controls) shown as the replacement character."""

from __future__ import annotations

from html import escape

from roguelike.server.page import STYLE

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with the forms' own
    # posts, which the cross-site check must refuse (a real Chromium could not sign up); other sites still
    # get no referrer.
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    # The forms post only here, and no other site may frame them (a log-in page in a frame invites clickjacking).
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
    "frame-ancestors 'none'",
}
FORM_STYLE = """
form.account label { display: block; margin: 0.8em 0 0.2em; } form.account input { font-size: 1em; padding: 0.3em; }
form.account button, form.out button { margin-top: 1em; font-size: 1em; padding: 0.3em 1em; }
p.problem { color: #a00; font-weight: bold; }
"""
NAME_RULE = "A name has 1 to 20 characters: letters, digits, - and _."
TAKEN = "That name is taken (names are one whatever their capitals): choose another."
TOO_MANY_LOGINS = "Too many log-in attempts for this name or from this address: wait a few minutes and try again."
TOO_MANY_SIGNUPS = "Too many sign-ups from this address: try again later."
UNREADABLE = "That form could not be read: send it again from this page."
OTHER_SITE = "That form was sent from another site's page: use this site's own page."


def shown(text: str) -> str:
    """Text as HTML: escaped, every control character (an ANSI escape's ESC among them) replaced by U+FFFD."""
    return escape("".join(character if character.isprintable() else "\ufffd" for character in text))


def framed(title: str, body: str) -> str:
    """A whole page around its body."""
    return (
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{shown(title)}</title>"
        f"<meta name=viewport content='width=device-width'><style>{STYLE}{FORM_STYLE}</style></head><body>"
        f"<h1>{shown(title)}</h1>{body}</body></html>"
    )


def problem(message: str) -> str:
    """What was wrong with the form sent (nothing when nothing was)."""
    return f"<p class=problem role=alert>{shown(message)}</p>" if message else ""


def who(account: str | None) -> str:
    """Whom this browser is logged in as, with a button to log out (nothing when logged out)."""
    if account is None:
        return ""
    return (
        f"<p>You are logged in as <strong>{shown(account)}</strong>.</p>"
        "<form class=out method=post action='/logout'><button type=submit>Log out</button></form>"
    )


def name_field(name: str, rule: bool) -> str:
    """The name's field, holding what was typed."""
    pattern = " pattern='[A-Za-z0-9_\\-]{1,20}' maxlength=20" if rule else " maxlength=64"
    return (
        "<label for=name>Name</label>"
        f"<input id=name name=name value='{shown(name)}' required autocomplete=username{pattern}>"
    )


def signup_page(account: str | None, name: str = "", message: str = "") -> str:
    """The sign-up form (and whom this browser is logged in as)."""
    body = (
        "<p class=quiet>Hedonic Hypothesis. An account keeps your games on this server: a name and a password, "
        "nothing else (no e-mail: there is no way to reset a lost password).</p>"
        f"{who(account)}{problem(message)}"
        "<form class=account method=post action='/signup'>"
        f"{name_field(name, rule=True)}<span class=quiet> {shown(NAME_RULE)}</span>"
        "<label for=password>Password</label>"
        "<input id=password name=password type=password required minlength=8 maxlength=256 "
        "autocomplete=new-password><span class=quiet> 8 to 256 characters.</span>"
        "<label for=again>Password again</label>"
        "<input id=again name=again type=password required minlength=8 maxlength=256 autocomplete=new-password>"
        "<br><button type=submit>Sign up</button></form>"
        "<p>Have an account? <a href='/login'>Log in</a>.</p>"
    )
    return framed("Sign up", body)


def login_page(account: str | None, name: str = "", message: str = "") -> str:
    """The log-in form (and whom this browser is logged in as)."""
    body = (
        f"<p class=quiet>Hedonic Hypothesis.</p>{who(account)}{problem(message)}"
        "<form class=account method=post action='/login'>"
        f"{name_field(name, rule=False)}"
        "<label for=password>Password</label>"
        "<input id=password name=password type=password required maxlength=256 autocomplete=current-password>"
        "<br><button type=submit>Log in</button></form>"
        "<p>No account yet? <a href='/signup'>Sign up</a>.</p>"
    )
    return framed("Log in", body)


def message_page(title: str, message: str) -> str:
    """A page saying one thing."""
    return framed(title, f"{problem(message)}<p><a href='/login'>Log in</a> or <a href='/signup'>sign up</a>.</p>")
