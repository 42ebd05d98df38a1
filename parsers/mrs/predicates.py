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

The tables are data, documented in ``docs/mrs-semantics.md``; everything is a pure function.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from parsers.mrs.structure import normalize_predicate

__all__ = [
    "PredicateInfo", "predicate_info", "quantifier_kind", "scopal_kind", "scopal_is_assumed",
    "scale_direction",
    "EXISTENTIAL_QUANTIFIERS", "UNIVERSAL_QUANTIFIERS", "NEGATIVE_QUANTIFIERS",
    "WH_QUANTIFIERS", "FREE_RELATIVE_QUANTIFIERS", "UNSUPPORTED_QUANTIFIERS",
    "ABSTRACT_PREDICATES", "PTB_TO_POS",
]

#: Quantifiers read as ``exists x. RSTR & BODY``.
EXISTENTIAL_QUANTIFIERS = frozenset({
    "udef_q", "proper_q", "pronoun_q", "_a_q", "_some_q", "def_explicit_q", "def_implicit_q",
    "number_q", "_the_q", "idiom_q_i", "def_poss_q", "_any_q", "_another_q", "_either_q",
    "_such_q", "_what+a_q", "_such+a_q", "_part_q", "_this_q_dem", "_that_q_dem",
    "_these_q_dem", "_those_q_dem", "_some_q_indiv", "_a+little_q", "_certain_q",
    "_one_q", "_enough_q", "_same_q", "_own_q", "_other_q", "_what_q", "_whatever_q", "_both_q",
    "_whichever_q", "_which+ever_q", "quant",
})
#: Quantifiers read as ``forall x. RSTR -> BODY``.
UNIVERSAL_QUANTIFIERS = frozenset({
    "_every_q", "every_q", "_all_q", "_each_q", "_each+and+every_q",
    "_any+and+all_q",
})
#: Quantifiers read as ``~exists x. RSTR & BODY``.
NEGATIVE_QUANTIFIERS = frozenset({"_no_q", "_neither_q", "_none_q"})
#: Interrogative quantifiers: their variable is an answer variable (left free).
WH_QUANTIFIERS = frozenset({"which_q", "_which_q"})
#: Free relatives ("what X produced"): existential, but answer candidates when a question
#: or a command has no interrogative quantifier.
FREE_RELATIVE_QUANTIFIERS = frozenset({"free_relative_q", "basic_free_relative_q",
                                       "free_relative_ever_q"})
#: Quantifiers whose meaning first-order logic over the KG cannot express.
UNSUPPORTED_QUANTIFIERS = frozenset({
    "_most_q", "_few_q", "_many_q", "_several_q", "_half_q", "_a+few_q", "_quite+a+few_q",
    "_a+lot_q", "_lots_q", "_plenty_q", "_much_q", "_little_q", "_more_q", "_less_q",
    "_fewer_q", "_numerous_q", "_majority_q", "_twice_q", "_only_q",
})

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
_NEGATORS = frozenset({"neg", "_never_a_1", "_not_x_deg", "_no+longer_a_1", "_nowhere_a_1"})
#: ``_if_x_then(e, then, if)``: ``if -> then`` (the EP itself disappears).
_CONDITIONALS = frozenset({"_if_x_then", "_only+if_x_then", "_if+and+only+if_x_then"})
#: Coordinations whose handle arguments are alternatives.
_DISJUNCTIONS = frozenset({"_or_c", "_either+or_c", "_or+else_c"})
#: Intensional, modal-epistemic or focus predicates: their scopal argument is not asserted
#: and the logic has no way to say what they mean, so the reading is "unsupported".
_OPAQUE = frozenset({
    "_want_v_1", "_wish_v_1", "_hope_v_1", "_think_v_1", "_believe_v_1", "_doubt_v_1",
    "_deny_v_1", "_pretend_v_1", "_imagine_v_1", "_fear_v_1", "_try_v_1", "_plan_v_1",
    "_intend_v_1", "_expect_v_1", "_refuse_v_1", "_fail_v_1", "_forget_v_1", "_seem_v_to",
    "_suppose_v_1", "_claim_v_1", "_wonder_v_1", "_dream_v_of", "_avoid_v_1",
    "_prevent_v_from", "_unless_x", "_whether_x", "_only_a_1", "_just_a_1", "_even_a_1",
    "_almost_a_1", "_nearly_a_1", "_hardly_a_1", "_rarely_a_1", "_seldom_a_1",
    "_possibly_a_1", "_probably_a_1", "_maybe_a_1", "_perhaps_a_1", "_supposedly_a_1",
    "_allegedly_a_1", "_apparently_a_1", "_wrongly_a_1", "_falsely_a_1", "_need_v_1",
    "_like_v_1", "_love_v_1", "_hate_v_1", "_prefer_v_to", "_decide_v_1", "_promise_v_1",
    "_threaten_v_1", "_attempt_v_1", "_would+rather_v_modal", "_except_p", "_instead+of_p",
    "_rather+than_p",
})


#: Scopal predicates whose argument is asserted by their meaning (no warning issued).
_TRANSPARENT = frozenset({
    "subord", "nominalization", "relative_mod", "parenthetical", "prpstn_to_prop",
    "eventuality", "discourse", "implicit_conj", "_and_c", "_but_c", "_also_a_1",
    "_too_a_also", "_as+well_a_1", "_be_v_nv", "_have_v_prd", "_colon_p_namely",
    "_i+e_a_1", "_please_a_1", "_let_v_1", "_tell_v_1", "_know_v_1", "_get_v_state",
    "_have_v_cause", "_make_v_cause", "_start_v_1", "_begin_v_1", "_continue_v_2",
})


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

_MIN_POLE = frozenset({
    "low", "small", "short", "little", "few", "less", "least", "light", "young", "early",
    "near", "close", "slow", "cold", "cool", "cheap", "thin", "narrow", "shallow", "minimum",
    "min", "minimal", "bad", "weak", "tiny", "brief", "soon", "poor", "fewer", "lesser",
    "inexpensive", "first",
})


def scale_direction(pred: str) -> str:
    """``"min"`` for adjectives on the lower pole of their scale (``low``, ``small``,
    ``early``...), ``"max"`` otherwise (``high``, ``large``, ``late``, and any adjective not
    known to be a lower pole: "the most ADJ" maximises ADJ)."""
    info = predicate_info(pred)
    lemma = info.lemma
    if lemma in _MIN_POLE:
        return "min"
    return "max"
