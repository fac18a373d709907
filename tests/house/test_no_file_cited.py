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


def test_no_string_of_the_product_cites_the_rules_file() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text[:80]!r}"
        for path in product_files()
        for line, text in string_constants(path)
        if CITED in text
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
