"""Every rule number cited in the code, tests and docs is defined in docs/rules/:
a reader who meets "CW-7.2", "CP-2.4", "BG-8.7" or "SG-8.11" anywhere can open the rule in the
repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES_DIR = ROOT / "docs" / "rules"
RULES = {"CW": RULES_DIR / "coinwar.md", "CP": RULES_DIR / "coup.md", "BG": RULES_DIR / "bang.md",
         "SG": RULES_DIR / "sanguosha-map.md"}
SEARCHED = ("controller", "tests", "web_panel", "benchmarks", "sensors", "hardware_docs", "firmware", "docs")
CITED = re.compile(r"\b(C[WP]|BG|SG)-(\d+(?:\.\d+)?)\b")
DEFINED = re.compile(r"^(?:#+ |- \*\*)((?:C[WP]|BG|SG)-\d+(?:\.\d+)?)\b", re.M)


def _sources():
    for top in SEARCHED:
        for path in (ROOT / top).rglob("*"):
            if path.suffix in (".py", ".js", ".md", ".html") and "node_modules" not in path.parts:
                yield path


def test_every_cited_rule_number_is_defined_in_docs_rules():
    defined = {m for path in RULES.values() for m in DEFINED.findall(path.read_text(encoding="utf-8"))}
    missing = {}
    for path in _sources():
        for prefix, number in CITED.findall(path.read_text(encoding="utf-8", errors="replace")):
            rule = f"{prefix}-{number}"
            if rule not in defined:
                missing.setdefault(rule, path.relative_to(ROOT).as_posix())
    assert missing == {}


def test_the_rule_files_number_every_rule_of_both_games():
    defined = {m for path in RULES.values() for m in DEFINED.findall(path.read_text(encoding="utf-8"))}
    expected = {f"CW-{n}" for n in range(1, 10)} | {f"CP-{n}" for n in range(1, 8)}
    expected |= {f"CW-1.{i}" for i in range(1, 7)} | {f"CW-2.{i}" for i in range(1, 4)}
    expected |= {f"CW-3.{i}" for i in range(1, 5)} | {f"CW-4.{i}" for i in range(1, 6)}
    expected |= {f"CW-5.{i}" for i in range(1, 6)} | {f"CW-6.{i}" for i in range(1, 7)}
    expected |= {f"CW-7.{i}" for i in range(1, 7)} | {"CW-8.1"}
    expected |= {f"CP-2.{i}" for i in range(1, 5)} | {f"CP-3.{i}" for i in range(1, 5)}
    expected |= {f"CP-4.{i}" for i in range(1, 4)} | {f"CP-5.{i}" for i in range(1, 5)}
    assert expected <= defined, sorted(expected - defined)
    coinwar = RULES["CW"].read_text(encoding="utf-8")
    assert coinwar.count("[interpretation]") >= 13  # every deliberate choice stays marked


def test_the_rule_files_number_every_rule_of_bang_and_the_battlefield():
    defined = {m for path in RULES.values() for m in DEFINED.findall(path.read_text(encoding="utf-8"))}
    expected = {f"BG-{n}" for n in range(1, 9)} | {f"BG-2.{i}" for i in range(1, 5)}
    expected |= {f"BG-8.{i}" for i in range(1, 15)}
    expected |= {f"SG-{n}" for n in range(1, 10)} | {"SG-3.1", "SG-3.2", "SG-9.1"}
    expected |= {f"SG-8.{i}" for i in range(1, 15)}
    assert expected <= defined, sorted(expected - defined)
    for prefix in ("BG", "SG"):
        extra = sorted(m for m in defined if m.startswith(prefix) and m not in expected)
        assert extra == [], f"{prefix} numbers the spec does not have: {extra}"
    battlefield = RULES["SG"].read_text(encoding="utf-8")
    assert battlefield.count("[interpretation]") >= 3  # SG-4's wake-up, SG-6's physical fights, SG-8.11


def test_the_rules_index_lists_every_rule_file():
    index = (RULES_DIR / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([\w-]+\.md)\)", index))
    assert linked == {path.name for path in RULES.values()}
    assert {path.name for path in RULES_DIR.glob("*.md")} == linked | {"README.md"}


def _comment_lines(path: Path):
    """(number, line) of the comments and docs: in Python the ``#`` comments and docstrings, in the
    other files every line (Markdown is all docs; JavaScript citations sit in comments)."""
    inside = False
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if path.suffix != ".py":
            yield n, line
            continue
        quotes = line.count('"""')
        if inside or quotes or line.lstrip().startswith("#"):
            yield n, line
        if quotes % 2:
            inside = not inside


def test_no_rule_citation_points_at_a_spec_file_outside_the_repository():
    outside = re.compile(r"(shared/spec/|\.\./shared/|spec/)(coinwar|coup|bang|sanguosha-map)\.md|/work/shared\b")
    bare = re.compile(r"(?<![\w/.-])(coinwar|coup|bang|sanguosha-map)\.md\b")
    offenders = []
    for path in _sources():
        if path.parent == RULES_DIR or path == Path(__file__).resolve():
            continue
        for n, line in _comment_lines(path):
            if outside.search(line) or bare.search(line):
                offenders.append(f"{path.relative_to(ROOT).as_posix()}:{n}")
    assert offenders == []


def test_no_comment_cites_an_issue_number_and_contracts_are_cited_in_docs():
    """History lives in CHANGELOG.md: a reader of a clone cannot look an issue up, so comments cite
    rules and the contracts in docs/ (architecture.md, performance.md, camera.md) instead."""
    issue = re.compile(r"\b[Ii]ssues? ?#?\d+|\(#\d{1,2}\)")
    contract = re.compile(r"(?<![\w/.-])(architecture|performance)\.md\b")
    issues, bare = [], []
    for path in _sources():
        if path.suffix not in (".py", ".js") or path == Path(__file__).resolve():
            continue
        for n, line in _comment_lines(path):
            where = f"{path.relative_to(ROOT).as_posix()}:{n}"
            if issue.search(line):
                issues.append(where)
            if contract.search(line):
                bare.append(where)
    assert issues == [] and bare == []
    assert (ROOT / "docs" / "architecture.md").is_file() and (ROOT / "docs" / "performance.md").is_file()
