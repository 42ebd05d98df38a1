"""Label shapes and the label-index cache of :mod:`verifier.lexical`."""

from __future__ import annotations

import os

from verifier.lexical import LabelIndex, content_keys, label_shape


def test_label_shapes():
    assert label_shape("lies in the body of water") == "verb"
    assert label_shape("operates the vehicle") == "verb"
    assert label_shape("shares border with") == "prep"
    assert label_shape("place of birth") == "noun"
    assert label_shape("educated at") == "prep"
    # a participle's "of" is no relational noun's: "the conviction for X" is what X was
    # convicted of, unlike "the capital of X" (*capital of*)
    assert label_shape("convicted of") == "prep"
    assert label_shape("capital of") == "of" and label_shape("disjoint union of") == "of"
    assert label_shape("developer") == "agent"
    # a rate is a noun, not a verb with its preposition
    assert label_shape("beats per minute") == "noun"
    assert label_shape("visitors per year") == "noun"
    # ... and so is a plural noun with its complement, or an identifier
    assert label_shape("coordinates of northernmost point") == "noun"
    assert label_shape("means of locomotion") == "noun" and label_shape("assets under management") != "verb"
    assert label_shape("Flags of the World ID") == "noun"
    assert label_shape("contains settlement") == "verb" and label_shape("applies to jurisdiction") == "verb"
    # a passive with a particle reads like a "by" name: "Y makes up X" is has part(X, Y)
    assert label_shape("made up of") == "by" and label_shape("built out of") == "by"
    assert label_shape("consisting of") == "of" and label_shape("part of") == "of"


def test_american_words_match_wikidatas_british_ones():
    # Wikidata's labels say "film" and "football" where American questions say "movie" and
    # "soccer"; the matching keys are the same, and other words keep theirs
    assert content_keys("movie character") == content_keys("film character")
    assert content_keys("Brazilian national soccer team")[-2:] == content_keys("national football team")[-2:]
    assert content_keys("movies") == content_keys("film")
    assert content_keys("movement") != content_keys("film")


def test_participle_alias_of_a_verb_name_is_a_verb():
    """"depicting" for *depicts* is the verb's participle: no noun that names the object (the
    noun templates would read "a depiction of X" as what X depicts); other one-word aliases
    keep their own shape."""
    idx = LabelIndex()
    idx.add("P180", ["depicts", "depicting", "depiction of", "motif"], kind="property")
    idx.add("P2283", ["uses", "using"], kind="property")
    idx.add("P1", ["building", "building"], kind="property")
    shapes = {n.name: n.shape for sym in ("P180", "P2283", "P1") for n in idx.names[sym]}
    assert shapes["depicting"] == "verb" and shapes["using"] == "verb"
    assert shapes["depiction of"] == "of" and shapes["motif"] == "noun"
    assert shapes["building"] == "noun"  # a noun label: its -ing alias stays a noun


def test_status_note_is_not_part_of_a_name():
    idx = LabelIndex()
    idx.add("P598", ["commander of (DEPRECATED)", "commands"], kind="property")
    idx.add("P5361", ["BNB person ID (obsolete)"], kind="property")
    label = idx.names["P598"][0]
    assert label.name == "commander of" and label.shape == "of"
    assert "deprec" not in " ".join(label.keys)
    assert idx.label("P5361") == "BNB person ID"


def _write_labels(path, label):
    path.write_text("id\tlabel\taliases\tdescription\n"
                    f"P1725\t{label}\tbpm\ttempo of a musical work\n", encoding="utf-8")


def test_label_cache_is_rebuilt_and_superseded_files_removed(tmp_path):
    src = tmp_path / "labels.tsv"
    cache = tmp_path / "cache"
    _write_labels(src, "beats per minute")
    first = LabelIndex.cached(src, cache)
    files = list(cache.glob("labels-*.pkl"))
    assert len(files) == 1
    assert LabelIndex.cached(src, cache).names.keys() == first.names.keys()  # read back
    # an old-style cache file (before the code fingerprint) is never read and is removed
    (cache / "labels-0123456789abcdef.pkl").write_bytes(b"stale")
    _write_labels(src, "tempo in beats per minute")
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    second = LabelIndex.cached(src, cache)
    assert [n.name for n in second.names["P1725"]][0] == "tempo in beats per minute"
    assert len(list(cache.glob("labels-*.pkl"))) == 1


def test_label_cache_follows_the_code_that_derives_names(tmp_path, monkeypatch):
    import verifier.lexical as lexical

    src = tmp_path / "labels.tsv"
    cache = tmp_path / "cache"
    _write_labels(src, "beats per minute")
    LabelIndex.cached(src, cache)
    (before,) = cache.glob("labels-*.pkl")
    # the same labels file with other name-deriving code: rebuilt, the old file removed
    changed = tmp_path / "lexical.py"
    changed.write_bytes(open(lexical.__file__, "rb").read() + b"\n# changed\n")
    monkeypatch.setattr(lexical, "__file__", str(changed))
    LabelIndex.cached(src, cache)
    (after,) = cache.glob("labels-*.pkl")
    assert after.name != before.name and not before.exists()


def test_base_forms_of_past_verbs():
    from verifier.lexical import base_forms, irregular_base

    assert base_forms("invented")[0] == "invent"
    assert "compose" in base_forms("composed") and "die" in base_forms("died")
    assert base_forms("married")[0] == "marry"
    assert "stop" in base_forms("stopped")
    assert base_forms("wrote") == ["write"] and irregular_base("grew") == "grow"
    assert base_forms("invent") == [] and base_forms("red") == [] and irregular_base("invent") is None


def test_a_has_n_property_is_named_by_its_noun():
    """*has grammatical person* is also named by "grammatical person" (a noun, so noun templates
    read it: "X has N Y" is "Y is an N of X"); not when an alias already is its noun ("parts"
    for *has part(s)*), nor when the rest is no noun ("has written for"), nor for aliases."""
    from verifier.lexical import LabelIndex

    li = LabelIndex()
    li.add("P5110", ["has grammatical person", "uses grammatical person"], kind="property")
    li.add("P527", ["has part(s)", "parts", "has member"], kind="property")
    li.add("P6872", ["has written for"], kind="property")
    li.add("P999", ["characteristic", "has quality"], kind="property")
    li.add("Q1", ["has been"], kind="item")
    extra = [n for n in li.names["P5110"] if n.name == "grammatical person"]
    assert len(extra) == 1 and extra[0].shape == "noun" and not extra[0].is_label
    assert [n.name for n in li.names["P527"]] == ["has part(s)", "parts", "has member"]
    assert len(li.names["P6872"]) == 1 and len(li.names["P999"]) == 2 and len(li.names["Q1"]) == 1


def test_a_property_name_written_solid_is_also_named_by_its_words_apart():
    """*LiveJournal ID* is also named "Live Journal ID", *CIQUAL2017 ID* "CIQUAL 2017 ID"; not
    when a part is a function word ("All Music" for *AllMusic*, which "music" alone would
    name), nor an acronym ("IMDb"), nor an item's name."""
    li = LabelIndex()
    li.add("P3258", ["LiveJournal ID"], kind="property")
    li.add("P4696", ["CIQUAL2017 ID"], kind="property")
    li.add("P1728", ["AllMusic artist ID"], kind="property")
    li.add("P345", ["IMDb ID"], kind="property")
    li.add("Q1", ["OpenSecrets"], kind="item")
    assert [n.name for n in li.names["P3258"]] == ["LiveJournal ID", "Live Journal ID"]
    assert not li.names["P3258"][1].is_label
    assert [n.name for n in li.names["P4696"]] == ["CIQUAL2017 ID", "CIQUAL 2017 ID"]
    assert len(li.names["P1728"]) == 1 and len(li.names["P345"]) == 1 and len(li.names["Q1"]) == 1


def test_a_class_label_that_is_a_disjunction_is_named_by_each_alternative():
    """*version, edition, or translation* is named by "translation" (a translation is an
    instance of it), *province or territory of Canada* by "province of Canada"; a label whose
    alternatives share a modifier or a tail that is no name stays whole, as do properties and
    titles."""
    from verifier.lexical import LabelIndex

    li = LabelIndex()
    li.add("Q3331189", ["version, edition, or translation", "version, edition or translation"])
    li.add("Q2879", ["province or territory of Canada"], kind="class")
    li.add("Q911916", ["intensive or extensive property"])
    li.add("Q17335294", ["flag or coat of arms"])
    li.add("Q80061", ["Nobel Prize in Physiology or Medicine"])
    li.add("P118", ["league or competition"], kind="property")
    names = [n.name for n in li.names["Q3331189"]]
    assert names[0] == "version, edition, or translation" and li.names["Q3331189"][0].is_label
    assert {"version", "edition", "translation"} <= set(names)
    assert not any(n.is_label for n in li.names["Q3331189"][1:])
    assert [n.name for n in li.names["Q2879"]][1:] == ["province of Canada", "territory of Canada"]
    for sym in ("Q911916", "Q17335294", "Q80061", "P118"):
        assert len(li.names[sym]) == 1, sym


def test_a_name_closing_with_its_abbreviation_is_also_indexed_without_it():
    """"median lethal concentration (LC50)" is also the alias "median lethal concentration",
    so a question writing those words names it in full; the label stays the label, and a
    "(deprecated)" note or a lower-case note is not an abbreviation."""
    from verifier.lexical import LabelIndex

    li = LabelIndex()
    li.add("P2712", ["median lethal concentration (LC50)", "LC50"], kind="property")
    li.add("P598", ["commander of (DEPRECATED)"], kind="property")
    li.add("P128", ["regulates (molecular biology)"], kind="property")
    names = {n.name: n.is_label for n in li.names["P2712"]}
    assert names == {"median lethal concentration (LC50)": True, "LC50": False,
                     "median lethal concentration": False}
    assert li.label("P2712") == "median lethal concentration (LC50)"
    assert [n.name for n in li.names["P598"]] == ["commander of"]
    assert [n.name for n in li.names["P128"]] == ["regulates (molecular biology)"]


def test_wordnet_none_in_a_configuration_file_turns_wordnet_off(tmp_path):
    """``[grounding] wordnet = "none"`` in a verifier.toml is not a path beside the file."""
    from verifier.api import Verifier
    from verifier.config import load_config

    (tmp_path / "verifier.toml").write_text('[grounding]\nwordnet = "none"\n')
    cfg = load_config(tmp_path / "verifier.toml", environ={}, cwd=tmp_path)
    assert cfg.get("grounding", "wordnet") == "none"
    assert Verifier(cfg).wordnet is None
