"""What the translator knows about ERG predicates.

* :func:`predicate_info` splits a normalised predicate (``_mass_n_of``,
  ``_benzene/nn_u_unknown``, ``named``) into lemma, part of speech and sense, so that the
  grounding layer can look predicates up by lemma and part of speech.
* :func:`quantifier_kind` says how a quantifier is translated (existential, universal,
  negative, wh, or unsupported).
* :func:`scopal_kind` says how a handle-valued argument of an ordinary predicate is
  translated (asserted, negated, conditional, disjunctive, or unsupported).
* :func:`scale_direction` gives the pole of a gradable adjective (``_high_a_1`` -> ``max``,
  ``_low_a_1`` -> ``min``) for superlatives and comparatives.

The tables of English quantifiers, scopal words and adjective poles are data
(``axioms/words/question.yaml``), documented in ``docs/mrs-semantics.md``; everything is a
pure function.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from verifier.vocabulary import vocabulary

from parsers.mrs.structure import normalize_predicate

__all__ = [
    "PredicateInfo", "predicate_info", "quantifier_kind", "scopal_kind", "scopal_is_assumed",
    "scale_direction",
    "EXISTENTIAL_QUANTIFIERS", "UNIVERSAL_QUANTIFIERS", "NEGATIVE_QUANTIFIERS",
    "WH_QUANTIFIERS", "FREE_RELATIVE_QUANTIFIERS", "UNSUPPORTED_QUANTIFIERS",
    "ABSTRACT_PREDICATES", "PTB_TO_POS",
]

#: the English words and word predicates of this module (``axioms/words/question.yaml``)
_WORDS = vocabulary("question")

#: Quantifiers read as ``exists x. RSTR & BODY``.
EXISTENTIAL_QUANTIFIERS = _WORDS.word_set("existential_quantifiers")
#: Quantifiers read as ``forall x. RSTR -> BODY``.
UNIVERSAL_QUANTIFIERS = _WORDS.word_set("universal_quantifiers")
#: Quantifiers read as ``~exists x. RSTR & BODY``.
NEGATIVE_QUANTIFIERS = _WORDS.word_set("negative_quantifiers")
#: Interrogative quantifiers: their variable is an answer variable (left free).
WH_QUANTIFIERS = _WORDS.word_set("wh_quantifiers")
#: Free relatives ("what X produced"): existential, but answer candidates when a question
#: or a command has no interrogative quantifier.
FREE_RELATIVE_QUANTIFIERS = _WORDS.word_set("free_relative_quantifiers")
#: Quantifiers whose meaning first-order logic over the KG cannot express.
UNSUPPORTED_QUANTIFIERS = _WORDS.word_set("unsupported_quantifiers")

#: Abstract (grammar) predicates the translator gives a documented meaning to.
ABSTRACT_PREDICATES = frozenset({
    "named", "named_n", "card", "ord", "yofc", "mofy", "dofm", "dofw", "season", "holiday",
    "numbered_hour", "basic_numbered_hour", "minute_n", "fraction", "compound", "poss",
    "appos", "nominalization", "measure", "loc_nonsp", "generic_entity", "pron", "thing",
    "person", "place_n", "time_n", "manner", "reason", "abstr_deg", "much-many_a",
    "superl", "comp", "more_comp", "comp_equal", "comp_less", "part_of", "subord",
    "parenthetical", "relative_mod", "implicit_conj", "ellipsis_ref", "unknown", "neg",
    "unspec_manner", "unspec_a", "temp_loc_x", "temp", "id", "interval", "interval_p_start",
    "interval_p_end", "quoted", "fw_seq", "mod", "eventuality", "property",
    "prpstn_to_prop", "plus", "times", "with_p", "elliptical_n", "addressee", "polite",
    "discourse", "greet", "excl", "num_seq", "meas_np", "recip_pro", "refl_mod", "year_range",
    "nontemp_loc_nonsp", "ne_x", "generic_verb", "ellipsis_expl", "plus_c", "quant",
})

#: Penn Treebank tags of ACE's unknown-word predicates -> ERG part of speech.
PTB_TO_POS = {
    "nn": "n", "nns": "n", "nnp": "n", "nnps": "n", "fw": "n", "sym": "n", "cd": "n",
    "vb": "v", "vbd": "v", "vbg": "v", "vbn": "v", "vbp": "v", "vbz": "v", "md": "v",
    "jj": "a", "jjr": "a", "jjs": "a", "rb": "a", "rbr": "a", "rbs": "a",
    "in": "p", "dt": "q", "cc": "c",
}


@dataclass(frozen=True, slots=True)
class PredicateInfo:
    """What a predicate string says about itself.

    ``lemma`` uses spaces for multi-word lemmas (``_the+same_a_1`` -> ``"the same"``);
    ``pos`` is the ERG part of speech (``n v a p q x c``...; for unknown words it is derived
    from the tagger's tag, ``tag``); ``sense`` is ``None`` when absent.
    """

    pred: str
    lemma: str
    pos: str | None
    sense: str | None
    is_abstract: bool
    is_unknown_word: bool
    is_quantifier: bool
    tag: str | None = None

    @property
    def words(self) -> tuple[str, ...]:
        """The lemma split into words."""
        return tuple(self.lemma.split())


@lru_cache(maxsize=65536)
def predicate_info(pred: str) -> PredicateInfo:
    """Split a predicate string (normalised first) into lemma, part of speech and sense.

    >>> predicate_info("_benzene/nn_u_unknown").lemma, predicate_info("_benzene/nn_u_unknown").pos
    ('benzene', 'n')
    >>> predicate_info("_mass_n_of").sense
    'of'
    >>> predicate_info("named").is_abstract
    True

    Never raises: an odd string gives ``lemma`` = the string and ``pos`` ``None``.
    """
    p = normalize_predicate(str(pred))
    if not p:
        return PredicateInfo(p, "", None, None, True, False, False)
    if not p.startswith("_"):
        # abstract: conventional name_pos when the last part is a POS letter
        parts = p.rsplit("_", 1)
        if len(parts) == 2 and len(parts[1]) == 1 and parts[1] in "nvajrscpqxud":
            lemma, pos = parts
        elif p.endswith("_q_i"):
            lemma, pos = p[:-4], "q"
        else:
            lemma, pos = p, None
        return PredicateInfo(p, lemma, pos, None, True, False, pos == "q")
    body = p[1:]
    if body.endswith("_u_unknown") and "/" in body:
        word, tag = body[: -len("_u_unknown")].rsplit("/", 1)
        pos = PTB_TO_POS.get(tag, "u")
        return PredicateInfo(p, word.replace("+", " "), pos, "unknown", False, True, False,
                             tag.upper())
    parts = body.split("_")
    # _lemma_pos[_sense]: the POS is the last single-letter part among the last two
    if len(parts) >= 3 and len(parts[-2]) == 1:
        lemma, pos, sense = "_".join(parts[:-2]), parts[-2], parts[-1]
    elif len(parts) >= 2 and len(parts[-1]) == 1:
        lemma, pos, sense = "_".join(parts[:-1]), parts[-1], None
    else:
        lemma, pos, sense = body, None, None
    return PredicateInfo(p, lemma.replace("+", " "), pos, sense, False, False, pos == "q")


def quantifier_kind(pred: str) -> str:
    """``"exists"``, ``"forall"``, ``"no"``, ``"wh"``, ``"free_relative"`` or
    ``"unsupported"`` (any quantifier not listed: an unknown quantifier is never guessed)."""
    if pred in EXISTENTIAL_QUANTIFIERS:
        return "exists"
    if pred in WH_QUANTIFIERS:
        return "wh"
    if pred in FREE_RELATIVE_QUANTIFIERS:
        return "free_relative"
    if pred in UNIVERSAL_QUANTIFIERS:
        return "forall"
    if pred in NEGATIVE_QUANTIFIERS:
        return "no"
    return "unsupported"


# Scopal (handle-taking) predicates -----------------------------------------------------

#: Predicates whose handle argument is negated (the EP itself disappears).
_NEGATORS = _WORDS.word_set("negators")
#: ``_if_x_then(e, then, if)``: ``if -> then`` (the EP itself disappears).
_CONDITIONALS = _WORDS.word_set("conditionals")
#: Coordinations whose handle arguments are alternatives.
_DISJUNCTIONS = _WORDS.word_set("disjunctions")
#: Intensional, modal-epistemic or focus predicates: their scopal argument is not asserted
#: and the logic has no way to say what they mean, so the reading is "unsupported".
_OPAQUE = _WORDS.word_set("opaque_predicates")


#: Scopal predicates whose argument is asserted by their meaning (no warning issued).
_TRANSPARENT = _WORDS.word_set("transparent_predicates")


def scopal_is_assumed(pred: str) -> bool:
    """True when ``scopal_kind(pred) == "conj"`` is a default assumption rather than part
    of the predicate's meaning (verbs with predicative complements, modals...): the
    translator then adds a warning.  Subordinating conjunctions (part of speech ``x``) and
    the predicates of ``_TRANSPARENT`` are asserted by definition."""
    if pred in _TRANSPARENT:
        return False
    info = predicate_info(pred)
    return info.pos != "x"


def scopal_kind(pred: str) -> str:
    """How a handle-valued argument of ``pred`` is translated.

    ``"conj"`` (the argument is asserted: conjoined, the default for subordinators, relative
    clauses, nominalizations, control and raising verbs, modals), ``"neg"`` (negated),
    ``"cond"`` (``ARG2 -> ARG1``), ``"disj"`` (alternatives) or ``"opaque"`` (not asserted;
    the reading is reported as unsupported).
    """
    if pred in _NEGATORS:
        return "neg"
    if pred in _CONDITIONALS:
        return "cond"
    if pred in _DISJUNCTIONS:
        return "disj"
    if pred in _OPAQUE:
        return "opaque"
    return "conj"


# Gradable adjectives -------------------------------------------------------------------

_MIN_POLE = _WORDS.word_set("min_pole_lemmas")


def scale_direction(pred: str) -> str:
    """``"min"`` for adjectives on the lower pole of their scale (``low``, ``small``,
    ``early``...), ``"max"`` otherwise (``high``, ``large``, ``late``, and any adjective not
    known to be a lower pole: "the most ADJ" maximises ADJ)."""
    info = predicate_info(pred)
    lemma = info.lemma
    if lemma in _MIN_POLE:
        return "min"
    return "max"
