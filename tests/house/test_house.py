"""The shape of the house (docs/DESIGN.md "The house"): one way through it, read from the code.

import-linter holds the layers and the independences (its contracts are in pyproject.toml);
these tests add what it does not check: no import cycle at all (an import inside a function
counts), no module reaching for another's private names, and folders small enough to read.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("games", "scoring", "scarney_site")
MOST_MODULES_PER_FOLDER = 10
# A module a newcomer reads in one sitting; the rules' families are exempt: a game's rules read
# best whole, as its section of the book does.
MOST_LINES_PER_MODULE = 400


def product_files() -> Iterator[Path]:
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_import_linter_contracts_are_kept() -> None:
    # given the contracts in pyproject.toml; when import-linter reads the code
    linter = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(linter), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    # then every contract is kept
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_no_module_imports_another_in_a_circle_even_inside_a_function() -> None:
    graph = grimp.build_graph(*PRODUCT, include_external_packages=False)
    modules = {m for m in graph.modules if ".migrations" not in m}
    edges = {
        m: {n for n in graph.find_modules_directly_imported_by(m) if n in modules and n != m}
        for m in modules
    }
    circles = [sorted(c) for c in strongly_connected(edges) if len(c) > 1]
    assert circles == []


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of the import graph, iteratively (the graph is deep)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.add(top)
                        if top == node:
                            break
                    found.append(component)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def private_names_taken(path: Path, modules: set[str]) -> Iterator[str]:
    """Each ``from x import _name`` and ``module._name`` of a product module other than its own."""
    tree = ast.parse(path.read_text(), str(path))
    own = module_name(path)
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if target in modules:
                    aliases[alias.asname or alias.name] = target
                elif is_private(alias.name) and node.module in modules and node.module != own:
                    yield f"{own}: from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules and alias.asname:
                    aliases[alias.asname] = alias.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            target = aliases.get(node.value.id)
            if target and target != own and is_private(node.attr):
                yield f"{own}: {node.value.id}.{node.attr} ({target})"


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_takes_another_modules_private_names() -> None:
    modules = {module_name(p) for p in product_files()}
    taken = [found for path in product_files() for found in private_names_taken(path, modules)]
    assert taken == []


def test_no_folder_of_the_product_holds_more_than_ten_modules() -> None:
    crowded = {}
    for package in PRODUCT:
        for folder in [ROOT / package, *(ROOT / package).rglob("*/")]:
            if "migrations" in folder.parts or "__pycache__" in folder.parts:
                continue
            modules = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
            if len(modules) > MOST_MODULES_PER_FOLDER:
                crowded[str(folder.relative_to(ROOT))] = len(modules)
    assert crowded == {}


def test_no_module_outside_the_rules_is_over_four_hundred_lines() -> None:
    rules = ROOT / "games" / "rules"
    long = {
        str(path.relative_to(ROOT)): lines
        for path in product_files()
        if rules not in path.parents
        and (lines := len(path.read_text().splitlines())) > MOST_LINES_PER_MODULE
    }
    assert long == {}


def test_every_module_of_the_tournaments_context_has_its_place_in_the_house() -> None:
    # import-linter's layers cannot nest, so the context's layer names its modules one by one
    # (its pure core is a layer of its own, below the store): a new one must be named there too.
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    house = next(c for c in contracts["contracts"] if c["id"] == "house")
    named = {
        name.strip()
        for layer in house["layers"]
        for name in layer.replace("|", ":").split(":")
        if name.strip().startswith("games.tournaments.")
    }
    context = ROOT / "games" / "tournaments"
    modules = {f"games.tournaments.{p.stem}" for p in context.glob("*.py") if p.stem != "__init__"}
    packages = {
        f"games.tournaments.{p.name}" for p in context.iterdir() if (p / "__init__.py").exists()
    }
    assert named == modules | packages


@pytest.mark.django_db
def test_the_models_moved_without_a_migration_their_labels_and_tables_are_unchanged() -> None:
    # makemigrations --check exits non-zero when a model's state differs from the migrations
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
    from games.store.models import Event, Stream, Tournament

    assert (Stream._meta.app_label, Stream._meta.db_table) == ("games", "games_stream")
    assert (Event._meta.db_table, Tournament._meta.db_table) == ("games_event", "games_tournament")
