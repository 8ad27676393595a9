"""A former name given with "born" is the name of the clause's subject, not another person.

"She was born Betty Mae Page", "Page was born Betty Mae Page", "Roe, born Jane Smith in 1950,":
the name right after "born" is what the subject was called at birth. The entities stage first
resolves the birth name as a person of its own; here it joins the person the subject names (a
name, or a he/she resolved as speakers are, ``antecedents.py``, else the one person named
before it with the birth name's surname and given initial), keeping the birth name as an
alias, so an outlet that writes the birth name and one that writes the later name are seen to
speak of one person. A subject that names nobody certain leaves the two apart.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Token

from ..models import Entity
from .antecedents import PRONOUN_GENDER, Antecedents

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
# "Roe, born Jane Smith,": "born" modifies the noun it follows.
MODIFIER_DEPS = frozenset({"acl", "relcl", "amod"})


def _subjects(born: Token) -> list[Token]:
    """Whose birth name may follow ``born``, best first: the noun it modifies or its clause's
    subject, then the name before the comma ("Roe, born Jane Smith": the parse often misses
    the modifier and reads "born" as the main verb)."""
    found = [born.head] if born.dep_ in MODIFIER_DEPS else []
    found += [c for c in born.children if c.dep_ in SUBJECT_DEPS]
    doc = born.doc
    if born.i >= 2 and doc[born.i - 1].text == "," and doc[born.i - 2].pos_ == "PROPN":
        found.append(doc[born.i - 2])
    return found


def _named_at(entities: Sequence[Entity], token: Token) -> Entity | None:
    start, end = token.idx, token.idx + len(token)
    for e in entities:
        if e.type == "PERSON" and any(m.start < end and start < m.end for m in e.mentions):
            return e
    return None


def _antecedent(
    resolver: Antecedents, pronoun: Token, birth: Entity, entities: Sequence[Entity]
) -> Entity | None:
    """The person a he/she before "born" stands for: the pronoun's antecedent, else the one
    person named earlier whose full name has the birth name's surname and the initial of its
    given name, and whom the article never shows to be of the other gender (a family name
    kept from birth, a given name respelled: "She was born Betty Mae Page" after "Bettie
    Page"; never her father "John Page")."""
    found = resolver.person_for(pronoun)
    if found is not None and found.named:
        return next((e for e in entities if e.type == "PERSON" and e.name == found.name), None)
    words = birth.name.casefold().split()
    want = PRONOUN_GENDER[pronoun.lower_]
    kin = [
        e
        for e in entities
        if e.type == "PERSON"
        and e.id != birth.id
        and len(e.name.split()) > 1
        and e.name.casefold().split()[-1] == words[-1]
        and e.name.casefold()[0] == words[0][0]
        and e.mentions[0].start < pronoun.idx
        and resolver.gender.get(e.id, want) == want
    ]
    return kin[0] if len(kin) == 1 else None


def merge_birth_names(doc: Doc, entities: list[Entity]) -> list[Entity]:
    """``entities`` with every birth-name person joined to the person it was the name of."""
    into: dict[str, str] = {}  # birth-name entity id -> the person's entity id
    resolver: Antecedents | None = None
    for entity in entities:
        if entity.type != "PERSON":
            continue
        for m in entity.mentions:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None or span.start == 0 or doc[span.start - 1].lower_ != "born":
                continue
            target = None
            for subject in _subjects(doc[span.start - 1]):
                target = _named_at(entities, subject)
                if target is None and subject.lower_ in PRONOUN_GENDER:
                    resolver = resolver or Antecedents(doc, entities)
                    target = _antecedent(resolver, subject, entity, entities)
                if target is not None:
                    break
            if target is not None and target.id != entity.id and target.id not in into:
                into[entity.id] = target.id
                break
    into = {b: p for b, p in into.items() if p not in into}  # no chains: each joins once
    if not into:
        return entities
    by_id = {e.id: e for e in entities}
    joined = {e.id: e for e in entities if e.id not in into}
    for birth_id, person_id in into.items():
        person, birth = joined[person_id], by_id[birth_id]
        joined[person_id] = _join(person, birth)
    return sorted(joined.values(), key=lambda e: (e.mentions[0].start, e.name))


def _join(person: Entity, birth: Entity) -> Entity:
    mentions = {(m.start, m.end): m for m in [*person.mentions, *birth.mentions]}
    aliases = [*person.aliases, birth.name, *birth.aliases]
    return person.model_copy(
        update={
            "mentions": [mentions[k] for k in sorted(mentions)],
            "aliases": [a for a in dict.fromkeys(aliases) if a != person.name],
            "age": person.age if person.age is not None else birth.age,
            "age_span": person.age_span if person.age is not None else birth.age_span,
            "roles": list(dict.fromkeys([*person.roles, *birth.roles])),
        }
    )
