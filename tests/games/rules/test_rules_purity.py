"""The rule engines stay pure: standard library only, no framework (STYLE.md)."""

import ast
import sys
from pathlib import Path

RULES = Path(__file__).parents[3] / "games" / "rules"
FRAMEWORKS = {"django", "rest_framework", "celery"}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def rule_modules() -> list[Path]:
    modules = sorted(RULES.rglob("*.py"))
    assert modules, f"no rule modules found under {RULES}"
    return modules


def test_no_rule_module_imports_a_framework() -> None:
    offenders = {
        f"{path.relative_to(RULES)}: {name}"
        for path in rule_modules()
        for name in imported_modules(path)
        if name.split(".")[0] in FRAMEWORKS
    }
    assert not offenders


def test_rule_modules_import_only_the_standard_library_and_each_other() -> None:
    allowed = set(sys.stdlib_module_names) | {"games"}
    offenders = {
        f"{path.relative_to(RULES)}: {name}"
        for path in rule_modules()
        for name in imported_modules(path)
        if name.split(".")[0] not in allowed
    }
    assert not offenders
