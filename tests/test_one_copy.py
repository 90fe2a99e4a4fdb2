"""One copy of each mechanism between the games (issue 23, DESIGN.md: a game supplies only its
own parts): the table page skeleton's functions are defined in ``static/table/`` and never again
in a game's page module (``static/table/<game>/``), which supplies only its board; and no run of
six or more lines stands in two games' page modules, or in two games' match modules, whether the
same to the letter or of the same shape with other names, strings and numbers (what the
``duplicates`` tool reports: blank lines, comments, imports and lone punctuation passed over)."""

from __future__ import annotations

import itertools
import keyword
import re
from pathlib import Path

import veillee
from veillee.games import names

ROOT = Path(veillee.__file__).parent
TABLE = ROOT / "web" / "static" / "table"
RUN = 6
"""Lines in a run that counts as a copy."""

BOARD = {
    "constructor",
    "presenceMark",
    "dealOver",
    "endScreen",
    "layOutHand",
    "draw",
    "drawPresence",
    "hand",
    "tap",
    "turnLine",
    "score",
    "news",
    "seatName",
    "seatRows",
    "reason",
    "gameState",
}
"""The Board's shape, which every game's board supplies (page.js's header says each)."""

SKELETON_MECHANISM = re.compile(
    r"^(send|post|refuse|refusal|showRefusal|clearRefusal|banner|share|leave|sitDown|join"
    r"|connect|reconnect|status|presence|hello|resume|focus)",
    re.IGNORECASE,
)
"""What the skeleton does for every game (sending, refusals, presence, seating, status, banner,
sharing, leaving): a game module defines no function named for one, but the Board's own."""

JS_FUNCTION = re.compile(r"^(?:export\s+)?(?:async\s+)?function\s+([A-Za-z_$][\w$]*)")
JS_CONST_FUNCTION = re.compile(r"^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s*)?\(")
JS_METHOD = re.compile(r"^\s+(?:async\s+)?(?:static\s+)?([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*\{\s*$")
JS_KEYWORDS = {"if", "for", "while", "switch", "catch", "function", "return", "else"}


def top_level_functions(path: Path) -> set[str]:
    """The functions a JS module defines at its top level (declarations and arrow constants)."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = JS_FUNCTION.match(line) or JS_CONST_FUNCTION.match(line)
        if match:
            found.add(match.group(1))
    return found


def functions_and_methods(path: Path) -> set[str]:
    """Every function and class method a JS module defines, at any depth."""
    found = top_level_functions(path)
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        match = JS_FUNCTION.match(stripped) or JS_CONST_FUNCTION.match(stripped)
        if match:
            found.add(match.group(1))
        method = JS_METHOD.match(line)
        if method and method.group(1) not in JS_KEYWORDS:
            found.add(method.group(1))
    return found


def game_page_modules(game: str) -> list[Path]:
    return sorted((TABLE / game).glob("*.js"))


def skeleton_modules() -> list[Path]:
    return sorted(TABLE.glob("*.js")) + sorted((ROOT / "web" / "static" / "live").glob("*.js"))


def test_the_board_shape_is_the_one_page_js_says() -> None:
    header = (TABLE / "page.js").read_text(encoding="utf-8").split("\nimport ", 1)[0]
    assert all(re.search(rf"\b{name}\b", header) for name in BOARD)


def test_no_game_page_module_defines_a_function_of_the_skeleton() -> None:
    skeleton = set().union(*(top_level_functions(p) for p in skeleton_modules()))
    assert {"startTable", "openEndScreen", "scoreRow", "el"} <= skeleton  # the parse finds them
    for game in names():
        modules = game_page_modules(game)
        assert modules, game
        for path in modules:
            again = top_level_functions(path) & skeleton
            assert not again, f"{path.relative_to(ROOT)} defines the skeleton's {sorted(again)}"
            named = {
                name
                for name in functions_and_methods(path) - BOARD
                if SKELETON_MECHANISM.match(name)
            }
            assert not named, f"{path.relative_to(ROOT)} defines {sorted(named)}"


def test_the_skeleton_check_can_fail(tmp_path: Path) -> None:
    module = tmp_path / "board.js"
    module.write_text(
        "export function el(tag) {}\nclass Board {\n  sendChange(action) {\n  }\n}\n",
        encoding="utf-8",
    )
    assert top_level_functions(module) == {"el"}
    assert "sendChange" in functions_and_methods(module)
    assert SKELETON_MECHANISM.match("sendChange")


# ---- runs of lines -----------------------------------------------------------------------------

TOKEN = re.compile(
    r"""(?P<string>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)"""
    r"|(?P<number>\b\d[\d_]*(?:\.\d+)?\b)"
    r"|(?P<name>[A-Za-z_$][\w$]*)"
    r"|(?P<mark>\S)"
)
KEYWORDS = set(keyword.kwlist) | {
    "const", "let", "var", "function", "return", "export", "new", "this", "class", "extends",
    "typeof", "instanceof", "of", "switch", "case", "default", "break", "continue", "throw",
    "catch", "async", "await", "static", "null", "undefined", "true", "false", "self",
}  # fmt: skip
COMMENT = re.compile(r"^(#|//|/\*|\*|\*/)")
IMPORT = re.compile(r"^(import\s|from\s+\S+\s+import\s|export\s.*\sfrom\s)")


def shape(line: str) -> str:
    """A line with its names, strings and numbers replaced by their kind (keywords kept)."""
    out = []
    for token in TOKEN.finditer(line):
        kind = token.lastgroup
        text = token.group()
        if kind == "name":
            out.append(text if text in KEYWORDS else "N")
        elif kind == "mark":
            out.append(text)
        else:
            out.append("S" if kind == "string" else "0")
    return " ".join(out)


def code_lines(path: Path) -> list[tuple[int, str]]:
    """The lines that count, numbered, each as its shape: no blank line, comment, import, nor a
    line of punctuation alone."""
    kept = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or COMMENT.match(line) or IMPORT.match(line):
            continue
        if not re.search(r"[\w\"'`]", line):
            continue
        kept.append((number, shape(line)))
    return kept


def shared_runs(a: Path, b: Path, run: int = RUN) -> list[tuple[int, int]]:
    """Where a run of ``run`` lines of ``a`` stands again in ``b``, to the letter or in shape:
    the first line numbers of each such run, in ``a`` and in ``b``."""
    lines_a, lines_b = code_lines(a), code_lines(b)
    starts: dict[tuple[str, ...], int] = {}
    for i in range(len(lines_b) - run + 1):
        starts.setdefault(tuple(s for _, s in lines_b[i : i + run]), lines_b[i][0])
    found = []
    for i in range(len(lines_a) - run + 1):
        key = tuple(s for _, s in lines_a[i : i + run])
        if key in starts:
            found.append((lines_a[i][0], starts[key]))
    return found


def pairs_of_games() -> list[tuple[str, str]]:
    return list(itertools.combinations(names(), 2))


def test_no_run_of_lines_is_in_two_games_page_modules_or_match_modules() -> None:
    assert pairs_of_games()
    for first, second in pairs_of_games():
        pairs = [(a, b) for a in game_page_modules(first) for b in game_page_modules(second)] + [
            (ROOT / "games" / first / "match.py", ROOT / "games" / second / "match.py")
        ]
        for a, b in pairs:
            runs = shared_runs(a, b)
            assert not runs, f"{a.relative_to(ROOT)} ~ {b.relative_to(ROOT)}: lines {runs}"


def test_the_run_check_can_fail(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    body = "\n".join(f"x{i} = f(x, {i})  # n" for i in range(RUN))
    a.write_text("import os\n\n" + body + "\n", encoding="utf-8")
    b.write_text(
        "# other\n" + body.replace("x", "y").replace("f(", "g(") + "\n)\n", encoding="utf-8"
    )
    assert shared_runs(a, b) == [(3, 2)]  # the same shape with other names and numbers
    b.write_text(body.rsplit("\n", 1)[0] + "\n", encoding="utf-8")
    assert shared_runs(a, b) == []  # five lines are no run
