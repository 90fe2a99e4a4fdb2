"""Finding card codes in JSON data: what the hidden-information tests scan views with."""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

_WORD = re.compile(r"\w+")


def cards_named(value: Any, pack: Collection[str]) -> set[str]:
    """Every card code of ``pack`` standing as a word anywhere in the JSON text of ``value``:
    strings, words of strings (action texts such as ``"discard 7C 8D"``, ``"KH mariage"``) and
    dict keys. Reading the JSON text once is fast enough to scan every view of hundreds of
    deals."""
    return set(_WORD.findall(json.dumps(value))) & set(pack)
