"""Every refusal code the rule engines raise is documented in docs/ERRORS.md.

The scan reads the source of ``games/**/*.py`` (no import, so no Django) and collects the first
argument of every ``IllegalEvent(...)``, ``BadSetup(...)``, ``BadRuleset(...)`` (or ``RuleError``)
call, wherever the argument sits (same line or the next). Codes that reach those calls through a
helper are followed back to the literals its callers pass:

- a parameter holding the exception class (``error(code, ...)`` in ``board.read_position``);
- a parameter holding the code (``scarnie.read_teams(teams, seats, "setup.bad_teams")``);
- an f-string prefixed by a parameter (``f"{scope}.bad_teams"`` with ``scope`` "setup" or "match");
- a conditional (``"setup.empty_position" if count == 0 else "setup.too_few_pawns"``).

A first argument the scan cannot resolve fails the test, so a new way of raising cannot hide codes.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
ERRORS_DOC = ROOT / "docs" / "ERRORS.md"

# BadValue: the canonical form's refusals (games/canonical.py), 400s.
EXCEPTIONS = frozenset(
    {"IllegalEvent", "BadSetup", "BadRuleset", "RuleError", "BadValue", "StateConflict"}
)
CODE = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")
# Deep enough for helper chains (scarney_3000: read_teams -> read_sides -> f"{scope}...").
MAX_DEPTH = 6

Scope = ast.FunctionDef | ast.AsyncFunctionDef


class Source:
    """Every module of games/ parsed, with each call's enclosing function."""

    def __init__(self) -> None:
        self.calls: list[tuple[ast.Call, Scope | None, Path]] = []
        self.functions: dict[str, list[tuple[Scope, Path]]] = {}
        # Per file: local name -> stem of the module it comes from (``from x import name`` or a
        # module imported under a name), so a helper's callers are found in the right modules.
        self.imports: dict[Path, dict[str, str]] = {}
        for path in sorted(GAMES.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            self.imports[path] = _imports(tree)
            self._walk(tree, None, path)

    def calls_of(self, function: Scope, home: Path) -> Iterator[tuple[ast.Call, Scope | None]]:
        """Calls that reach ``function`` (defined in ``home``), in its module or importing it."""
        for call, scope, path in self.calls:
            if _called_name(call) != function.name:
                continue
            target = call.func
            if isinstance(target, ast.Name):
                module = home.stem if path == home else self.imports[path].get(target.id)
            elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                owner = target.value.id
                module = home.stem if owner in ("self", "cls") and path == home else None
                module = module or self.imports[path].get(owner, owner)
            else:
                module = None
            if module == home.stem:
                yield call, scope

    def _walk(self, node: ast.AST, scope: Scope | None, path: Path) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions.setdefault(child.name, []).append((child, path))
                inner = child
            if isinstance(child, ast.Call):
                self.calls.append((child, scope, path))
            self._walk(child, inner, path)


def _imports(tree: ast.Module) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                # from games.rules import scarnie -> scarnie; from .board import x -> board
                names[alias.asname or alias.name] = (
                    alias.name
                    if node.module in (None, "games.rules", "games")
                    else node.module.rsplit(".", 1)[-1]
                )
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.rsplit(".", 1)[-1]] = alias.name.rsplit(".", 1)[-1]
    return names


def _called_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _params(function: Scope) -> list[ast.arg]:
    args = function.args
    return [*args.posonlyargs, *args.args, *args.kwonlyargs]


def _is_param(scope: Scope | None, name: str) -> bool:
    return scope is not None and any(arg.arg == name for arg in _params(scope))


def _defaults(function: Scope) -> dict[str, ast.expr]:
    """Each parameter's default expression, by name."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    with_default = positional[len(positional) - len(args.defaults) :]
    found = {arg.arg: default for arg, default in zip(with_default, args.defaults, strict=True)}
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if kw_default is not None:
            found[arg.arg] = kw_default
    return found


def _raises_with_param(scope: Scope | None, name: str) -> bool:
    """``name`` is a parameter of ``scope`` that holds an exception class (default or type)."""
    if scope is None:
        return False
    defaults = _defaults(scope)
    for arg in _params(scope):
        if arg.arg != name:
            continue
        default = defaults.get(name)
        hints = ast.unparse(arg.annotation) if arg.annotation else ""
        if isinstance(default, ast.Name) and default.id in EXCEPTIONS:
            return True
        return any(exception in hints for exception in EXCEPTIONS)
    return False


def _argument_values(
    source: Source, function: str, param: str, depth: int
) -> Iterator[str | ast.AST]:
    """Every value callers give ``function``'s ``param`` (strings, or nodes not resolved)."""
    for definition, home in source.functions.get(function, []):
        names = [arg.arg for arg in [*definition.args.posonlyargs, *definition.args.args]]
        index = names.index(param) if param in names else None
        if param in _defaults(definition):
            yield from _values(source, _defaults(definition)[param], None, depth)
        for call, scope in source.calls_of(definition, home):
            given = [kw.value for kw in call.keywords if kw.arg == param]
            if not given and index is not None:
                # A method called as obj.method(...) does not pass self positionally.
                offset = 1 if names and names[0] in ("self", "cls") else 0
                if 0 <= index - offset < len(call.args):
                    given = [call.args[index - offset]]
            for node in given:
                yield from _values(source, node, scope, depth)


def _values(
    source: Source, node: ast.AST, scope: Scope | None, depth: int
) -> Iterator[str | ast.AST]:
    """The code strings an expression can take, following parameters back to their callers."""
    if depth > MAX_DEPTH:
        yield node
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _values(source, node.body, scope, depth)
        yield from _values(source, node.orelse, scope, depth)
    elif isinstance(node, ast.Name) and _is_param(scope, node.id):
        assert scope is not None
        yield from _argument_values(source, scope.name, node.id, depth + 1)
    elif isinstance(node, ast.JoinedStr):
        yield from _fstring_values(source, node, scope, depth)
    else:
        yield node


def _fstring_values(
    source: Source, node: ast.JoinedStr, scope: Scope | None, depth: int
) -> Iterator[str | ast.AST]:
    """``f"{param}.rest"``: each value of the parameter followed by the literal rest."""
    parts = node.values
    if (
        len(parts) == 2
        and isinstance(parts[0], ast.FormattedValue)
        and isinstance(parts[1], ast.Constant)
        and isinstance(parts[1].value, str)
    ):
        for prefix in _values(source, parts[0].value, scope, depth):
            yield prefix + parts[1].value if isinstance(prefix, str) else node
    else:
        yield node


def _is_reraise(node: ast.AST) -> bool:
    """``IllegalEvent(issue.code, ...)`` passes on a code raised (and scanned) elsewhere."""
    return isinstance(node, ast.Attribute) and node.attr == "code"


@functools.cache
def scan() -> tuple[dict[str, set[str]], list[str]]:
    """Codes raised (code -> files) and the first arguments that could not be resolved."""
    source = Source()
    codes: dict[str, set[str]] = {}
    unresolved: list[str] = []
    for call, scope, path in source.calls:
        name = _called_name(call)
        raising = name in EXCEPTIONS or (
            isinstance(call.func, ast.Name) and _raises_with_param(scope, call.func.id)
        )
        if not raising or not call.args or _is_reraise(call.args[0]):
            continue
        where = f"{path.relative_to(ROOT)}:{call.lineno}"
        for value in _values(source, call.args[0], scope, 0):
            if isinstance(value, str) and CODE.match(value):
                codes.setdefault(value, set()).add(where)
            else:
                shown = value if isinstance(value, str) else ast.unparse(value)
                unresolved.append(f"{where}: {shown}")
    return codes, unresolved


def test_every_raised_code_is_resolved() -> None:
    _codes, unresolved = scan()
    assert not unresolved, "Codes the scan cannot follow (extend the scan):\n" + "\n".join(
        unresolved
    )


def test_the_scan_finds_the_codes() -> None:
    codes, _unresolved = scan()
    assert len(codes) > 150, f"only {len(codes)} codes found: the scan is broken"
    # Codes reached only through helpers are found too.
    for code in (
        "setup.bad_position",  # board.read_position's error parameter
        "setup.bad_teams",  # scarnie.read_teams(..., "setup.bad_teams") and f"{scope}..."
        "match.teams_not_alternating",  # f"{scope}.teams_not_alternating", scope "match"
        "setup.too_few_pawns",  # a conditional first argument
    ):
        assert code in codes, code


def test_every_raised_code_is_documented() -> None:
    codes, _unresolved = scan()
    documented = ERRORS_DOC.read_text(encoding="utf-8")
    missing = sorted(code for code in codes if f"`{code}`" not in documented)
    assert not missing, "Codes raised but not in docs/ERRORS.md:\n" + "\n".join(
        f"{code}  ({', '.join(sorted(codes[code]))})" for code in missing
    )
