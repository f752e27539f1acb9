"""Every QR payload a help text shows is today's printed format,
PNP:CARD-ID:REVISION:COPY, and names a real card."""
from __future__ import annotations

import re

import click

from pnp.sources.qrpayload import parse_payload
from referee.cards import load_index, project_root
from referee.cli.main import cli, game_commands
from referee.model import GameSlug

PAYLOAD = re.compile(r"PNP:[A-Z0-9:-]+")


def _helps() -> dict[str, str]:
    out = {"referee": cli.get_help(click.Context(cli, info_name="referee"))}
    for name, command in cli.commands.items():
        out[name] = command.get_help(click.Context(command, info_name=name))
    for slug in GameSlug:
        for name, command in game_commands(slug.value).items():
            out[f"{slug.value} {name}"] = command.get_help(click.Context(command, info_name=name))
    return out


def test_help_examples_use_todays_payload_format():
    cards = load_index(project_root()).cards
    seen = 0
    for where, text in _helps().items():
        for token in PAYLOAD.findall(text.replace("\\n", " ")):
            payload = parse_payload(token)
            assert payload is not None and payload.game is None and payload.copy is not None, (where, token)
            assert payload.card_id in cards, (where, token)
            seen += 1
    assert seen >= 5
