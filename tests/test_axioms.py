"""Axiom packs: the shipped packs lint clean; every lint error class is detected; templates
instantiate as documented."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from verifier.axioms import PackError, lint, load_pack
from verifier.cli import main as cli_main
from verifier.grounding import Unit, instantiate
from verifier.lexical import content_keys
from verifier.logic import Atom, Literal, Var
from verifier.notation import parse_formula


def _pack(tmp_path: Path, templates: str = "", lexicon: str = "", background: str = "") -> Path:
    for sub, text in (("templates", templates), ("lexicons", lexicon), ("background", background)):
        (tmp_path / sub).mkdir(parents=True, exist_ok=True)
        if text:
            (tmp_path / sub / "t.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


GOOD_TEMPLATE = """\
    templates:
      - name: relational_noun
        doc: A relational noun names a property.
        match: {kind: relational_noun, arity: 2}
        links: property
        axiom: "forall x y. $pred(x, y) -> $prop(y, x)"
"""


def _codes(dirs) -> set[str]:
    return {i.code for i in lint(dirs)}


def test_shipped_pack_lints_clean():
    assert [str(i) for i in lint()] == []
    pack = load_pack()
    assert {"item_noun", "named_item", "class_noun", "relational_noun", "noun_of", "verb_agent"} <= set(pack.templates)
    assert {lex.name for lex in pack.lexicons} >= {"chemistry", "wikidata"}


def test_shipped_lexicons_cover_the_chemistry_properties():
    pack = load_pack()
    by_word = {w: e for lex in pack.lexicons for e in lex.entries for w in e.words}
    assert by_word["toxicity"].symbols == ("wdt:P2240",)
    assert by_word["mass"].symbols == ("wdt:P2067",)
    assert by_word["solubility"].symbols == ("wdt:P2177",)
    assert by_word["location"].mode == "any" and "wdt:P131" in by_word["location"].symbols
    partner = next(e for lex in pack.lexicons for e in lex.entries if "partner" in e.words and e.pos != "v")
    assert partner.mode == "all" and set(partner.symbols) == {"wdt:P26", "wdt:P451"}


def test_symmetric_properties_of_the_background():
    sym = load_pack().symmetric_properties
    assert {"wdt:P3373", "wdt:P26", "wdt:P47"} <= sym  # sibling, spouse, shares border with
    assert not {"wdt:P40", "wdt:P31", "wdt:P1066"} & sym  # child, instance of, student of


def test_yaml_error_has_line_number(tmp_path):
    d = _pack(tmp_path, templates="templates:\n  - name: x\n    doc: a: b: c\n")
    issues = [i for i in lint([d]) if i.code == "yaml"]
    assert issues and issues[0].line == 3


def test_duplicate_key_is_a_yaml_error(tmp_path):
    d = _pack(tmp_path, templates="templates:\n  - name: x\n    doc: a\n    doc: b\n")
    issues = [i for i in lint([d]) if i.code == "yaml"]
    assert issues and issues[0].line == 4 and "duplicate key 'doc'" in issues[0].message


def test_unknown_field(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("links: property", "links: property\n        colour: red"))
    issues = [i for i in lint([d]) if i.code == "unknown-field"]
    assert issues and "colour" in issues[0].message and issues[0].line == 6


def test_formula_syntax_error_with_position(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("-> $prop(y, x)", "-> & $prop(y, x)"))
    issues = [i for i in lint([d]) if i.code == "formula-syntax"]
    assert issues and issues[0].line == 6 and issues[0].column > 0


def test_placeholder_not_available_for_link_kind(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("$prop(y, x)", "y = $item"))
    assert "placeholder" in _codes([d])


CLASS_TEMPLATE = """\
    templates:
      - name: classifier_noun
        doc: A noun names a value of a classifying property.
        match: {kind: noun, arity: 1}
        links: class
        properties: [wdt:P106]
        axiom: "forall x. $pred(x) -> $prop(x, $class)"
"""


def test_class_template_properties_are_checked(tmp_path):
    assert _codes([_pack(tmp_path / "ok", templates=CLASS_TEMPLATE)]) == set()
    # $prop in a class template needs the properties it stands for
    no_props = CLASS_TEMPLATE.replace("        properties: [wdt:P106]\n", "")
    assert "placeholder" in _codes([_pack(tmp_path / "a", templates=no_props)])
    assert "bad-value" in _codes([_pack(tmp_path / "b", templates=CLASS_TEMPLATE.replace("wdt:P106", "not a symbol"))])
    wrong_kind = GOOD_TEMPLATE + "        properties: [wdt:P106]\n"
    assert "bad-value" in _codes([_pack(tmp_path / "c", templates=wrong_kind)])


def test_keeps_class_is_a_boolean(tmp_path):
    ok = GOOD_TEMPLATE + "        keeps_class: true\n"
    assert _codes([_pack(tmp_path / "ok", templates=ok)]) == set()
    from verifier.axioms import load_pack

    assert all(t.keeps_class for t in load_pack([tmp_path / "ok"]).templates.values())
    assert "bad-value" in _codes([_pack(tmp_path / "bad", templates=GOOD_TEMPLATE + "        keeps_class: maybe\n")])


def test_arity_mismatch(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("$pred(x, y)", "$pred(x, y, z)").replace(
        "forall x y.", "forall x y z."))
    assert "arity" in _codes([d])


def test_name_preposition_placeholder(tmp_path):
    """$nameprep (the preposition that ends a property name) is a three-place predicate of
    property templates only."""
    ok = GOOD_TEMPLATE.replace("$pred(x, y) -> $prop(y, x)", "$pred(x, y) & $nameprep(m, x, y) -> $prop(x, y)").replace(
        "forall x y.", "forall x y m.")
    assert _codes([_pack(tmp_path / "a", templates=ok)]) == set()
    two = ok.replace("$nameprep(m, x, y)", "$nameprep(x, y)")
    assert "arity" in _codes([_pack(tmp_path / "b", templates=two)])
    item = ok.replace("links: property", "links: item")
    assert "placeholder" in _codes([_pack(tmp_path / "c", templates=item)])


def test_name_preposition_binding():
    """A property name ending in a preposition binds $nameprep to that preposition in each of
    its senses; the axiom reads any of them."""
    from verifier.grounding.checks import preposition_preds

    assert preposition_preds("enclave within", "enclave")[:2] == ("_within_p", "_within_p_loc")
    assert preposition_preds("active ingredient in", "ingredients")[0] == "_in_p"
    assert preposition_preds("mass", "mass") == ()
    # the noun must be the name's word before the preposition: "education" is no "educated at"
    assert preposition_preds("educated at", "education") == ()
    t = load_pack().templates["noun_preposition_name"]
    x = Var("x3")
    unit = Unit(Atom("_enclave/nn_u_unknown", (x,)), "noun", "enclave", "n", ("enclav",), ("enclav",), "enclave", x)
    f = instantiate(t, unit, {"$prop": "wdt:P501", "$nameprep": preposition_preds("enclave within", "enclave")})
    text = str(f)
    assert "_within_p(m, x, y) | _within_p_loc(m, x, y)" in text and "wdt:P501(x, y)" in text
    with pytest.raises(ValueError):  # no preposition: the template does not apply
        instantiate(t, unit, {"$prop": "wdt:P501", "$nameprep": ()})


def test_instantiate_makes_an_axiom_once_for_equal_inputs():
    """Equal template, unit predicate and bindings give the same formula object (made once);
    another unit of the same predicate too; a failure fails every time."""
    from verifier.grounding.checks import preposition_preds

    t = load_pack().templates["noun_preposition_name"]
    x, y = Var("x3"), Var("x9")
    unit = Unit(Atom("_enclave/nn_u_unknown", (x,)), "noun", "enclave", "n", ("enclav",), ("enclav",), "enclave", x)
    other = Unit(Atom("_enclave/nn_u_unknown", (y,)), "noun", "enclave", "n", ("enclav",), (), "enclaves", y)
    bindings = {"$prop": "wdt:P501", "$nameprep": preposition_preds("enclave within", "enclave")}
    f = instantiate(t, unit, bindings)
    assert instantiate(t, other, dict(bindings)) is f
    assert instantiate(t, unit, {"$prop": "wdt:P17", "$nameprep": bindings["$nameprep"]}) != f
    for _ in range(2):
        with pytest.raises(ValueError, match="no binding"):
            instantiate(t, unit, {"$prop": "wdt:P501", "$nameprep": ()})


def test_free_variable_in_axiom(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("forall x y.", "forall x."))
    assert "free-variable" in _codes([d])


def test_duplicate_names(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE + GOOD_TEMPLATE.split("templates:\n", 1)[1])
    issues = [i for i in lint([d]) if i.code == "duplicate-name"]
    assert issues and "relational_noun" in issues[0].message


def test_lexicon_entry_pointing_to_unknown_template(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE, lexicon="""\
        name: test
        entries:
          - words: [weight]
            template: no_such_template
            symbol: wdt:P2067
    """)
    issues = [i for i in lint([d]) if i.code == "unknown-template"]
    assert issues and issues[0].line == 3


def test_exclusive_lexicon_entry(tmp_path):
    lex = """\
        name: test
        entries:
          - words: [weight]
            template: relational_noun
            symbol: wdt:P2067
            exclusive: {value}
    """
    bad = [i for i in lint([_pack(tmp_path / "a", templates=GOOD_TEMPLATE, lexicon=lex.format(value="sometimes"))])
           if i.code == "bad-value"]
    assert bad and "exclusive" in bad[0].message and bad[0].line == 6
    from verifier.axioms import load_pack
    pack = load_pack([_pack(tmp_path / "b", templates=GOOD_TEMPLATE, lexicon=lex.format(value="true"))])
    [entry] = [e for lx in pack.lexicons for e in lx.entries]
    assert entry.exclusive is True


def test_exclusive_entry_links_through_its_own_template_only():
    """ "celebrated in X" is public holiday(X, ...): the passive template that fits the word's
    shape (which would read it the other way round) does not apply as well."""
    from verifier.axioms import load_pack
    from verifier.axioms.loader import default_pack_dirs
    from verifier.grounding import Grounder, SymbolUse, Unit
    from verifier.logic import Atom, Var

    g = Grounder(load_pack(default_pack_dirs()))
    u = Unit(Atom("_celebrate_v_1", (Var("e2"), Var("i9"), Var("x3"))), "verb", "celebrate", "v",
             ("celebr",), ("celebr",), "celebrated", Var("e2"))
    sym = SymbolUse("wdt:P832", "P832", "property")
    entry = g.entry_for("celebrate", sym)
    names = [t.name for t in g.templates_for(u, sym, "noun", entry)]
    assert names == ["verb_modifier_passive_inverse"]


ITEM_TEMPLATES = """\
    templates:
      - name: adj_value
        doc: An adjective says an item is a property's value.
        match: {kind: adjective, arity: 2}
        links: item
        axiom: "forall e x. $pred(e, x) -> $prop(x, $item)"
      - name: noun_value
        doc: A noun says an item is a property's value.
        match: {kind: noun, arity: 1}
        links: item
        axiom: "forall x. $pred(x) -> $prop(x, $item)"
"""


def test_lexicon_defaults_template_lists_and_via_lists(tmp_path):
    """``defaults`` fill every entry's missing fields; a list of templates is one entry per
    template (siblings); ``via`` takes one property or a list of them."""
    pack = load_pack([_pack(tmp_path, templates=ITEM_TEMPLATES, lexicon="""\
        name: test
        defaults:
          template: [adj_value, noun_value]
          via: [wdt:P17, wdt:P495]
          exclusive: true
        entries:
          - {words: [danish], symbol: wd:Q35}
          - {words: [norwegian], symbol: wd:Q20, via: wdt:P17}
    """)])
    entries = [e for lx in pack.lexicons for e in lx.entries]
    assert [(e.words, e.template, e.via, e.exclusive) for e in entries] == [
        (("danish",), "adj_value", ("wdt:P17", "wdt:P495"), True),
        (("danish",), "noun_value", ("wdt:P17", "wdt:P495"), True),
        (("norwegian",), "adj_value", ("wdt:P17",), True),
        (("norwegian",), "noun_value", ("wdt:P17",), True)]


@pytest.mark.parametrize("lexicon,code", [
    ("defaults: {words: [x]}\nentries:\n  - {words: [danish], template: adj_value, symbol: wd:Q35}", "unknown-field"),
    ("defaults: [adj_value]\nentries:\n  - {words: [danish], template: adj_value, symbol: wd:Q35}", "bad-value"),
    ("entries:\n  - {words: [danish], template: adj_value, symbol: wd:Q35, via: [country]}", "bad-symbol"),
    ("entries:\n  - {words: [danish], template: [adj_value, 3], symbol: wd:Q35}", "missing-field"),
    ("entries:\n  - {words: [danish], template: [adj_value, nope], symbol: wd:Q35}", "unknown-template"),
])
def test_lexicon_defaults_and_lists_are_linted(tmp_path, lexicon, code):
    d = _pack(tmp_path, templates=ITEM_TEMPLATES, lexicon="name: test\n" + lexicon + "\n")
    assert code in _codes([d])


def test_an_entry_with_several_value_properties_uses_those_of_the_query():
    """A demonym ("Danish") links to the country through every property of its list that
    the query uses: country of origin for a film, country of citizenship for a person."""
    from verifier.axioms.loader import default_pack_dirs
    from verifier.grounding import Grounder
    from parsers.sparql import parse_query

    g = Grounder(load_pack(default_pack_dirs()))
    u = Unit(Atom("_danish_a_1", (Var("e1"), Var("x3"))), "adjective", "danish", "a",
             ("danish",), ("danish",), "Danish", Var("e1"))
    head = "PREFIX wd: <http://www.wikidata.org/entity/> PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
    for prop in ("P495", "P27"):
        q = parse_query(head + f"SELECT ?x WHERE {{ ?x wdt:{prop} wd:Q35 }}")
        grounding = g.ground([u], q, "Give me all Danish films.")
        axioms = [str(a.formula) for l in grounding.links for a in l.axioms]
        # ... and, once, what the demonym says of a relational noun it modifies (whose it is)
        assert axioms == [f"forall e x. _danish_a_1(e, x) -> wdt:{prop}(x, wd:Q35)",
                          "forall e x. _danish_a_1(e, x) -> nmod(e, x, wd:Q35)"]
    q = parse_query(head + "SELECT ?x WHERE { ?x wdt:P840 wd:Q35 }")  # narrative location
    assert not [l for l in g.ground([u], q, "Give me all Danish films.").links if l.unit is u
                and l.axioms and "P840" in str(l.axioms[0].formula)]


def test_bad_symbol_and_missing_fields(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE, lexicon="""\
        name: test
        entries:
          - words: [weight]
            template: relational_noun
            symbol: "not a symbol"
          - template: relational_noun
            symbol: wdt:P1
    """)
    assert {"bad-symbol", "missing-field"} <= _codes([d])


def test_bad_values(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("kind: relational_noun", "kind: gerund").replace(
        "links: property", "links: everything"))
    assert "bad-value" in _codes([d])


def test_unexpressed_positions(tmp_path):
    bad = GOOD_TEMPLATE.replace("arity: 2}", "arity: 2, unexpressed: [0]}")
    issues = [i for i in lint([_pack(tmp_path / "a", templates=bad)]) if i.code == "bad-value"]
    assert issues and "unexpressed" in issues[0].message and issues[0].line == 4
    bad2 = GOOD_TEMPLATE.replace("arity: 2}", "arity: 2, expressed: [true]}")
    assert "bad-value" in _codes([_pack(tmp_path / "c", templates=bad2)])
    ok = GOOD_TEMPLATE.replace("arity: 2}", "arity: 2, unexpressed: [2], expressed: [1]}")
    assert not lint([_pack(tmp_path / "b", templates=ok)])


def test_match_admits_unexpressed_arguments():
    from verifier.axioms.model import Match
    from verifier.logic import Var

    m = Match("verb", 2, (), (2,))
    e, x, i, y = Var("e2"), Var("x3"), Var("i4"), Var("x5")
    assert m.admits((e, x))                  # "What did X die from?"
    assert m.admits((e, x, i))               # "Where did X study?" (object unexpressed)
    assert not m.admits((e, x, y))           # "When did X receive the award?"
    assert not m.admits((e,))                # below the minimum arity
    assert not m.admits((e, x, Var("e15")))  # a clause as the object ("which [thing] states that ...")
    passive = Match("verb", 3, (), (1,), (2,))
    assert passive.admits((e, Var("i1"), x))        # "Which people were born in X?"
    assert not passive.admits((e, Var("i1"), i))    # "the rating of X": nobody is rated
    assert not passive.admits((e, y, x))            # an active verb with its doer


def test_match_verbs(tmp_path):
    from verifier.axioms.model import Match

    bad = GOOD_TEMPLATE.replace("arity: 2}", "arity: 2, verbs: _locate_v_1}")
    issues = [i for i in lint([_pack(tmp_path / "a", templates=bad)]) if i.code == "bad-value"]
    assert issues and "match.verbs" in issues[0].message and issues[0].line == 4
    ok = GOOD_TEMPLATE.replace("arity: 2}", "arity: 2, verbs: []}")
    assert not lint([_pack(tmp_path / "b", templates=ok)])
    assert Match("abstract").admits_verbs({"_bear_v_2"})            # no list: any verbs
    where = Match("abstract", 1, ("place_n",), verbs=("_locate_v_1",))
    assert where.admits_verbs(set())                                 # "Where is X?"
    assert where.admits_verbs({"_locate_v_1"})                       # "Where is X located?"
    assert not where.admits_verbs({"_bear_v_2"})                     # "Where was X born?"


def test_match_names_predicates_by_name_or_pattern():
    from verifier.axioms.model import Match

    assert Match("adjective").names("_male_a_1")                      # no preds: any
    unknown = Match("adjective", 2, ("*/jj_u_unknown",))
    assert unknown.names("_renminbi/jj_u_unknown")
    assert not unknown.names("_male_a_1")                              # a known adjective
    assert not unknown.names("_renminbi/nn_u_unknown")
    exact = Match("abstract", 1, ("person",))
    assert exact.names("person") and not exact.names("personal")


def test_load_pack_raises_with_all_issues(tmp_path):
    d = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("->", "=>"))
    with pytest.raises(PackError) as ei:
        load_pack([d])
    assert ei.value.issues and "formula" in str(ei.value)


def test_safe_yaml_only(tmp_path):
    d = _pack(tmp_path, templates="templates: !!python/object/apply:os.system ['echo pwned']\n")
    assert "yaml" in _codes([d])


def test_cli_lint_exit_codes(tmp_path, capsys):
    assert cli_main(["axioms", "lint"]) == 0
    bad = _pack(tmp_path, templates=GOOD_TEMPLATE.replace("->", "=>").replace("name: relational_noun", "name: mine"))
    assert cli_main(["axioms", "lint", str(bad)]) == 1
    assert "formula-syntax" in capsys.readouterr().out


def test_shipped_pack_examples_pass_on_the_shipped_extract(capsys):
    """`verifier axioms test` with no arguments uses axioms/examples (MRS readings and labels
    of the embedded examples; rebuilt by bench/make_pack_example_extracts.py): every example
    with a reading gives its expected verdict."""
    code = cli_main(["axioms", "test"])
    out = capsys.readouterr().out
    assert code == 0, out
    last = out.strip().splitlines()[-1]
    passed = int(last.split()[0])
    assert " 0 failed" in last and passed >= 20, last


# ------------------------------------------------------------------------- instantiation


def test_instantiate_pads_arguments_and_names():
    pack = load_pack()
    named = Unit(Atom("named", (Var("x8"), Literal("Skype"))), "named", "skype", "n",
                 content_keys("Skype"), content_keys("Skype"), "Skype", Var("x8"))
    f = instantiate(pack.templates["named_item"], named, {"$item": "wd:Q40984"})
    assert f == parse_formula('forall x. named(x, "Skype") -> x = wd:Q40984')
    mass = Unit(Atom("_mass_n_of", (Var("x8"), Var("x13"))), "relational_noun", "mass", "n",
                ("mass",), ("mass",), "mass", Var("x8"))
    f = instantiate(pack.templates["noun_of"], mass, {"$prop": "wdt:P2067"})
    assert str(f) == ("forall x y e _pad0. _mass_n_of(x, _pad0) & (poss(e, x, y) | compound(e, x, y) | nmod(e, x, y)) "
                      "-> wdt:P2067(y, x)")


def test_property_closure_placeholder(tmp_path):
    """``$prop+`` / ``$prop*`` are the property's closure: accepted by lint for property
    templates, bound to the path predicate (``wdt:P171+``)."""
    ok = GOOD_TEMPLATE.replace("-> $prop(y, x)", "-> $prop+(y, x)")
    assert _codes([_pack(tmp_path / "a", templates=ok)]) == set()
    item = ok.replace("links: property", "links: literal")
    assert "placeholder" in _codes([_pack(tmp_path / "b", templates=item)])
    t = load_pack().templates["relational_noun_copula"]
    x, y = Var("x4"), Var("x20")
    unit = Unit(Atom("_type_n_of-n", (x, y)), "relational_noun", "type", "n", ("type",), ("type",), "type", x)
    f = instantiate(t, unit, {"$prop": "wdt:P171"})
    assert "wdt:P171+(x, y)" in str(f)


def test_cli_show_uses_the_lexicon_entry(capsys):
    """``verifier axioms show PRED`` lists the axioms a word would produce for each symbol,
    through the lexicon entry that names the symbol: only its template when the entry is
    exclusive, and relational nouns by their sense ("_type_n_of-n")."""
    assert cli_main(["axioms", "show", "_type_n_of-n", "--symbol", "wdt:P171"]) == 0
    out = capsys.readouterr().out
    assert "[relational_noun_copula]" in out and "wdt:P171+(x, y)" in out
    assert "[noun_of]" not in out
    assert cli_main(["axioms", "show", "_daughter_n_1"]) == 0
    out = capsys.readouterr().out
    assert "[noun_item_value] forall x. _daughter_n_1(x) -> wdt:P21(x, wd:Q6581072)" in out
    assert "[noun_of]" in out and "wdt:P40(y, x)" in out
