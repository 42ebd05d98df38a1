"""Items named by their names written in the question's text: the noun phrase whose span
covers a name of the item (:class:`SpanLinker`), and whether a phrase is another item's name
(:func:`other_items_name`)."""

from __future__ import annotations

import re
from typing import Sequence

from verifier.grounding.checks import split_name
from verifier.grounding.context import GroundingContext
from verifier.grounding.lexicon import SymbolNames
from verifier.grounding.links import Link
from verifier.grounding.symbols import SymbolUse
from verifier.grounding.templates import LinkMaker
from verifier.grounding.text import (
    ACRONYM, DIGITS, PROMINENT_TAIL, Token, acronym_match, around_another_name, best_known,
    character_part, distinctive_part, find_words, middle_name_match, of_inversion, question_tokens,
    tightest_occurrence,
)
from verifier.grounding.units import Unit
from verifier.grounding.words import DETERMINERS, NAME_TITLES
from verifier.lexical import LabelIndex, NameEntry, content_keys, words_beyond, words_of
from verifier.logic import Var

__all__ = ["SpanLinker", "other_items_name"]

#: an article that starts a phrase
_LEADING_ARTICLE = re.compile(r"^\s*(?:" + "|".join(sorted(DETERMINERS, key=lambda w: (-len(w), w)))
                              + r")\s+", re.I)


def other_items_name(labels: LabelIndex, sym: SymbolUse, phrase: str, own_keys: Sequence[str]) -> bool:
    """Whether ``phrase``, which writes more than the words ``own_keys`` of a name of
    ``sym`` (titles aside), is another item's label: a name that is part of a longer
    proper name ("Mexico" in "new mexico", "Simpson" in "Bart Simpson") does not name
    ``sym`` there ("sir isaac newton" still names *Isaac Newton*)."""
    if not words_beyond(phrase, own_keys):
        return False
    phrases = [phrase]
    if phrase == phrase.casefold():
        # in lower case, also without an article: "the new york mets" is the Mets' name
        # (with capitals the article is no part of a name, and "the Japanese language"
        # still names *Japanese* although an obscure item is labelled "Japanese Language")
        phrases.append(_LEADING_ARTICLE.sub("", phrase))
    return any(e.symbol != sym.id for p in dict.fromkeys(phrases)
               for e in labels.labels_written_as(p))


class SpanLinker:
    """Links the items (and classes) of a query to the noun phrases of the question that
    write one of their names (exactly, by stems, with a near spelling, or by a distinctive
    part of it; see :mod:`verifier.grounding.text`)."""

    def __init__(self, names: SymbolNames, maker: LinkMaker) -> None:
        self.names = names
        self.labels = names.labels
        self.maker = maker

    def best_known_first_word(self, sym: SymbolUse, toks: Sequence[Token], words: list[str],
                               n: NameEntry, question: str) -> tuple[float, int, int] | None:
        """A capitalised label of two words written by its first word alone ("tupac" for
        *Tupac Shakur*, "leia" for *Leia Organa*, "galileo" for *Galileo Galilei*), when the
        item is the best known (the smallest Wikidata id) of the items whose name begins with
        that word or is that word ("apple" is the fruit's before *Apple Inc.*'s, "ellen"
        *Ellen Burstyn*'s before *Ellen DeGeneres*'s).  A first word of four letters or more,
        written as a word of the question; similarity :data:`PROMINENT_TAIL`, and the caller's
        checks of a shared last word apply (it must end its phrase)."""
        name = n.name
        if (not n.is_label or len(words) != 2 or "," in name or not all(w[:1].isupper() for w in name.split())
                or len(name.split()) != 2):
            return None
        first = words[0]
        keys = content_keys(first)
        if len(first) < 4 or not first.isalpha() or len(keys) != 1 or first.casefold() in NAME_TITLES:
            return None
        found = find_words(toks, [first])
        if found is None or found[0] < 0.999:
            return None
        i = next((i for i, t in enumerate(toks) if t[1] == found[1]), None)
        if i is None:
            return None
        if question != question.casefold():
            # in a question that writes capitals, not next to a capitalised word the name
            # lacks ("Teutonic Knights" is not *Teutonic Order*)
            after = toks[i + 1] if i + 1 < len(toks) else None
            before = toks[i - 1] if i > 0 else None
            if (after is not None and question[after[1]:after[1] + 1].isupper()) or (
                    before is not None and i - 1 > 0 and question[before[1]:before[1] + 1].isupper()
                    and before[0] not in NAME_TITLES):
                return None
        if around_another_name(self.labels, sym.id, toks, i, i, question):
            return None  # the words around it write another item's name ("richard pryor")
        key = keys[0]
        rivals = {e.symbol for e in self.labels.by_key.get(key, ())
                  if self.labels.kinds.get(e.symbol) in ("item", "class")
                  and ((e.name[:1].isupper() and e.keys[:1] == (key,)) or e.keys == (key,))}
        if not best_known(sym.id, rivals | {sym.id}):
            return None
        return (PROMINENT_TAIL, found[1], found[2])

    def sole_bearer_tail(self, sym: SymbolUse, toks: Sequence[Token], words: list[str],
                          n: NameEntry, question: str) -> tuple[float, int, int] | None:
        """A proper name of two or three content words written by its last one or two words
        alone: a surname ("tchaikovsky" for *Pyotr Ilyich Tchaikovsky*), a team's nickname
        ("the steelers" for *Pittsburgh Steelers*), when no other item of the memory has a
        name that ends with those words ("lincoln" is *Abraham Lincoln*'s and the city's,
        "obama" Barack's and Michelle's: neither names anything).  Longer names need most of
        their words (:func:`distinctive_part`: "Fighting Falcon" is too little of *General
        Dynamics F-16 Fighting Falcon*).  The label is capitalised, has no comma (a
        title after it, "Diana, Princess of Wales", is no surname), and each content word of
        the part is capitalised in it ("Roman emperor" is not *emperor*); in a question that
        writes capitals, the part is not next to a capitalised word the name lacks ("Mary
        Lincoln", "Lincoln Center") other than a title ("President Lincoln"), and in any
        question the words around it do not make another item's label ("laura ingalls
        wilder" is not *Dan Ingalls*).  Similarity 0.8."""
        name = n.name
        if not name[:1].isupper() or "," in name or not 2 <= len(words) <= 8 or not 2 <= len(n.keys) <= 3:
            return None
        lowercase_question = question == question.casefold()
        for j in range(min(len(words) - 1, 6), 0, -1):
            part = words[-j:]
            keys = content_keys(" ".join(part))
            if not keys or len(keys) > 3 or tuple(n.keys[-len(keys):]) != tuple(keys) or len(keys) == len(n.keys):
                continue
            if len(keys) == 1 and (len(part[-1]) < 4 or not part[-1].isalpha()):
                continue
            written = name.split()[-j:] if len(name.split()) >= j else []
            if len(written) != j or not all(w[:1].isupper() for w, p in zip(written, part)
                                             if content_keys(p)):
                continue
            found = find_words(toks, part)
            if found is None or found[0] < 0.999:
                continue
            i = next((i for i, t in enumerate(toks) if t[1] == found[1]), None)
            k = next((k for k, t in enumerate(toks) if t[2] == found[2]), None)
            if i is None or k is None:
                continue
            # the words around it complete another item's name ("laura ingalls wilder" is not
            # *Dan Ingalls*)
            if around_another_name(self.labels, sym.id, toks, i, k, question):
                return None
            if not lowercase_question:
                before = toks[i - 1] if i > 0 else None
                after = toks[k + 1] if k + 1 < len(toks) else None
                if (before is not None and question[before[1]:before[1] + 1].isupper()
                        and before[0] not in NAME_TITLES and before[0] not in words) or (
                        after is not None and question[after[1]:after[1] + 1].isupper()):
                    continue
            bearers = {e.symbol for e in self.labels.by_key.get(keys[-1], ())
                       if tuple(e.keys[-len(keys):]) == tuple(keys)
                       and self.labels.kinds.get(e.symbol) in ("item", "class")}
            if bearers == {sym.id}:
                return (0.8, found[1], found[2])
            namesakes = {e.symbol for e in self.labels.proper_names_ending(toks[k][0]) if e.symbol in bearers}
            if len(keys) == 1 and best_known(sym.id, namesakes):
                # the best known of the proper names that end with the word as written (the
                # smallest Wikidata id): "lincoln" for *Abraham Lincoln*, "obama" for *Barack
                # Obama*, "the giants" for *New York Giants* (not *gas giant*, and "raiders" is
                # not *Tomb Raider*); a lower similarity says that the name is shared
                return (PROMINENT_TAIL, found[1], found[2])
            return None  # a shorter part is shared at least as widely
        return None

    def links(self, ctx: GroundingContext, sym: SymbolUse, units: list[Unit]) -> list[Link]:
        """Find a name of the item in the question (exact words, stems, or a near spelling for
        typos) and link the noun phrase whose span covers it."""
        question, spans = ctx.question, ctx.spans
        if not question or not spans:
            return []
        toks = question_tokens(question)
        best: tuple[float, int, int, str] | None = None
        head_only = False  # "H of M" for the name "M H": the phrase headed by H is the item
        tail_only = False  # the name's last words, which no other item's name ends with
        role_only = False  # a character's first or last name (:func:`character_part`)
        first_only = False  # a label's first word, the whole of its phrase (:meth:`best_known_first_word`)
        for n in self.names.names_of(sym):
            words = words_of(n.name)
            if not words or len(" ".join(words)) < 2:
                continue
            found = find_words(toks, words)
            if found is None and len(words) >= 3:
                # a distinctive prefix of a long name ("National Autonomous University" for
                # "... of Mexico"): two content words or more and most of the name ("battle
                # of" is no prefix of *Battle of Yarmouk* that names it)
                found = distinctive_part(toks, words, question)
            if found is None and len(words) >= 3 and n.name[:1].isupper() and "," not in n.name:
                # ... or a distinctive suffix of a long name, written capitalised ("F-16
                # Fighting Falcon" for *General Dynamics F-16 Fighting Falcon*); not a title
                # after a comma ("Duke of Cambridge" is no name of *Prince William, Duke of
                # Cambridge*)
                found = distinctive_part(toks, words, question, tail=True)
            if found is None:
                found = middle_name_match(toks, words, n.name, question)
            if found is None:
                found = acronym_match(toks, question, n.name)
            by_tail = by_role = False
            if found is None:
                found = self.sole_bearer_tail(sym, toks, words, n, question)
                by_tail = found is not None
            if found is None and sym.id in ctx.roles:
                found = character_part(toks, words, n.name)
                by_role = found is not None
            by_first = False
            if found is None:
                found = self.best_known_first_word(sym, toks, words, n, question)
                by_tail = by_first = found is not None  # the same checks as a shared last word
            inverted = False
            if found is None and not n.name[:1].isupper():  # common nouns only, not names
                found = of_inversion(toks, words)
                inverted = found is not None
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], found[2], n.name)
                head_only, tail_only, role_only, first_only = inverted, by_tail, by_role, by_first
        if best is None:
            best = self.name_inside_label(sym, units, question, toks, spans)
        if best is None:
            return []
        sim, a, b = best[0], best[1], best[2]
        headed = {u.var.name for u in units if isinstance(u.var, Var)
                  and u.kind in ("named", "noun", "relational_noun", "abstract")}
        if sim >= 0.999 and not head_only:
            a, b = tightest_occurrence(toks, question, a, b, spans, headed)
        if sim < 0.999 and not (tail_only and sim == PROMINENT_TAIL):
            # a near spelling: not if the question names another item exactly (a surname that
            # is also a place's name is left to the best known bearer, above)
            written = question[a:b]
            keys = set(content_keys(written))
            exact = {n.symbol for n in self.labels.candidates(keys, kind="item")
                     if n.symbol != sym.id and set(n.keys) == keys and words_of(n.name) == words_of(written)}
            # an acronym of the item that other items are named by outright ("USA", a film)
            # is still the best known one's ("the usa": *United States of America*, Q30)
            if exact and not (sim == ACRONYM and best_known(
                    sym.id, exact | self.labels.acronym_bearers(written.upper()) | {sym.id})):
                return []
        # the noun phrase that covers the match most tightly; when the parse split the name
        # over several noun phrases ("Go" + "Seigen"), every phrase inside the match
        covering = [(v, sa, sb) for v, (sa, sb) in spans.items()
                    if sa <= a + 1 and sb >= b - 1 and v in headed]
        if head_only:
            chosen = [v for v, (sa, sb) in spans.items() if abs(sa - a) <= 1 and v in headed][:1]
        elif covering:
            v, sa, sb = min(covering, key=lambda c: c[2] - c[1])
            if tail_only and sim == PROMINENT_TAIL and question[b:sb].strip(" '’s"):
                return []  # a shared surname must end its phrase ("luther" in "dr luther king jr")
            if first_only and any(w not in NAME_TITLES and w not in DETERMINERS
                                  for w in words_of(question[sa:a])):
                return []  # a first name must be the whole phrase ("richard" in "richard pryor")
            if sym.kind == "item" and other_items_name(self.labels, sym, question[sa:sb], content_keys(question[a:b])):
                return []
            if (sym.kind == "item" and not best[3][:1].isupper() and words_beyond(question[sa:sb], content_keys(question[a:b]))
                    and any(u.kind == "named" and isinstance(u.var, Var) and u.var.name == v for u in units)):
                # a common noun inside a longer proper name ("lake" in "lake havasu city") is
                # part of that name, not the thing it names elsewhere
                return []
            chosen = [v]
        elif tail_only and sim == PROMINENT_TAIL:
            return []  # no phrase of the reading is headed by it
        else:
            chosen = [v for v, (sa, sb) in spans.items() if sa >= a - 1 and sb <= b + 1]
            if not chosen:
                over = [(v, sa, sb) for v, (sa, sb) in spans.items() if min(sb, b) - max(sa, a) > 0]
                chosen = [max(over, key=lambda c: min(c[2], b) - max(c[1], a))[0]] if over else []
        text = question[a:b]
        why = (f"'{best[3]}' ({sym.id}) is written in the question as '{text}'" if sim >= 0.999 else
               f"'{best[3]}' ({sym.id}) is written in the question by its first word, '{text}'; it is the best"
               f" known of the items whose name begins so (the smallest Wikidata id; similarity {sim:.2f})"
               if first_only else
               f"'{best[3]}' ({sym.id}) is written in the question by its last word, '{text}', which ends"
               f" other items' names too; it is the best known of them, the one with the smallest Wikidata"
               f" id (similarity {sim:.2f})" if tail_only and sim == PROMINENT_TAIL else
               f"'{best[3]}' ({sym.id}) is written in the question by its last words, '{text}', with which"
               f" no other item's name ends (similarity {sim:.2f})" if tail_only else
               f"'{best[3]}' ({sym.id}), the character the query names as a role, is written in the question"
               f" by one of its names, '{text}' (similarity {sim:.2f})" if role_only else
               f"'{best[3]}' ({sym.id}) is close to '{text}' in the question (similarity {sim:.2f})")
        out = []
        for var in chosen:
            heads = [u for u in units if isinstance(u.var, Var) and u.var.name == var
                     and u.kind in ("named", "noun", "relational_noun", "abstract")]
            if not heads:
                continue
            # a name is the best head for an item; a noun for a class
            heads.sort(key=lambda u: (u.kind != ("noun" if sym.kind == "class" else "named"), u.kind == "abstract", u.kind))
            if sym.kind == "class" and split_name(heads[0], best[3]):
                continue
            entry = self.maker.lexicon.entry_for(best[3], sym)
            link = self.maker.make(ctx, heads[0], sym, best[3], "noun", sim, sim, why, entry,
                                   source="lexicon" if entry is not None else "label" if sim >= 0.999 else "similarity",
                                   confidence=1.0 if entry is not None else sim)
            if link is not None:
                out.append(link)
        return out

    def name_inside_label(self, sym: SymbolUse, units: list[Unit], question: str,
                           toks: Sequence[Token], spans: dict[str, tuple[int, int]]
                           ) -> tuple[float, int, int, str] | None:
        """A proper name of the question written, whole, inside a longer label of the item:
        "Moldavia" in "Principality of Moldavia", "The Daily Show" in "The Daily Show with
        Trevor Noah", "Shivaji" in "Shivaji Bhonsle I".  The question's name must be a named
        noun phrase, capitalised, and all of it must occur as consecutive words of the label
        (so "Jimmy Carter" is not inside "Jimmy Wales"); at least a third of the label's
        content words.  Similarity 0.85, and, like a near spelling, refused when another item's
        label is exactly the question's name."""
        named = {u.var.name for u in units if u.kind == "named" and isinstance(u.var, Var)}
        best = None
        # the item's names without leading determiners, once for all the question's names
        names = []
        for n in self.names.names_of(sym):
            words = words_of(n.name)
            while words and words[0] in DETERMINERS:
                words = words[1:]
            names.append((n, words))
        for var in named:
            if var not in spans:
                continue
            sa, sb = spans[var]
            inner = [t for t in toks if t[1] >= sa and t[2] <= sb]
            whole = inner
            while inner and inner[0][0] in DETERMINERS:
                inner = inner[1:]
            if not inner or not question[inner[0][1]:inner[0][1] + 1].isupper():
                continue
            q_words = [t[0] for t in inner]
            if len(" ".join(q_words)) < 4:
                continue
            # the whole name as the question writes it: no capitalised word or number right
            # before or after ("Teutonic" of "Teutonic Knights", "Tony Awards" of "the 32nd
            # Tony Awards" are parts of longer names)
            i = toks.index(whole[0])
            j = toks.index(whole[-1])
            around = ([toks[i - 1]] if i > 1 else []) + ([toks[j + 1]] if j + 1 < len(toks) else [])
            if any(question[t[1]:t[1] + 1].isupper() or DIGITS.search(t[0]) for t in around):
                continue
            for n, words in names:
                k = len(q_words)
                at = next((w for w in range(len(words) - k + 1) if words[w:w + k] == q_words), None)
                if k >= len(words) or at is None or DIGITS.search(" ".join(words[:at] + words[at + k:])):
                    continue  # not inside, or the label's other words number it ("33rd Tony Awards")
                keys = content_keys(n.name)
                if not keys or len(set(content_keys(" ".join(q_words))) & set(keys)) < len(keys) / 3:
                    continue
                a, b = inner[0][1], inner[-1][2]
                if best is None or b - a > best[2] - best[1]:
                    best = (0.85, a, b, n.name)
        return best

