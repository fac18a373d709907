"""No text a user reads cites a file of this repository: a refusal, an explanation (the standings'
tie-breaks), an API description or a page names a rule as the rule books do ("Scarney
Solitaire's match point ratings"), never "RULES.md 2.6".

The product's string constants are read from its syntax tree, so docstrings (which only a reader
of the code meets) and comments (not in the tree at all) are left out; the templates are read
whole.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.house.test_house import PRODUCT, ROOT, product_files

CITED = "RULES.md"

# Event declarations ("events" shapes) are being reworded by another change (their declared
# bounds becoming guards); their descriptions still cite the book's file until it lands. Each
# is named by its file and its text, so that no other string passes with them.
DECLARATIONS_REWORDED_ELSEWHERE = {
    ("games/rules/scarney_3000/match.py", "A finished sheet (RULES.md 0.6, Appendix B.4)"),
    ("games/rules/straight_dice/match.py", "A finished score pad (RULES.md 0.6, Appendix B.5)"),
    ("games/rules/dice_games/double_cameroon_match.py", "A finished sheet (RULES.md 0.6, 12.3)"),
    ("games/rules/dice_games/shapes.py", "a category of the sheet (RULES.md 12.3)"),
    ("games/rules/dice_games/boston_match.py", "A round from a sheet (RULES.md 0.6)"),
    ("games/rules/dice_games/hearts_due_match.py", "A finished sheet (RULES.md 0.6, 15.2)"),
    ("games/rules/put_and_take/game.py", "A seating throw of three dice (RULES.md 11.2)"),
    ("games/rules/put_and_take/game.py", "Everyone seated antes: a round begins (RULES.md 11.3)"),
    ("games/rules/put_and_take/game.py", "The shooter doubles what his next throw"),
    ("games/rules/put_and_take/game.py", "The shooter's throw of the three dice (RULES.md 11.4)"),
    ("games/store/event_types.py", "The match's settlement, as its format computes it (RULES"),
}


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the tree's docstrings (and of any other bare string statement)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    }


def string_constants(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    left_out = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in left_out:
                yield node.lineno, node.value


def reworded_elsewhere(path: str, text: str) -> bool:
    return any(path == p and text.startswith(start) for p, start in DECLARATIONS_REWORDED_ELSEWHERE)


def test_no_string_of_the_product_cites_the_rules_file() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for path in product_files()
        for line, text in string_constants(path)
        if CITED in text and not reworded_elsewhere(str(path.relative_to(ROOT)), text)
    ]
    assert not found, "\n".join(found)


def test_no_template_cites_the_rules_file() -> None:
    templates = [
        path
        for package in PRODUCT
        for path in sorted((ROOT / package).rglob("templates/**/*"))
        if path.is_file()
    ]
    assert templates, "no template found"
    found = [str(t.relative_to(ROOT)) for t in templates if CITED in t.read_text()]
    assert not found, found


def test_the_scan_sees_strings_and_leaves_out_docstrings(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text(
        'def rule() -> str:\n    """Cites RULES.md 0.8 for a reader of the code."""\n'
        '    return "Net (RULES.md 0.8)"  # RULES.md in a comment\n'
    )
    assert [text for _, text in string_constants(module) if CITED in text] == ["Net (RULES.md 0.8)"]
