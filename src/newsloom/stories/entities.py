"""People and organisations across a story: per-article entities merged into StoryEntities.

People merge when their full names agree (a typo, a middle name or an initial aside), when
their spellings are variants of one name the story gives no reason to keep apart
(``name_variants``), or when an article gives one of them the other's full name (a birth
name). A name given alone — a surname ("Roe") or a first name ("Jane") — joins the one
person of the story it can name; when two people share it ("Jane Roe" and "John Roe") it
joins the one the evidence leaves, else neither.
Two names that one article keeps apart as two entities are two people. Organisations and
places merge on their folded name (a leading "the" aside) or an acronym of exactly one long
form. Ages stay with the articles that state them; ``age_conflict`` says they cannot all be
true given when the articles were published.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from ..models import ArticleAnalysis, Entity, StoryEntity
from ..text.dates import first_day
from ..text.names import acronym_of, is_honorific, is_typo, looks_like_acronym, word_key
from ..text.unionfind import UnionFind
from .ages import AGE_SLACK, DAYS_PER_YEAR, age_conflict
from .name_variants import Evidence, contradicts, gender_of, same_person

__all__ = ["AGE_SLACK", "DAYS_PER_YEAR", "age_conflict", "merge_entities"]

# A lone word this long that starts exactly one person's first name is that person's short
# form; shorter ones ("Al", "Jo", "Ed") start too many names.
MIN_SHORT_FORM = 4
# Characters before a mention read for a title ("Mrs. " is five; a longer word is no title).
TITLE_REACH = 6


@dataclass
class _Item:
    article_index: int
    article_id: str
    published: date | None
    entity: Entity
    words: tuple[str, ...]  # name words as compared (folded, honorifics dropped)
    titles: tuple[str, ...] = ()  # the word written before each mention ("Mrs", "the")


def _name_words(name: str) -> tuple[str, ...]:
    return tuple(word_key(w) for w in name.split() if not is_honorific(w) and word_key(w))


def _org_key(name: str) -> str:
    key = re.sub(r"^the\s+", "", " ".join(_name_words(name)))
    return re.sub(r"[^\w\s]+", "", key).strip()


def merge_entities(analyses: Sequence[ArticleAnalysis]) -> list[StoryEntity]:
    """The story's entities, those in most articles first."""
    items: list[_Item] = []
    for index, analysis in enumerate(analyses):
        published = first_day(analysis.article.published)
        for entity in analysis.entities:
            words = _name_words(entity.name)
            if words:
                titles = tuple(
                    _word_before(analysis.article.text, m.start) for m in entity.mentions
                )
                titles += tuple(w for w in entity.name.split()[:1] if is_honorific(w))
                items.append(_Item(index, analysis.article.id, published, entity, words, titles))
    people = [i for i, it in enumerate(items) if it.entity.type == "PERSON"]
    others = [i for i, it in enumerate(items) if it.entity.type != "PERSON"]
    clusters = _people(items, people) + _others(items, others)
    texts = [a.article.text for a in analyses]
    merged = [_story_entity([items[i] for i in c], texts) for c in clusters]
    first = {id(e): k for k, e in enumerate(merged)}
    return sorted(merged, key=lambda e: (-len(e.article_ids), first[id(e)]))


def _word_before(text: str, start: int) -> str:
    words = text[max(0, start - TITLE_REACH) : start].split()
    return words[-1] if words else ""


def _apart(items: list[_Item], a: list[int], b: list[int]) -> bool:
    """One article holds both as separate entities: two different people."""
    return bool({items[i].article_index for i in a} & {items[i].article_index for i in b})


def _first_names_agree(a: str, b: str, rarer_is_typo: bool) -> bool:
    if a == b:
        return True
    if len(a) == 1 or len(b) == 1:  # an initial
        return a[0] == b[0]
    if not is_typo(a, b):
        return False
    # A swap of two letters is a slip; a changed letter may be another name (Jane/Jake),
    # so it counts only when one spelling is the rarer one.
    return sorted(a) == sorted(b) or rarer_is_typo


def _people(items: list[_Item], indices: list[int]) -> list[list[int]]:
    full: dict[tuple[str, ...], list[int]] = defaultdict(list)
    single: dict[str, list[int]] = defaultdict(list)
    for i in indices:
        words = items[i].words
        (full[words] if len(words) > 1 else single[words[0]]).append(i)
    clusters = _link_aliases(items, _merge_variants(items, _merge_full_names(items, full)))
    return _attach_single_names(items, clusters, single)


def _articles(items: list[_Item], members: list[int]) -> int:
    return len({items[i].article_index for i in members})


def _merge_full_names(
    items: list[_Item], full: dict[tuple[str, ...], list[int]]
) -> list[list[int]]:
    """Full names that spell one person: same surname (or a typo of it) and first name."""
    names = sorted(full, key=lambda k: (-_articles(items, full[k]), k))
    clusters: list[tuple[list[tuple[str, ...]], list[int]]] = []
    by_initial: dict[str, list[int]] = defaultdict(list)  # surname's first letter -> clusters
    for name in names:
        members = full[name]
        target = None
        for c in by_initial[name[-1][0]]:
            forms, c_members = clusters[c]
            if _apart(items, members, c_members):
                continue
            rarer = _articles(items, members) < _articles(items, c_members)
            if any(_same_full_name(name, form, rarer) for form in forms):
                target = c
                break
        if target is None:
            by_initial[name[-1][0]].append(len(clusters))
            clusters.append(([name], list(members)))
        else:
            clusters[target][0].append(name)
            clusters[target][1].extend(members)
    return [members for _, members in clusters]


def _evidence(items: list[_Item], members: list[int]) -> Evidence:
    """What the articles state of one person besides the name (``name_variants``)."""
    ages: dict[int, tuple[int, date | None]] = {}
    for i in members:
        it = items[i]
        if it.entity.age is not None:
            ages.setdefault(it.article_index, (it.entity.age, it.published))
    roles = [role for i in members for role in items[i].entity.roles]
    heads = {words[-1].casefold() for r in roles if (words := r.split(" of ")[0].split())}
    return Evidence(
        ages=tuple(ages[k] for k in sorted(ages)),
        genders=gender_of([t for i in members for t in items[i].titles], roles),
        roles=frozenset(heads),
        articles=_articles(items, members),
    )


def _merge_variants(items: list[_Item], clusters: list[list[int]]) -> list[list[int]]:
    """Spellings of one person the full-name merge keeps apart ("Duncan Raite", "Duncan
    Robert Rait"; see ``name_variants``). A spelling joins the one person it may spell, when
    that person is written by as many articles or more; a spelling that may be two people
    joins neither, and neither joins it."""
    forms = [{items[i].words for i in members} for members in clusters]
    evidence = [_evidence(items, members) for members in clusters]
    by_initial: dict[str, set[int]] = defaultdict(set)  # surname's first letter -> clusters
    for c, names in enumerate(forms):
        for name in names:
            by_initial[name[-1][0]].add(c)
    partners: dict[int, list[int]] = {}
    for c, names in enumerate(forms):
        near = {d for name in names for d in by_initial[name[-1][0]]} - {c}
        partners[c] = [
            d
            for d in sorted(near)
            if not _apart(items, clusters[c], clusters[d])
            and any(same_person(a, b, evidence[c], evidence[d]) for a in names for b in forms[d])
        ]
    out = [list(members) for members in clusters]
    alive = set(range(len(clusters)))
    for c in sorted(alive, key=lambda c: (evidence[c].articles, c)):  # rarest first
        if len(partners[c]) != 1 or c not in alive:
            continue
        (d,) = partners[c]
        if d not in alive or evidence[c].articles > evidence[d].articles:
            continue
        if contradicts(evidence[c], evidence[d]):  # with the spellings d took in before
            continue
        out[d].extend(out[c])
        evidence[d] = evidence[d].joined(evidence[c])
        alive.discard(c)
    return [out[c] for c in sorted(alive)]


def _link_aliases(items: list[_Item], clusters: list[list[int]]) -> list[list[int]]:
    """An article that gives one person a second full name (a birth name: "She was born Betty
    Mae Page") ties the people of the story named so, unless an article keeps them apart or
    what is stated of them contradicts (``name_variants.contradicts``)."""
    owner: dict[tuple[str, ...], set[int]] = defaultdict(set)
    for c, members in enumerate(clusters):
        for i in members:
            owner[items[i].words].add(c)
    evidence = [_evidence(items, members) for members in clusters]
    union = UnionFind(len(clusters))
    for c, members in enumerate(clusters):
        for i in members:
            for alias in items[i].entity.aliases:
                words = _name_words(alias)
                named = owner.get(words, set()) - {c}
                if len(words) < 2 or len(named) != 1:
                    continue
                (d,) = named
                if not _apart(items, members, clusters[d]) and not contradicts(
                    evidence[c], evidence[d]
                ):
                    union.union(c, d)
    return [[i for c in group for i in clusters[c]] for group in union.groups()]


def _same_full_name(a: tuple[str, ...], b: tuple[str, ...], rarer_is_typo: bool) -> bool:
    if a[-1] != b[-1] and not (
        is_typo(a[-1], b[-1]) and (sorted(a[-1]) == sorted(b[-1]) or rarer_is_typo)
    ):
        return False
    if a[-1] != b[-1] and a[0] != b[0]:
        return False  # one slip per name, not two
    if not _first_names_agree(a[0], b[0], rarer_is_typo):
        return False
    middle_a, middle_b = a[1:-1], b[1:-1]
    # A middle name given by one outlet only, or the same middle names.
    return not middle_a or not middle_b or middle_a == middle_b


def _attach_single_names(
    items: list[_Item], clusters: list[list[int]], single: dict[str, list[int]]
) -> list[list[int]]:
    """A lone surname, first name or short first name joins the only person of the story it
    can name (for a surname several people share: the only one the evidence leaves)."""
    surnames: dict[str, set[int]] = defaultdict(set)
    firsts: dict[str, set[int]] = defaultdict(set)
    for c, members in enumerate(clusters):
        for i in members:
            surnames[items[i].words[-1]].add(c)
            firsts[items[i].words[0]].add(c)
    out = [list(m) for m in clusters]
    for word, members in single.items():
        is_surname = word in surnames
        candidates = surnames.get(word) or (firsts.get(word) if not is_surname else None)
        if not candidates and len(word) >= MIN_SHORT_FORM:
            # A short form of one first name ("Rafa" for "Rafael", "Chris" for "Christopher").
            candidates = {c for first, cs in firsts.items() if first.startswith(word) for c in cs}
        if is_surname and candidates and len(candidates) > 1:
            candidates = _narrow_surname(items, clusters, members, candidates)
        if candidates and len(candidates) == 1:
            (c,) = candidates
            # A surname an article keeps apart from the full name may be a relative ("Roe"
            # the husband); a first name or nickname left apart is the stage missing a link.
            if not (is_surname and _apart(items, members, clusters[c])):
                out[c].extend(members)
                continue
        out.append(list(members))
    return out


def _narrow_surname(
    items: list[_Item], clusters: list[list[int]], members: list[int], candidates: set[int]
) -> set[int]:
    """The people a lone surname several of them share may name, by evidence: none an article
    of the surname keeps apart from it, none of another gender (a title, a role noun), and
    none the story names only beside another of them ("her brother Jack Page" in an article
    on Bettie Page): an article giving a surname alone speaks of someone its readers know,
    and a person the story only ever mentions next to another is not the one they know.
    Several left, or none, leave the surname to nobody."""
    genders = _evidence(items, members).genders
    left = {
        c
        for c in candidates
        if not _apart(items, members, clusters[c])
        and len(genders | _evidence(items, clusters[c]).genders) <= 1
    }
    articles = {c: {items[i].article_index for i in clusters[c]} for c in left}
    return {
        c for c in left if any(all(a not in articles[d] for d in left - {c}) for a in articles[c])
    }


def _others(items: list[_Item], indices: list[int]) -> list[list[int]]:
    """Organisations and places: one folded name, or an acronym of exactly one long form."""
    by_key: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i in indices:
        by_key[(items[i].entity.type, _org_key(items[i].entity.name))].append(i)
    merged: dict[tuple[str, str], list[int]] = {}
    for (etype, key), members in by_key.items():
        name = items[members[0]].entity.name
        if looks_like_acronym(name.replace(" ", "")):
            longs = [
                k
                for k in by_key
                if k[0] == etype and k != (etype, key) and acronym_of(name, k[1].split())
            ]
            if len(longs) == 1:
                merged.setdefault(longs[0], []).extend(members)
                continue
        merged.setdefault((etype, key), []).extend(members)
    return list(merged.values())


def _story_entity(members: list[_Item], texts: list[str]) -> StoryEntity:
    names: Counter[str] = Counter()  # entities named so
    articles: dict[str, set[int]] = defaultdict(set)  # articles writing the form (name/alias)
    forms: dict[str, str] = {}  # compared form -> first spelling seen
    for it in members:
        names[it.entity.name.strip()] += 1
        for form in (it.entity.name.strip(), *(a.strip() for a in it.entity.aliases)):
            if form:
                articles[form].add(it.article_index)
                forms.setdefault(" ".join(_name_words(form)), form)
    # The fullest name, then the spelling most articles write, then the one written most
    # often in the story's texts (a typo is rarely repeated), then the per-article names.
    name = max(
        articles,
        key=lambda n: (
            len(_name_words(n)),
            len(articles[n]),
            sum(text.count(n) for text in texts),
            names[n],
            n,
        ),
    )
    name_key = " ".join(_name_words(name))
    aliases = sorted({f for k, f in forms.items() if k != name_key and f != name})
    ages: dict[str, int] = {}
    stated: list[tuple[int, date | None]] = []
    for it in sorted(members, key=lambda it: it.article_index):
        if it.entity.age is not None and it.article_id not in ages:
            ages[it.article_id] = it.entity.age
            stated.append((it.entity.age, it.published))
    age = None
    if stated:
        votes = Counter(a for a, _ in stated)
        latest = {a: max((d for b, d in stated if b == a and d), default=date.min) for a in votes}
        age = max(votes, key=lambda a: (votes[a], latest[a], a))
    roles: Counter[str] = Counter()
    shown_role: dict[str, str] = {}
    for it in members:
        for role in it.entity.roles:
            key = role.strip().casefold()
            if key:
                roles[key] += 1
                shown_role.setdefault(key, role.strip())
    types = Counter(it.entity.type for it in members)
    article_ids: list[str] = []
    for it in sorted(members, key=lambda it: it.article_index):
        if it.article_id not in article_ids:
            article_ids.append(it.article_id)
    return StoryEntity(
        name=name,
        type=types.most_common(1)[0][0],
        aliases=aliases,
        age=age,
        ages=ages,
        age_conflict=age_conflict(stated),
        roles=[shown_role[k] for k, _ in sorted(roles.items(), key=lambda kv: (-kv[1], kv[0]))],
        article_ids=article_ids,
    )
