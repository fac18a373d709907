"""Every refusal code the rule engines raise is documented in docs/ERRORS.md; and the OpenAPI
schema documents, at each operation, the statuses and codes it really answers (the last tests).

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
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
GAMES = ROOT / "games"
ERRORS_DOC = ROOT / "docs" / "ERRORS.md"

# BadValue: the canonical form's refusals (games/store/canonical.py), 400s.
EXCEPTIONS = frozenset(
    {
        "IllegalEvent",
        "BadSetup",
        "BadRuleset",
        "RuleError",
        "BadValue",
        "StateConflict",
        "NotThere",
    }
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


# --- the schema documents what each operation answers ------------------------------------------


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    generated: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    return generated


def answers(schema: dict[str, Any]) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            for status, answer in operation["responses"].items():
                yield method, path, status, answer


def documented(schema: dict[str, Any], operation: str, status: int, code: str) -> bool:
    """The operation lists ``status`` and names ``code`` among its codes."""
    method, path = operation.split(" ")
    answer = schema["paths"][path][method]["responses"].get(str(status))
    return answer is not None and f"`{code}`" in answer["description"]


def test_every_error_answer_in_the_schema_has_the_house_error_shape(
    schema: dict[str, Any],
) -> None:
    bare = [
        f"{method} {path} {status}"
        for method, path, status, answer in answers(schema)
        if status.startswith("4") and status != "414"  # 414 is gunicorn's, in plain text
        if answer.get("content", {}).get("application/json", {}).get("schema")
        != {"$ref": "#/components/schemas/Error"}
    ]
    assert not bare, bare


def test_every_json_answer_in_the_schema_is_a_named_component(schema: dict[str, Any]) -> None:
    """No 2xx answer is a bare object (the 202 of a document, the nightly reports' list ...)."""
    bare = [
        f"{method} {path} {status}"
        for method, path, status, answer in answers(schema)
        if status.startswith("2")
        for media, body in answer.get("content", {}).items()
        if media == "application/json" and "$ref" not in body["schema"]
    ]
    assert not bare, bare


def test_a_webhook_refusal_is_documented_at_the_operation_that_answers_it(
    schema: dict[str, Any], db: Any
) -> None:
    from rest_framework.test import APIClient

    from tests.games.tournaments.helpers import client_for

    # given a director, a member, a visitor without a login and one with a bad token
    _director, director = client_for("director", staff=True)
    _member, member = client_for("member")
    anonymous, bad_token = APIClient(), APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    hooks = "/api/v1/webhooks/"
    url = "https://club.example.org/scarney"

    # when each of the webhooks' refusals is met
    met = [
        ("post", hooks, director.post(hooks, {"url": "ftp://x"}, format="json")),
        ("post", hooks, director.post(hooks, {"url": url, "events": ["x"]}, format="json")),
        ("post", hooks, director.post(hooks, {"url": url, "secret": "s"}, format="json")),
        ("post", hooks, director.post(hooks, [url], format="json")),
        ("post", hooks, member.post(hooks, {"url": url}, format="json")),
        ("get", hooks, anonymous.get(hooks)),
        ("get", hooks, bad_token.get(hooks)),
        ("get", hooks, member.get(hooks)),
        ("get", "/api/v1/webhooks/{id}/", director.get(f"{hooks}999/")),
        ("delete", "/api/v1/webhooks/{id}/", director.delete(f"{hooks}999/")),
        ("delete", "/api/v1/webhooks/{id}/", anonymous.delete(f"{hooks}999/")),
        ("get", "/api/v1/webhooks/{id}/deliveries/", member.get(f"{hooks}999/deliveries/")),
        (
            "get",
            "/api/v1/webhooks/{id}/deliveries/",
            director.get(f"{hooks}999/deliveries/", {"status": "lost"}),
        ),
    ]

    # then each status and code is documented there
    codes = {(response.status_code, response.json()["code"]) for _m, _p, response in met}
    assert {status for status, _code in codes} == {400, 401, 403, 404, 422}
    missing = [
        f"{method} {path}: {response.status_code} {response.json()['code']}"
        for method, path, response in met
        if not documented(schema, f"{method} {path}", response.status_code, response.json()["code"])
    ]
    assert not missing, missing


def test_the_webhooks_document_no_answer_they_cannot_give(schema: dict[str, Any]) -> None:
    scanned, _unresolved = scan()
    own = sorted(
        code
        for code, files in scanned.items()
        if code.startswith("webhook.") and any("webhooks" in f for f in files)
    )
    assert own == ["webhook.bad_events", "webhook.bad_url", "webhook.unknown_field"]
    for method, path, status, answer in answers(schema):
        if not path.startswith("/api/v1/webhooks/"):
            continue
        assert status != "409", f"{method} {path}"  # a webhook is no stream: no version
        if status == "422":
            assert (method, path) == ("post", "/api/v1/webhooks/")
            assert all(f"`{code}`" in answer["description"] for code in own)
        if status in ("401", "403", "422"):
            # the examples shown are ones met at the webhooks, never a game's refusal
            shown = answer["content"]["application/json"].get("examples", {})
            assert shown and all(name.startswith("Webhook") for name in shown), shown


def test_a_document_documents_its_202_and_a_nightly_report_does_not(
    schema: dict[str, Any],
) -> None:
    paths = schema["paths"]
    for path in (
        "/api/v1/matches/{id}/score-sheet.pdf",
        "/api/v1/tournaments/{id}/standings.html",
        "/api/v1/tournaments/{id}/rounds/{number}/cards.pdf",
        "/api/v1/tournaments/{id}/players/{player}/slip.pdf",
    ):
        waiting = paths[path]["get"]["responses"]["202"]["content"]
        assert waiting["application/json"]["schema"] == {
            "$ref": "#/components/schemas/RenderingAnswer"
        }
        assert "text/html" in waiting, path  # the page a browser gets
        ending = path.rsplit(".", 1)[1]
        assert list(paths[path]["get"]["responses"]["200"]["content"]) == [
            {"csv": "text/csv", "html": "text/html", "pdf": "application/pdf"}[ending]
        ]
    for fmt in ("html", "pdf"):
        assert "202" not in paths[f"/api/v1/reports/nightly/{{day}}.{fmt}"]["get"]["responses"]
